package audit

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Metadata. A user sees more than the text: the seed index, the position
// in the file and the id number of every record. If records were accepted
// in index order until one label's quota filled, the late records of a
// stratum would all have the other label; if a file were written in
// acceptance order, its head would be unbalanced. The audit scores each
// of these fields as a predictor: within each stratum (fragment, m, n1,
// n2) of a split, a record's field is turned into its rank among the
// stratum's records, in fifths; each fifth of each stratum predicts its
// majority label in train (train itself is scored out of fold: each half
// by the table of the other). It also counts the labels of the first K
// records of each split.

// metaFields are the non-text fields the metadata section scores.
var metaFields = []struct {
	name, about string
	value       func(it *item, pos int) int
}{
	{"seed-index", "rank of the seed's instance index within the record's stratum, in fifths", func(it *item, _ int) int { return it.index }},
	{"file-position", "rank of the line within the record's stratum, in fifths", func(_ *item, pos int) int { return pos }},
	{"id-number", "rank of the number the id ends in within the record's stratum, in fifths", func(it *item, _ int) int { return it.idNum }},
}

// FirstKs are the head sizes whose balance the metadata section checks.
var FirstKs = []int{100, 1000, 10000}

// MetaSplit is the metadata audit of one split: each field's score (for
// train, its accuracy on itself) and the balance of its first records.
type MetaSplit struct {
	Split   string   `json:"split"`
	Records int      `json:"records"`
	Fields  []Score  `json:"fields"`
	FirstK  []FirstK `json:"first_k"`
	Verdict Verdict  `json:"verdict"`
}

// FirstK counts the labels of a split's first K records. Balanced says
// the sat count lies within two standard errors (√K) of K/2.
type FirstK struct {
	K        int  `json:"k"`
	Sat      int  `json:"sat"`
	Unsat    int  `json:"unsat"`
	Balanced bool `json:"balanced"`
}

// trailingNumber returns the number s ends in after its last sep, or -1.
func trailingNumber(s, sep string) int {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return -1
	}
	n, err := strconv.Atoi(s[i+len(sep):])
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// metaBins is the number of rank bins per stratum.
const metaBins = 5

// metaCell is a stratum (fragment, m, n1, n2) and a rank bin in it.
type metaCell struct {
	fragment  string
	m, n1, n2 int
	bin       int
}

// metaCells returns, per field, each record's stratum and bin.
func metaCells(items []item) [][]metaCell {
	groups := map[metaCell][]int{}
	for i := range items {
		it := &items[i]
		k := metaCell{fragment: it.fragment(), m: int(it.m), n1: int(it.n1), n2: int(it.n2)}
		groups[k] = append(groups[k], i)
	}
	out := make([][]metaCell, len(metaFields))
	for f, mf := range metaFields {
		out[f] = make([]metaCell, len(items))
		for k, idx := range groups {
			ranked := slices.Clone(idx)
			slices.SortStableFunc(ranked, func(a, b int) int {
				return cmp.Compare(mf.value(&items[a], a), mf.value(&items[b], b))
			})
			for r, i := range ranked {
				c := k
				c.bin = metaBins * r / len(ranked)
				out[f][i] = c
			}
		}
	}
	return out
}

// metaTable is the majority label of each cell of the records with use
// set, and of all of them, sat on a tie as the majority baseline.
type metaTable struct {
	cells   map[metaCell]int8
	overall int8
}

func newMetaTable(cells []metaCell, y []int8, use func(i int) bool) metaTable {
	n := map[metaCell]*[2]int{}
	var all [2]int
	for i, c := range cells {
		if !use(i) {
			continue
		}
		if n[c] == nil {
			n[c] = &[2]int{}
		}
		n[c][y[i]]++
		all[y[i]]++
	}
	t := metaTable{cells: map[metaCell]int8{}, overall: majority(all)}
	for c, k := range n {
		t.cells[c] = majority(*k)
	}
	return t
}

func majority(n [2]int) int8 {
	if n[1] >= n[0] {
		return 1
	}
	return 0
}

func (t metaTable) predict(c metaCell) int8 {
	if l, ok := t.cells[c]; ok {
		return l
	}
	return t.overall
}

// foldOf is the half of train record i in the out-of-fold scores: by its
// position, or by its group when it has one (the records of an
// entailment triple share their premises, seed and stratum, so the table
// of a record's sibling would predict the sibling's label).
func foldOf(items []item, i int) int {
	if g := items[i].group(); g >= 0 {
		return g % 2
	}
	return i % 2
}

// metadataReport scores the fields, trained on train, on every split.
func metadataReport(splits []*split, o Options) []MetaSplit {
	train := splits[0]
	trainCells := metaCells(train.items)
	ytrain := labelsOf(train.items)
	var out []MetaSplit
	for _, s := range splits {
		y := labelsOf(s.items)
		ms := MetaSplit{Split: s.name, Records: len(s.items)}
		cells := trainCells
		if s != train {
			cells = metaCells(s.items)
		}
		for f, mf := range metaFields {
			pred := make([]int8, len(y))
			if s == train {
				for fold := range 2 {
					t := newMetaTable(trainCells[f], ytrain, func(i int) bool { return foldOf(train.items, i) != fold })
					for i := range y {
						if foldOf(train.items, i) == fold {
							pred[i] = t.predict(cells[f][i])
						}
					}
				}
			} else {
				t := newMetaTable(trainCells[f], ytrain, func(int) bool { return true })
				for i := range y {
					pred[i] = t.predict(cells[f][i])
				}
			}
			ms.Fields = append(ms.Fields, score(mf.name, pred, y, nil, o))
		}
		ms.FirstK = firstK(y)
		ms.Verdict = metaVerdict(ms, o)
		out = append(out, ms)
	}
	return out
}

// firstK counts the labels of the first K records for every K of FirstKs
// the split holds.
func firstK(y []int8) []FirstK {
	out := []FirstK{}
	for _, k := range FirstKs {
		if k > len(y) {
			break
		}
		fk := FirstK{K: k}
		for _, l := range y[:k] {
			if l == 1 {
				fk.Sat++
			} else {
				fk.Unsat++
			}
		}
		fk.Balanced = math.Abs(float64(fk.Sat)-float64(k)/2) <= math.Sqrt(float64(k))
		out = append(out, fk)
	}
	return out
}

// metaVerdict names the fields above the threshold and the heads that are
// not balanced.
func metaVerdict(ms MetaSplit, o Options) Verdict {
	v := Verdict{Leaks: []string{}}
	var descs []string
	for _, s := range ms.Fields {
		if s.Above {
			v.Leaks = append(v.Leaks, "metadata:"+s.Name)
			descs = append(descs, fmt.Sprintf("%s %s", s.Name, accuracy(s)))
		}
	}
	for _, fk := range ms.FirstK {
		if !fk.Balanced {
			v.Leaks = append(v.Leaks, fmt.Sprintf("first-%d", fk.K))
			descs = append(descs, fmt.Sprintf("the first %d records are %d sat, %d unsat", fk.K, fk.Sat, fk.Unsat))
		}
	}
	v.Shortcut = len(descs) > 0
	if v.Shortcut {
		v.Text = "metadata gives the label away: " + strings.Join(descs, "; ")
	} else {
		v.Text = fmt.Sprintf("no metadata shortcut above %s; every head of %v records balanced", percent(o.Threshold), heads(ms.FirstK))
	}
	return v
}

func heads(fks []FirstK) []int {
	out := []int{}
	for _, fk := range fks {
		out = append(out, fk.K)
	}
	return out
}
