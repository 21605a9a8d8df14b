package audit

import (
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/learn"
)

// TestPatternNumbers: train's patterns are numbered in the order first
// seen, with their texts; another split's keep their order and lose the
// patterns train never showed, which no model reads.
func TestPatternNumbers(t *testing.T) {
	g := newGrammar()
	names := map[uint64]string{7: "a", 3: "b", 9: "c", 5: "d"}
	tests := []struct {
		name  string
		ps    []uint64
		train bool
		want  []uint32
	}{
		{"train numbers in order", []uint64{7, 3, 7}, true, []uint32{0, 1, 0}},
		{"train adds new ones", []uint64{9, 3}, true, []uint32{2, 1}},
		{"test drops unknown", []uint64{5, 9, 7, 5}, false, []uint32{2, 0}},
		{"test adds nothing", []uint64{5}, false, []uint32{}},
	}
	for _, tt := range tests {
		if got := g.patternNumbers(tt.ps, names, tt.train); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	var keys []uint64
	for id := range g.pats.Len() {
		keys = append(keys, g.pats.Key(uint32(id)))
	}
	if !slices.Equal(keys, []uint64{7, 3, 9}) || !slices.Equal(g.patNames, []string{"a", "b", "c"}) {
		t.Errorf("table %v %v, want train's patterns 7, 3, 9 named a, b, c", keys, g.patNames)
	}
}

// TestPairVocabulary: a pairs baseline's columns are the patterns of
// enough train records in the order of their keys, and a row of its
// design holds the columns of its patterns.
func TestPairVocabulary(t *testing.T) {
	g := newGrammar()
	var train []item
	for _, ps := range [][]uint64{{40, 10, 30}, {10, 40}, {30, 20, 10}} {
		it := item{features: &features{}}
		it.pats[0] = g.patternNumbers(ps, nil, true)
		train = append(train, it)
	}
	pm := &pairModel{}
	pm.vocabulary(train, g, 2)
	var keys []uint64
	for _, id := range pm.ids {
		keys = append(keys, g.pats.Key(id))
	}
	if !slices.Equal(keys, []uint64{10, 30, 40}) {
		t.Fatalf("vocabulary %v, want 10, 30, 40 (20 is seen once)", keys)
	}
	// Scored with the weights 1, 10 and 100 of the three columns, a row
	// adds those of the patterns it shows.
	d := pm.design(train)
	m := &learn.Sparse{W: []float64{1, 10, 100}}
	for i, want := range []float64{111, 101, 11} {
		if got := m.Score(d, i); got != want {
			t.Errorf("row %d scores %v, want %v", i, got, want)
		}
	}
}

// TestNoPairSet: the balanced set without a two-sentence contradiction
// takes the first sat records and every unsat record without a pair (or
// the reverse when those are fewer), and is empty, not nil (which score
// reads as every record), when one side has none.
func TestNoPairSet(t *testing.T) {
	// label 1 sat; pair 1 holds a contradictory pair, 0 none, -1 unsaid.
	mk := func(spec ...[2]int8) []item {
		var out []item
		for _, s := range spec {
			out = append(out, item{label: s[0], pair: s[1]})
		}
		return out
	}
	sat, free, paired, unsaid := [2]int8{1, 0}, [2]int8{0, 0}, [2]int8{0, 1}, [2]int8{0, -1}
	tests := []struct {
		name  string
		items []item
		idx   []int
		want  []int
	}{
		{"more sat", mk(sat, free, sat, paired, sat, free, unsaid), nil, []int{0, 1, 2, 5}},
		{"more unsat without a pair", mk(free, sat, free, free), nil, []int{0, 1}},
		{"within idx", mk(sat, free, sat, free, sat, free), []int{2, 3, 4}, []int{2, 3}},
		{"no sat record", mk(free, paired, free), nil, []int{}},
		{"no unsat record without a pair", mk(sat, paired, unsaid), nil, []int{}},
	}
	for _, tt := range tests {
		got := noPairSet(tt.items, tt.idx)
		if got == nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: noPairSet = %#v, want %v", tt.name, got, tt.want)
		}
	}
}
