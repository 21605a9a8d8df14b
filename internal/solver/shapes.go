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

// shapeMemo maps a backend's name and a subset's shape to its status.
// It stops growing at shapeMemoMax entries: past that, subsets of new
// shapes are solved each time.
var shapeMemo = struct {
	sync.Mutex
	m map[string]Status
}{m: map[string]Status{}}

const shapeMemoMax = 1 << 20

// memoStatus returns the recorded status of key, if any.
func memoStatus(key string) (Status, bool) {
	shapeMemo.Lock()
	defer shapeMemo.Unlock()
	st, ok := shapeMemo.m[key]
	return st, ok
}

// memoRecord records the status of key.
func memoRecord(key string, st Status) {
	shapeMemo.Lock()
	defer shapeMemo.Unlock()
	if len(shapeMemo.m) < shapeMemoMax {
		shapeMemo.m[key] = st
	}
}

// sentenceShape is a formula written with its predicates numbered by
// first occurrence (text holds the number where a name stood), and the
// names in that order.
type sentenceShape struct {
	text  []byte
	preds []string
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
// problem whose sentence shapes are shapes, for the backend named name:
// the name, then each sentence's shape, then for the second sentence
// where each of its predicates stands among the first's (or a new
// number). Two subsets with the same key are one subset with its
// predicates renamed one-to-one.
func subsetKey(name string, shapes []*sentenceShape, idx []int) string {
	a := shapes[idx[0]]
	key := make([]byte, 0, len(name)+2*len(a.text)+16)
	key = append(key, name...)
	key = append(key, 0)
	key = append(key, a.text...)
	if len(idx) == 2 {
		b := shapes[idx[1]]
		key = append(key, 0)
		key = append(key, b.text...)
		key = append(key, 0)
		next := len(a.preds)
		for _, p := range b.preds {
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
			key = strconv.AppendInt(key, int64(k), 10)
			key = append(key, ',')
		}
	}
	return string(key)
}
