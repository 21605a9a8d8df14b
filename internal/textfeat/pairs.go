package textfeat

import (
	"bytes"
	"cmp"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/learn"
)

// Sentence pairs. A pair pattern is two sentences that share content
// words (nouns and verbs), delexicalised: the words they share are
// written X0, X1, … in order of first occurrence, the other content
// words _, the function words kept ("an" as "a"). Of the two orders of
// the sentences the smaller pattern is kept, unless the pair is ordered
// (a premise and a hypothesis). "every X0 is a X1 | every non- X1 is a
// X0" says that everyone is an X1 without naming anyone.

// PairPatterns returns the distinct patterns of the pairs of sentences
// that share at least one content word, and of those sharing at least
// two, each sorted, as FNV-1a hashes of their text. names, when not nil,
// gets each pattern's text by its hash.
func PairPatterns(sentences []string, names map[uint64]string) (one, two []uint64) {
	pt := newPatterner(sentences)
	for i := range pt.sents {
		for j := i + 1; j < len(pt.sents); j++ {
			one, two = pt.add(one, two, i, j, false, names)
		}
	}
	return sortedSet(one), sortedSet(two)
}

// PremisePatterns returns the patterns of the pairs (premise, hypothesis)
// that share content words, as PairPatterns does, in that order: the
// hypothesis's side of a pattern is always the second.
func PremisePatterns(premises []string, hypothesis string, names map[uint64]string) (one, two []uint64) {
	return NewPremises(premises).patterns(hypothesis, names)
}

// Premises is a premise set read once, for the patterns of many
// hypotheses with it: Patterns(h) is PremisePatterns(premises, h, nil).
type Premises struct {
	pt  *patterner
	ids map[string]int
}

// NewPremises reads the premises.
func NewPremises(premises []string) *Premises {
	p := &Premises{pt: &patterner{}, ids: map[string]int{}}
	for _, s := range premises {
		p.pt.sents = append(p.pt.sents, p.pt.read(s, p.ids, nil))
	}
	return p
}

// Patterns returns PremisePatterns(premises, hypothesis, nil).
func (p *Premises) Patterns(hypothesis string) (one, two []uint64) {
	return p.patterns(hypothesis, nil)
}

func (p *Premises) patterns(hypothesis string, names map[uint64]string) (one, two []uint64) {
	pt := p.pt
	h := len(pt.sents)
	// The hypothesis's words that no premise holds are numbered after
	// the premises' and forgotten after.
	extra := map[string]int{}
	pt.sents = append(pt.sents, pt.read(hypothesis, p.ids, extra))
	pt.index(len(p.ids) + len(extra))
	for i := range h {
		one, two = pt.add(one, two, i, h, true, names)
	}
	pt.sents = pt.sents[:h]
	return sortedSet(one), sortedSet(two)
}

func sortedSet(xs []uint64) []uint64 {
	slices.Sort(xs)
	return slices.Compact(xs)
}

// patSent is a sentence as its patterns write it: its content words (by
// their numbers in the instance, from 0), each after the text that comes
// before it (its function words, each after a space, "an" as "a"; the
// word's own space last), and the text after the last.
type patSent struct {
	slots []patSlot
	tail  []byte
}

type patSlot struct {
	lit     []byte
	content int
}

// patterner renders the pair patterns of one instance's sentences.
type patterner struct {
	sents  []patSent
	shared []bool // by content word, for the pair at hand
	name   []int  // by content word: its index among the shared, or -1
	// words are the content words of each sentence as a bitset, when
	// there are at most 64: most pairs share none, which one AND tells,
	// and the rest say which they share by one AND more.
	words []uint64
	x, y  []byte
}

func newPatterner(sentences []string) *patterner {
	ids := map[string]int{}
	pt := &patterner{sents: make([]patSent, len(sentences))}
	for i, s := range sentences {
		pt.sents[i] = pt.read(s, ids, nil)
	}
	pt.index(len(ids))
	return pt
}

// read returns sentence s, numbering its content words by ids, and the
// words ids lacks by extra (after ids's) when extra is not nil, else by
// adding them to ids.
func (pt *patterner) read(s string, ids, extra map[string]int) patSent {
	var out patSent
	var lit []byte
	Tokens(s, func(tok []byte) {
		// Only a new word is made a string: lookups of string(tok) and
		// comparisons with it make none.
		switch {
		case string(tok) == ".":
		case string(tok) == "an":
			lit = append(lit, " a"...)
		case skeletonWord(tok):
			lit = append(append(lit, ' '), tok...)
		default:
			id, ok := ids[string(tok)]
			switch {
			case ok:
			case extra == nil:
				id = len(ids)
				ids[string(tok)] = id
			default:
				if id, ok = extra[string(tok)]; !ok {
					id = len(ids) + len(extra)
					extra[string(tok)] = id
				}
			}
			out.slots = append(out.slots, patSlot{lit: append(lit, ' '), content: id})
			lit = nil
		}
	})
	out.tail = lit
	return out
}

// index sizes the patterner's tables for n content words and sets the
// sentences' bitsets of them.
func (pt *patterner) index(n int) {
	pt.shared, pt.name = make([]bool, n), make([]int, n)
	for k := range pt.name {
		pt.name[k] = -1
	}
	pt.words = nil
	if n <= 64 {
		pt.words = make([]uint64, len(pt.sents))
		for i, s := range pt.sents {
			for _, sl := range s.slots {
				pt.words[i] |= 1 << sl.content
			}
		}
	}
}

// add appends the pattern of sentences i and j to one, and to two when
// they share two content words or more; nothing when they share none.
// Unless ordered, the smaller of the two orders is the pattern.
func (pt *patterner) add(one, two []uint64, i, j int, ordered bool, names map[uint64]string) ([]uint64, []uint64) {
	var n int
	if pt.words != nil {
		both := pt.words[i] & pt.words[j]
		if both == 0 {
			return one, two
		}
		n = bits.OnesCount64(both)
		for w := both; w != 0; w &= w - 1 {
			pt.shared[bits.TrailingZeros64(w)] = true
		}
	} else {
		for _, sl := range pt.sents[i].slots {
			c := sl.content
			if !pt.shared[c] && slices.ContainsFunc(pt.sents[j].slots, func(v patSlot) bool { return v.content == c }) {
				pt.shared[c] = true
				n++
			}
		}
		if n == 0 {
			return one, two
		}
	}
	a, c := &pt.sents[i], &pt.sents[j]
	if !ordered {
		switch firstText(a, c) {
		case 1:
			a, c, ordered = c, a, true
		case -1:
			ordered = true
		}
	}
	pt.x = pt.render(pt.x[:0], a, c)
	p := pt.x
	if !ordered {
		pt.y = pt.render(pt.y[:0], c, a)
		if bytes.Compare(pt.y, pt.x) < 0 {
			p = pt.y
		}
	}
	for _, s := range [2]*patSent{&pt.sents[i], &pt.sents[j]} {
		for _, sl := range s.slots {
			pt.shared[sl.content] = false
		}
	}
	h := fnv1a(p)
	if names != nil {
		if _, ok := names[h]; !ok {
			names[h] = strings.TrimSpace(string(p))
		}
	}
	one = append(one, h)
	if n >= 2 {
		two = append(two, h)
	}
	return one, two
}

// firstText compares the patterns of a then c and of c then a by the
// text before their first content words, which most often decides it:
// -1 if the first is the smaller, 1 if the second, 0 if that text does
// not tell (one is the other or the start of it).
func firstText(a, c *patSent) int {
	if len(a.slots) == 0 || len(c.slots) == 0 {
		return 0
	}
	la, lc := a.slots[0].lit, c.slots[0].lit
	for k := range min(len(la), len(lc)) {
		switch {
		case la[k] < lc[k]:
			return -1
		case la[k] > lc[k]:
			return 1
		}
	}
	return 0
}

// render appends the pattern of a then c to buf.
func (pt *patterner) render(buf []byte, a, c *patSent) []byte {
	next := 0
	for k, s := range [2]*patSent{a, c} {
		if k == 1 {
			buf = append(buf, '|')
		}
		for _, sl := range s.slots {
			buf = append(buf, sl.lit...)
			w := sl.content
			if !pt.shared[w] {
				buf = append(buf, '_')
				continue
			}
			if pt.name[w] < 0 {
				pt.name[w] = next
				next++
			}
			if x := pt.name[w]; x < 10 {
				buf = append(buf, 'X', byte('0'+x))
			} else {
				buf = strconv.AppendInt(append(buf, 'X'), int64(x), 10)
			}
		}
		buf = append(buf, s.tail...)
	}
	for _, s := range [2]*patSent{a, c} {
		for _, sl := range s.slots {
			pt.name[sl.content] = -1
		}
	}
	return buf
}

// fnv1a is the 64-bit FNV-1a hash of b.
func fnv1a(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// CommonPatterns returns, in increasing order, the patterns that at
// least min of the n rows hold, row(i) giving row i's distinct patterns:
// the features of a model over patterns.
func CommonPatterns(n int, row func(i int) []uint64, min int) []uint64 {
	df := map[uint64]int{}
	for i := range n {
		for _, p := range row(i) {
			df[p]++
		}
	}
	var keys []uint64
	for p, k := range df {
		if k >= min {
			keys = append(keys, p)
		}
	}
	slices.Sort(keys)
	return keys
}

// PatternIndex numbers the patterns of a model: the column of each. It
// is a table of open addressing, at most two thirds full, in which a
// pattern is looked for from the slot its key hashes to onwards, up to
// the first empty slot: a model's index of some 400,000 patterns is
// asked for every pattern of every candidate, most often a few slots of
// one cache line, where a Go map of the same patterns read two lines,
// its control word's and the slot's. A slot takes 12 bytes, so the table
// takes no more room than the map did. The nil index holds no pattern.
type PatternIndex []patternSlot

// patternSlot is a slot of a PatternIndex: a pattern's key, low half
// first, and its column, or empty (column -1). Halves keep the slot at
// 12 bytes, where a uint64 would align it to 16.
type patternSlot struct {
	lo, hi uint32
	column int32
}

// NewPatternIndex numbers keys in their order (a key given twice takes
// the later column).
func NewPatternIndex(keys []uint64) PatternIndex {
	x := make(PatternIndex, len(keys)*3/2+1) // an empty slot at least, where every search ends
	for k := range x {
		x[k].column = -1
	}
	for c, p := range keys {
		lo, hi := uint32(p), uint32(p>>32)
		k := x.home(p)
		for x[k].column >= 0 && (x[k].lo != lo || x[k].hi != hi) {
			if k++; k == len(x) {
				k = 0
			}
		}
		x[k] = patternSlot{lo, hi, int32(c)}
	}
	return x
}

// home returns the slot where the search for p begins: the high bits of
// p mixed, scaled to the table's length.
func (x PatternIndex) home(p uint64) int {
	k, _ := bits.Mul64(p*0x9e3779b97f4a7c15, uint64(len(x)))
	return int(k)
}

// Column returns the column of pattern p, false if x does not hold it.
func (x PatternIndex) Column(p uint64) (int32, bool) {
	if len(x) == 0 {
		return -1, false
	}
	lo, hi := uint32(p), uint32(p>>32)
	for k := x.home(p); ; {
		switch s := x[k]; {
		case s.column < 0:
			return -1, false
		case s.lo == lo && s.hi == hi:
			return s.column, true
		}
		if k++; k == len(x) {
			k = 0
		}
	}
}

// AppendColumns appends to dst the columns of the patterns the index
// holds, in the patterns' order, and returns it.
func (x PatternIndex) AppendColumns(dst []int32, patterns []uint64) []int32 {
	for _, p := range patterns {
		if c, ok := x.Column(p); ok {
			dst = append(dst, c)
		}
	}
	return dst
}

// PatternTable numbers distinct patterns in the order first seen, so that
// many rows can hold their patterns as 4-byte numbers, each pattern once
// in the table: the patterns of a set's rows repeat (nine in ten of an A
// pilot's occurrences are of a pattern seen before).
type PatternTable struct {
	num  map[uint64]uint32
	keys []uint64 // by number
}

// NewPatternTable returns an empty table.
func NewPatternTable() *PatternTable { return &PatternTable{num: map[uint64]uint32{}} }

// Len returns the number of patterns numbered.
func (t *PatternTable) Len() int { return len(t.keys) }

// Key returns the pattern numbered id.
func (t *PatternTable) Key(id uint32) uint64 { return t.keys[id] }

// Keys returns the patterns numbered ids, in their order.
func (t *PatternTable) Keys(ids []uint32) []uint64 {
	out := make([]uint64, len(ids))
	for j, id := range ids {
		out[j] = t.keys[id]
	}
	return out
}

// Numbers returns the numbers of ps, in their order. With add, a pattern
// the table lacks is numbered next (so new numbers appear in increasing
// order, each the first time); without, it is left out.
func (t *PatternTable) Numbers(ps []uint64, add bool) []uint32 {
	n := len(ps)
	if !add {
		n = 0
		for _, p := range ps {
			if _, ok := t.num[p]; ok {
				n++
			}
		}
	}
	out := make([]uint32, 0, n)
	for _, p := range ps {
		id, ok := t.num[p]
		if !ok {
			if !add {
				continue
			}
			id = uint32(len(t.keys))
			t.num[p] = id
			t.keys = append(t.keys, p)
		}
		out = append(out, id)
	}
	return out
}

// Vocabulary is CommonPatterns and NewPatternIndex over rows of numbers:
// the numbers of the patterns that at least min occurrences among the n
// rows show (row(i) giving row i's), in the increasing order of their
// patterns, which are the columns of a model over them; and column,
// which maps every number of the table to its column, or -1.
func (t *PatternTable) Vocabulary(n int, row func(i int) []uint32, min int) (ids []uint32, column PatternColumns) {
	count := make([]int32, len(t.keys))
	for i := range n {
		for _, id := range row(i) {
			count[id]++
		}
	}
	for id, c := range count {
		if int(c) >= min {
			ids = append(ids, uint32(id))
		}
	}
	slices.SortFunc(ids, func(a, b uint32) int { return cmp.Compare(t.keys[a], t.keys[b]) })
	column = PatternColumns(count) // reused: every number's column from here on
	for id := range column {
		column[id] = -1
	}
	for c, id := range ids {
		column[id] = int32(c)
	}
	return ids, column
}

// PatternColumns maps the numbers of a PatternTable to the columns of a
// model (-1 for none): PatternIndex for numbered rows.
type PatternColumns []int32

// Count returns how many numbers of row have a column.
func (c PatternColumns) Count(row []uint32) int {
	n := 0
	for _, id := range row {
		if c[id] >= 0 {
			n++
		}
	}
	return n
}

// Design returns the presence design of n rows of dim columns, row i the
// columns of the numbers row(i) in increasing order (AppendSorted),
// filled in room counted first (a pair model's design over 100,000 candidates takes some
// 180 MB, which growing by appends would copy and for a moment hold
// twice).
func (c PatternColumns) Design(dim, n int, row func(i int) []uint32) *learn.Design {
	d := learn.NewDesign(dim)
	entries := 0
	for i := range n {
		entries += c.Count(row(i))
	}
	d.Reserve(n, entries)
	var cols []int32
	for i := range n {
		cols = c.AppendSorted(cols[:0], row(i))
		d.AddPresent(cols)
	}
	return d
}

// AppendSorted appends to dst the columns of the numbers of row that have
// one, in increasing order, and returns it. Where c numbers a model's
// columns in the order of their patterns (Vocabulary's), that is the
// order of the patterns, however the table numbered them.
func (c PatternColumns) AppendSorted(dst []int32, row []uint32) []int32 {
	n := len(dst)
	dst = c.Append(dst, row)
	slices.Sort(dst[n:])
	return dst
}

// Append appends to dst the columns of the numbers of row that have one,
// in the row's order, and returns it.
func (c PatternColumns) Append(dst []int32, row []uint32) []int32 {
	for _, id := range row {
		if col := c[id]; col >= 0 {
			dst = append(dst, col)
		}
	}
	return dst
}
