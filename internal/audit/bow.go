package audit

import (
	"cmp"
	"math"
	"slices"
	"unsafe"

	"github.com/nlsat/nlsat/internal/learn"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// grammar numbers the tokens of the training texts and counts in how many
// training records each unigram and bigram occurs. A gram is a uint32 key:
// the first token's number in the high 16 bits, the second's (0 for a
// unigram) in the low 16 bits. Numbers start at 1; a training set with
// more than 65534 distinct tokens shares the last number among the rest
// ("<other>"), far beyond any nlsat lexicon.
type grammar struct {
	ids   map[string]uint16
	words []string // by number; words[0] is unused
	df    map[uint32]int
	// pats numbers the sentence-pair patterns of train. A record holds
	// its patterns as these numbers (features.pats): an A record shows
	// about 400, most of them shared with other records. Their texts are
	// read again for the few a report names (patternTexts).
	pats  *textfeat.PatternTable
	skels *skeletonTable
}

const otherToken = math.MaxUint16

func newGrammar() *grammar {
	return &grammar{ids: map[string]uint16{}, words: []string{""}, df: map[uint32]int{}, pats: textfeat.NewPatternTable(), skels: newSkeletonTable()}
}

// id returns tok's number, numbering it if train; 0 means unknown.
func (g *grammar) id(tok []byte, train bool) uint16 {
	if id, ok := g.ids[string(tok)]; ok {
		return id
	}
	if !train {
		return 0
	}
	if len(g.words) == otherToken {
		g.words = append(g.words, "<other>")
	}
	if len(g.words) > otherToken {
		return otherToken
	}
	id := uint16(len(g.words))
	g.ids[string(tok)] = id
	g.words = append(g.words, string(tok))
	return id
}

// merge renumbers the local tokens of batch b (numbering new ones if
// train) and rewrites its records' grams as keys; grams with a token
// unseen in training are left out. For train it adds each record's grams
// to the document counts. It numbers the records' patterns and packs
// their features (pack). Batches must be merged in file order.
func (g *grammar) merge(b *batch, train bool) {
	remap := make([]uint16, len(b.local)+1)
	for i, tok := range b.local {
		remap[i+1] = g.id([]byte(tok), train)
	}
	for k := range b.loose {
		l := &b.loose[k]
		grams, counts := l.grams[:0], l.counts[:0]
		for j := range l.counts {
			a, c := remap[l.grams[2*j]], remap[l.grams[2*j+1]]
			if a == 0 || (c == 0 && l.grams[2*j+1] != 0) {
				continue
			}
			key := uint32(a)<<16 | uint32(c)
			grams, counts = append(grams, key), append(counts, l.counts[j])
		}
		l.grams, l.counts = grams, counts
		if train {
			for _, key := range l.grams {
				g.df[key]++
			}
		}
		l.setPatterns(g.pats.Numbers(l.patterns[0], train), g.pats.Numbers(l.patterns[1], train))
		l.patterns = [2][]uint64{}
	}
	if len(b.loose) == 0 {
		return
	}
	fs := pack(b.loose, b.nx, g.skels)
	for k := range fs {
		b.items[k].features = &fs[k] // the fitted records come first
	}
	b.loose = nil
}

func (g *grammar) name(key uint32) string {
	if key&0xffff == 0 {
		return g.words[key>>16]
	}
	return g.words[key>>16] + " " + g.words[key&0xffff]
}

// vocabulary numbers the grams found in at least minCount training
// records (and kept by keep, when not nil), in the order of their text,
// from 0.
func (g *grammar) vocabulary(minCount int, keep func(name string) bool) (map[uint32]int32, []string) {
	type entry struct {
		key  uint32
		name string
	}
	var es []entry
	for k, n := range g.df {
		if name := g.name(k); n >= minCount && (keep == nil || keep(name)) {
			es = append(es, entry{k, name})
		}
	}
	slices.SortFunc(es, func(a, b entry) int { return cmp.Compare(a.name, b.name) })
	index, names := make(map[uint32]int32, len(es)), make([]string, len(es))
	for i, e := range es {
		index[e.key], names[i] = int32(i), e.name
	}
	return index, names
}

// bowDesign builds the rows of the n-gram model: log(1 + count) of each
// gram in the vocabulary.
func bowDesign(items []item, index map[uint32]int32) *learn.Design {
	d := learn.NewDesign(len(index))
	entries := 0
	for i := range items {
		for _, k := range items[i].gramKeys() {
			if _, ok := index[k]; ok {
				entries++
			}
		}
	}
	d.Reserve(len(items), entries)
	var cols []int32
	var vals []float32
	for i := range items {
		cols, vals = cols[:0], vals[:0]
		counts := items[i].gramCounts()
		for j, k := range items[i].gramKeys() {
			if c, ok := index[k]; ok {
				cols = append(cols, c)
				vals = append(vals, float32(math.Log1p(float64(counts[j]))))
			}
		}
		d.Add(cols, vals)
	}
	return d
}

// logCounts are the values of the n-gram model's entries by count:
// log(1 + count), as the float32 that bowDesign stores.
var logCounts = func() *[256]float32 {
	var v [256]float32
	for c := range v {
		v[c] = float32(math.Log1p(float64(c)))
	}
	return &v
}()

// bowDesignInPlace returns bowDesign(items, index) made of the items' own
// grams and counts, without a copy beside them (the n-gram design of
// 120,000 A records takes some 120 MB): each item's grams become the
// columns of those in the vocabulary, in their order, read as int32s (a
// column is below 2³¹), and its counts their levels (learn.DesignOfLevels,
// whose sums are bowDesign's). The items hold no grams from then on, and
// no other items may share their grams' memory.
func bowDesignInPlace(items []item, index map[uint32]int32) *learn.Design {
	rows, levels := make([][]int32, len(items)), make([][]uint8, len(items))
	for i := range items {
		grams, counts := items[i].gramKeys(), items[i].gramCounts()
		cols := unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(grams))), len(grams))[:0]
		lv := counts[:0]
		for j, k := range grams { // cols[q] and lv[q] are written after entry j ≥ q is read
			if c, ok := index[k]; ok {
				cols, lv = append(cols, c), append(lv, counts[j])
			}
		}
		rows[i], levels[i] = cols, lv
		items[i].dropGrams()
	}
	return learn.DesignOfLevels(len(index), rows, levels, logCounts)
}

// standardiser centres and scales the surface features by their training
// mean and standard deviation; a constant feature becomes 0.
type standardiser struct{ mean, sd []float64 }

func newStandardiser(items []item, features int) standardiser {
	mean, sd := learn.MeanSD(len(items), features, func(i int) []float64 { return items[i].xs()[:features] })
	return standardiser{mean, sd}
}

// design builds the rows of the surface-count model, dense: every row
// has a value for each feature.
func (s standardiser) design(items []item) *learn.Design {
	features := len(s.mean)
	d := learn.NewDesign(features)
	vals := make([]float32, features)
	d.ReserveDense(len(items))
	for i := range items {
		x := items[i].xs()
		for j := range features {
			vals[j] = 0
			if s.sd[j] > 0 {
				vals[j] = float32((x[j] - s.mean[j]) / s.sd[j])
			}
		}
		d.AddDense(vals)
	}
	return d
}
