package audit

import (
	"math/rand/v2"
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
		l := loose{}
		l.setPatterns(g.patternNumbers(ps, nil, true), nil)
		train = append(train, item{features: packed(l)})
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

// TestMaskOf: a second set of patterns whose numbers all lie in the
// first, in its order, is kept as a mask over the first, and read back
// as the same numbers; any other is kept as it is.
func TestMaskOf(t *testing.T) {
	tests := []struct {
		name      string
		all, sub  []uint32
		masked    bool
		wantBytes int
	}{
		{"none", []uint32{4, 1, 9}, nil, false, 0},
		{"all", []uint32{4, 1, 9}, []uint32{4, 1, 9}, true, 1},
		{"some", []uint32{4, 1, 9, 7}, []uint32{1, 7}, true, 1},
		{"past a byte", []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, []uint32{0, 8, 9}, true, 2},
		{"out of order", []uint32{4, 1, 9}, []uint32{9, 4}, false, 0},
		{"not in the first", []uint32{4, 1, 9}, []uint32{1, 5}, false, 0},
		{"first empty", nil, []uint32{3}, false, 0},
	}
	for _, tt := range tests {
		l := loose{}
		l.setPatterns(tt.all, tt.sub)
		f := packed(l)
		if f.masked() != tt.masked || len(l.two) != tt.wantBytes || len(f.b.two) != tt.wantBytes {
			t.Errorf("%s: mask %v, want masked %v in %d bytes", tt.name, l.two, tt.masked, tt.wantBytes)
		}
		got := f.patternsOf(1, []uint32{99, 98, 97})
		if !slices.Equal(got, tt.sub) {
			t.Errorf("%s: read back %v, want %v", tt.name, got, tt.sub)
		}
		if !slices.Equal(f.patternsOf(0, nil), tt.all) {
			t.Errorf("%s: the first set reads %v", tt.name, f.patternsOf(0, nil))
		}
	}
}

// TestMaskedPairDesigns: the designs of the second set of patterns, from
// train's masks (in place, as pairReport takes them, the second set
// first) and from another split's, are those of the same numbers held as
// they are; and the first set's design after it is unchanged.
func TestMaskedPairDesigns(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	g := newGrammar()
	var plain, masked []item
	for i := range 300 {
		var one, two []uint64
		for p := range uint64(40) {
			if rng.IntN(3) == 0 {
				one = append(one, p)
				if rng.IntN(2) == 0 || i%7 == 0 {
					two = append(two, p)
				}
			}
		}
		if i%50 == 0 {
			two = append(two, 1000+uint64(i)) // not in the first set: kept as it is
		}
		n0, n1 := g.patternNumbers(one, nil, true), g.patternNumbers(two, nil, true)
		plain = append(plain, item{label: int8(rng.IntN(2)), features: packed(loose{pats: [2][]uint32{n0, n1}})})
		l := loose{}
		l.setPatterns(n0, n1)
		masked = append(masked, item{label: plain[i].label, features: packed(l)})
	}
	m := &learn.Sparse{W: make([]float64, 64)}
	for j := range m.W {
		m.W[j] = float64(int(1) << (j % 50))
	}
	for _, set := range []int{1, 0} {
		pm := newPairModel(set, plain, g, 3)
		pmMasked := newPairModel(set, masked, g, 3)
		if !slices.Equal(pm.ids, pmMasked.ids) {
			t.Fatalf("set %d: vocabularies differ", set)
		}
		want := pm.design(plain)
		other := pmMasked.design(masked)
		inPlace := pmMasked.trainDesign(masked)
		for i := range plain {
			w := m.Score(want, i)
			if m.Score(other, i) != w || m.Score(inPlace, i) != w {
				t.Fatalf("set %d row %d: masked designs score %v and %v, want %v", set, i, m.Score(other, i), m.Score(inPlace, i), w)
			}
		}
	}
}
