package solver

import (
	"strconv"
	"sync"

	"github.com/nlsat/nlsat/internal/fol"
)

// Small subsets by shape. NoCoreUpTo asks whether each connected subset
// of one or two sentences is satisfiable, and instances keep posing the
// same few: the fragments have a few dozen templates, so two sentences
// that share words fall into a few thousand shapes up to the names of
// their predicates. Renaming predicates one-to-one maps the models of a
// set of sentences onto the models of the renamed set, so two subsets of
// one shape are both satisfiable or both not, and the answer for a shape,
// once a backend gave it (a Sat answer with a model CheckModel accepted),
// holds for every subset of that shape. shapeMemo keeps those answers,
// per backend, so that a subset whose shape was decided before costs a
// map lookup instead of a solve.

// shapeMemo maps a subset's key (subsetKey) to its status, numbers the
// sentence shapes the keys name (ids) and the backends they are for
// (backends). The first two stop growing at shapeMemoMax entries: past
// that, subsets of new shapes are solved each time.
var shapeMemo = struct {
	sync.Mutex
	m        map[shapeKey]Status
	ids      map[string]int32
	backends map[string]uint64
}{m: map[shapeKey]Status{}, ids: map[string]int32{}, backends: map[string]uint64{}}

const shapeMemoMax = 1 << 20

// A shape's number is below shapeMemoMax, so it fits in shapeBits bits
// (with one more value, for no second sentence).
const shapeBits = 21

const _ = uint(1<<(shapeBits-1) - shapeMemoMax) // fails to compile if the cap outgrows the bits

// shapeKey is the memo key of one or two sentences for one backend. shapes
// holds the backend's number (memoBackend) in its bits from 2·shapeBits
// up, the first sentence's shape number in the shapeBits below, and one
// plus the second's (0 for none) in the lowest shapeBits; second holds
// where each predicate of the second sentence stands among the first's (4
// bits each, see subsetKey). At the cap, make run's builds hold a million
// keys: as two words a key and its status take 24 bytes of the map's
// slots, where a key with the backend's name took 40. A key is only
// compared with others, never read.
type shapeKey struct {
	shapes, second uint64
}

// memoBackend returns the number of the backend called name in the memo's
// keys, numbering it if it is new; false when the numbers have run out
// (past 2^(64-2·shapeBits) backends), and its subsets are not memoised.
func memoBackend(name string) (uint64, bool) {
	shapeMemo.Lock()
	defer shapeMemo.Unlock()
	if n, ok := shapeMemo.backends[name]; ok {
		return n, true
	}
	n := uint64(len(shapeMemo.backends))
	if n >= 1<<(64-2*shapeBits) {
		return 0, false
	}
	shapeMemo.backends[name] = n
	return n, true
}

// memoStatus returns the recorded status of key, if any.
func memoStatus(key shapeKey) (Status, bool) {
	shapeMemo.Lock()
	defer shapeMemo.Unlock()
	st, ok := shapeMemo.m[key]
	return st, ok
}

// memoRecord records the status of key.
func memoRecord(key shapeKey, st Status) {
	shapeMemo.Lock()
	defer shapeMemo.Unlock()
	if len(shapeMemo.m) < shapeMemoMax {
		shapeMemo.m[key] = st
	}
}

// ForgetShapes lets go of the statuses the memo holds (at its cap, some
// 50 MB), for a caller that has no decisions to make for a while and
// needs the memory for something else: a build fitting its balance
// models, or auditing the files it has written. Later decisions solve
// their subsets again and record them anew. The shapes' numbers stay,
// since keys of subsets being decided meanwhile name them.
func ForgetShapes() {
	shapeMemo.Lock()
	defer shapeMemo.Unlock()
	shapeMemo.m = map[shapeKey]Status{}
}

// ShapesHeld returns the number of subsets whose status the memo holds.
func ShapesHeld() int {
	shapeMemo.Lock()
	defer shapeMemo.Unlock()
	return len(shapeMemo.m)
}

// shapeID returns the number of the sentence shape text, numbering it if
// it is new; false when the memo is full and text has no number.
func shapeID(text []byte) (int32, bool) {
	shapeMemo.Lock()
	defer shapeMemo.Unlock()
	if id, ok := shapeMemo.ids[string(text)]; ok {
		return id, true
	}
	if len(shapeMemo.ids) >= shapeMemoMax {
		return 0, false
	}
	id := int32(len(shapeMemo.ids))
	shapeMemo.ids[string(text)] = id
	return id, true
}

// sentenceShape is a formula written with its predicates numbered by
// first occurrence (text holds the number where a name stood), and the
// names in that order.
type sentenceShape struct {
	text  []byte
	preds []string
	// id numbers text among every shape seen (shapeID); numbered is
	// false when the memo was full.
	id       int32
	numbered bool
}

// shapeOf writes f's shape.
func shapeOf(f fol.Formula) *sentenceShape {
	sh := &sentenceShape{}
	index := map[string]int{}
	var walk func(f fol.Formula)
	walk = func(f fol.Formula) {
		switch g := f.(type) {
		case *fol.Atom:
			k, ok := index[g.Pred]
			if !ok {
				k = len(sh.preds)
				index[g.Pred] = k
				sh.preds = append(sh.preds, g.Pred)
			}
			sh.text = append(sh.text, 'P')
			sh.text = strconv.AppendInt(sh.text, int64(k), 10)
			sh.text = append(sh.text, '(')
			for a, v := range g.Args {
				if a > 0 {
					sh.text = append(sh.text, ',')
				}
				sh.text = append(sh.text, v...)
			}
			sh.text = append(sh.text, ')')
		case *fol.Not:
			sh.text = append(sh.text, '~')
			walk(g.F)
		case *fol.And:
			nary(&sh.text, '&', g.Fs, walk)
		case *fol.Or:
			nary(&sh.text, '|', g.Fs, walk)
		case *fol.Implies:
			nary(&sh.text, '>', []fol.Formula{g.L, g.R}, walk)
		case *fol.Forall:
			sh.text = append(sh.text, 'A')
			sh.text = append(sh.text, g.V...)
			sh.text = append(sh.text, '.')
			walk(g.Body)
		case *fol.Exists:
			sh.text = append(sh.text, 'E')
			sh.text = append(sh.text, g.V...)
			sh.text = append(sh.text, '.')
			walk(g.Body)
		default:
			// No other node exists (fol.Formula is closed); a shape that
			// cannot be told apart from another must not be shared.
			panic("solver: unknown formula node")
		}
	}
	walk(f)
	sh.id, sh.numbered = shapeID(sh.text)
	return sh
}

// nary writes fs joined by op, in parentheses.
func nary(buf *[]byte, op byte, fs []fol.Formula, walk func(fol.Formula)) {
	*buf = append(*buf, '(')
	for i, f := range fs {
		if i > 0 {
			*buf = append(*buf, op)
		}
		walk(f)
	}
	*buf = append(*buf, ')')
}

// subsetKey returns the memo key of the sentences idx (one or two) of a
// problem whose sentence shapes are shapes, for the backend numbered
// backend (memoBackend): the backend, each sentence's shape, and for the
// second sentence where each of its predicates stands among the first's
// (or a new number), one plus that place in 4 bits per predicate. Two
// subsets with the same key are one subset with its predicates renamed
// one-to-one. ok is false, and the subset is not to be memoised, when a
// shape has no number or the places do not fit.
func subsetKey(backend uint64, shapes []*sentenceShape, idx []int) (key shapeKey, ok bool) {
	a := shapes[idx[0]]
	key.shapes = backend<<(2*shapeBits) | uint64(a.id)<<shapeBits
	if !a.numbered {
		return key, false
	}
	if len(idx) == 1 {
		return key, true
	}
	b := shapes[idx[1]]
	if !b.numbered || len(b.preds) > 16 {
		return key, false
	}
	key.shapes |= uint64(b.id) + 1
	next := len(a.preds)
	for i, p := range b.preds {
		k := -1
		for j, q := range a.preds {
			if p == q {
				k = j
				break
			}
		}
		if k < 0 {
			k = next
			next++
		}
		if k+1 > 15 {
			return key, false
		}
		key.second |= uint64(k+1) << (4 * i)
	}
	return key, true
}
