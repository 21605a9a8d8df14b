package audit

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/learn"
)

// TestTopCandidates: the patterns that can be among a model's top
// weights either way are those at or past the top-th weight, ties
// included; named from them alone, the top lists are those named from
// every pattern.
func TestTopCandidates(t *testing.T) {
	tests := []struct {
		name string
		w    []float64
		top  int
		want []uint32
	}{
		{"fewer than top", []float64{0.5, -1, 0, 2}, 3, []uint32{0, 1, 3}},
		{"cut at the top-th", []float64{3, 2, 1, -1, -2, -3}, 2, []uint32{0, 1, 4, 5}},
		{"ties at the edge", []float64{3, 2, 2, 2, 1, -5, -1, -1}, 2, []uint32{0, 1, 2, 3, 5, 6, 7}},
		{"zeros never", []float64{0, 0, 0}, 2, nil},
	}
	for _, tt := range tests {
		pm := &pairModel{fit: &learn.Sparse{W: tt.w}}
		for c := range tt.w {
			pm.ids = append(pm.ids, uint32(c))
		}
		if got := pm.topCandidates(tt.top); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		n := 1 + rng.IntN(40)
		pm := &pairModel{fit: &learn.Sparse{W: make([]float64, n)}}
		all := map[uint32]string{}
		for c := range n {
			pm.fit.W[c] = float64(rng.IntN(7) - 3) // many ties
			pm.ids = append(pm.ids, uint32(10*c))
			all[uint32(10*c)] = string(rune('a' + rng.IntN(26)))
		}
		some := map[uint32]string{}
		for _, id := range pm.topCandidates(3) {
			some[id] = all[id]
		}
		pm.topWeights(all, 3)
		want := pm.info
		pm.info = SentPairInfo{}
		pm.topWeights(some, 3)
		if !slices.Equal(pm.info.TowardSat, want.TowardSat) || !slices.Equal(pm.info.TowardUnsat, want.TowardUnsat) {
			t.Fatalf("trial %d: from the candidates %v %v, from every pattern %v %v", trial,
				pm.info.TowardSat, pm.info.TowardUnsat, want.TowardSat, want.TowardUnsat)
		}
	}
}

// namesTask reads lines "key=text key=text ...": each pair a pattern
// and its text, and reports how many lines it read.
type namesTask struct{ read *int }

func (namesTask) Spec() *Spec { return &Spec{Labels: []string{"no", "yes"}} }

func (nt namesTask) Read(line []byte, row *Row) error {
	*nt.read++
	for _, f := range strings.Fields(string(line)) {
		k, text, ok := strings.Cut(f, "=")
		key, err := strconv.ParseUint(k, 10, 64)
		if !ok || err != nil {
			return fmt.Errorf("bad pair %q", f)
		}
		if row.PatternNames != nil {
			row.PatternNames[key] = text
		}
	}
	return nil
}

// TestPatternTexts: the texts of the patterns asked for are read from
// train's first records, and the read stops once it has them all; a
// pattern the file does not show, or a record it cannot read, is an
// error that names the file.
func TestPatternTexts(t *testing.T) {
	file := filepath.Join(t.TempDir(), "train.jsonl")
	lines := "1=a 2=b\n\n3=c\n1=a 4=d\nbad\n"
	if err := os.WriteFile(file, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		want     []uint64
		texts    map[uint64]string
		read     int
		errorHas string
	}{
		{"none asked", nil, map[uint64]string{}, 0, ""},
		{"the first record", []uint64{2}, map[uint64]string{2: "b"}, 1, ""},
		{"stops when found", []uint64{3, 1}, map[uint64]string{1: "a", 3: "c"}, 2, ""},
		{"reads on", []uint64{4}, map[uint64]string{4: "d"}, 3, ""},
		{"a bad record", []uint64{9}, nil, 4, "train.jsonl:5: bad pair"},
	}
	for _, tt := range tests {
		read := 0
		want := map[uint64]uint32{}
		for _, k := range tt.want {
			want[k] = 0
		}
		got, err := patternTexts(context.Background(), namesTask{&read}, file, want)
		if tt.errorHas != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
				t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.errorHas)
			}
		} else if err != nil || !maps.Equal(got, tt.texts) {
			t.Errorf("%s: %v, %v; want %v", tt.name, got, err, tt.texts)
		}
		if read != tt.read {
			t.Errorf("%s: read %d records, want %d", tt.name, read, tt.read)
		}
	}
	if err := os.WriteFile(file, []byte("1=a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := 0
	if _, err := patternTexts(context.Background(), namesTask{&read}, file, map[uint64]uint32{1: 0, 7: 1}); err == nil || !strings.Contains(err.Error(), "1 of the sentence-pair patterns") {
		t.Errorf("a pattern the file does not show: error %v", err)
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
		l.setPatterns(g.pats.Numbers(ps, true), nil)
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

// TestMaskOf: the sets of numbers are sorted, and a second set whose
// numbers all lie in the first is kept as a mask over the first, and
// read back as the same numbers; any other is kept as it is. maskOf
// itself takes the numbers in the order given.
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
		{"given out of order", []uint32{4, 1, 9}, []uint32{9, 4}, true, 1},
		{"not in the first", []uint32{4, 1, 9}, []uint32{1, 5}, false, 0},
		{"first empty", nil, []uint32{3}, false, 0},
	}
	if m := maskOf([]uint32{9, 4}, []uint32{4, 1, 9}); m != nil {
		t.Errorf("maskOf of numbers out of the first's order: %v", m)
	}
	for _, tt := range tests {
		l := loose{}
		l.setPatterns(tt.all, tt.sub) // sorts them
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
		n0, n1 := g.pats.Numbers(one, true), g.pats.Numbers(two, true)
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
