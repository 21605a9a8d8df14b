package split

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/textfeat"
)

// TestResidualStage fits the residual stage to a pilot whose sat
// candidates show pattern 1 more often than unsat ones without a
// contradictory pair, and whose first feature leans to sat: thinned by
// it, new candidates of the two kinds show both alike, the candidates
// with a pair are left to Core, the share of unsat ones it keeps out of
// sample is what it keeps of new ones, and Core's odds grow by that
// share.
func TestResidualStage(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	draw := func() (surface, int8) {
		s := surface{x: make([]float64, 3)}
		var y int8
		switch r := rng.Float64(); {
		case r < 0.5:
			y = 1
			if rng.Float64() < 0.6 {
				s.pairs = [2][]uint64{{1}, {1}}
			}
			s.x[0] = rng.NormFloat64() + 0.5
		case r < 0.7:
			if rng.Float64() < 0.3 {
				s.pairs = [2][]uint64{{1}, {1}}
			}
			s.x[0] = rng.NormFloat64()
		default:
			s.core = true
			s.x[0] = rng.NormFloat64()
		}
		for k := range s.pairs {
			s.pairs[k] = append(s.pairs[k], uint64(2+rng.IntN(5)))
		}
		s.x[1] = rng.Float64()
		return s, y
	}
	tab := textfeat.NewPatternTable()
	var s []surface
	var y []int8
	var idx []int
	for i := 0; len(s) < 8000; i++ {
		c, label := draw()
		if c.core {
			continue // the residual pilot keeps none with a pair
		}
		compact(&c, tab)
		s, y, idx = append(s, c), append(y, label), append(idx, i)
	}
	r := fitResidualStage(s, y, idx)
	if r == nil {
		t.Fatal("no residual stage")
	}
	m := &balanceModels{Core: &stage{Odds: 2}, Residual: r}
	if got, want := m.coreOdds(), 2/r.Kept; got != want {
		t.Errorf("Core's odds %v, want 2 / %v", got, r.Kept)
	}
	m.Core = nil
	var kept, drawn, pattern [3]int
	var x0 [3]float64
	for i := range 60000 {
		c, label := draw()
		k := int(label) // 0: unsat without a pair, 1: sat, 2: unsat with one
		if c.core {
			k = 2
		}
		drawn[k]++
		if !m.keep(5, i, c, int(label)) {
			continue
		}
		kept[k]++
		x0[k] += c.x[0]
		if c.pairs[0][0] == 1 {
			pattern[k]++
		}
	}
	share := func(k int) float64 { return float64(pattern[k]) / float64(kept[k]) }
	mean := func(k int) float64 { return x0[k] / float64(kept[k]) }
	t.Logf("kept %v of %v; pattern 1 in %.3f of sat, %.3f of unsat; x0 means %.3f %.3f; out-of-sample share %.3f", kept, drawn, share(1), share(0), mean(1), mean(0), r.Kept)
	if d := math.Abs(share(1) - share(0)); d > 0.04 {
		t.Errorf("pattern 1 in %.3f of kept sat and %.3f of kept unsat without a pair (0.6 and 0.3 before)", share(1), share(0))
	}
	if d := math.Abs(mean(1) - mean(0)); d > 0.08 {
		t.Errorf("feature 0's mean %.3f among kept sat and %.3f among kept unsat (0.5 and 0 before)", mean(1), mean(0))
	}
	if kept[2] != drawn[2] {
		t.Errorf("kept %d of %d unsat candidates with a pair: Residual must leave them to Core", kept[2], drawn[2])
	}
	if got := float64(kept[0]) / float64(drawn[0]); math.Abs(got-r.Kept) > 0.03 {
		t.Errorf("Residual kept %.3f of new unsat candidates without a pair, but estimated %.3f", got, r.Kept)
	}
}

// TestPooledResidualStages fits the residual stages of two sets
// together. The sets' surfaces differ in width and their labels in
// ratio, and pattern 1 leans to sat in both alike. Each set's stage
// keeps its own ratio, and thinned by it, new candidates of each set
// show pattern 1 and feature 0 alike in sat and unsat. Both stages
// have the same pattern columns and weights; a pattern too rare in
// either set alone to get a column gets one from both together; and a
// set whose candidates are all of one label gets no stage, while the
// others keep theirs.
func TestPooledResidualStages(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	width, satShare := [2]int{3, 5}, [2]float64{0.4, 0.7}
	draw := func(f int) (surface, int8) {
		s := surface{x: make([]float64, width[f])}
		var y int8
		p := 0.3
		if rng.Float64() < satShare[f] {
			y, p = 1, 0.6
			s.x[0] = 0.5
		}
		s.x[0] += rng.NormFloat64()
		if rng.Float64() < p {
			s.pairs = [2][]uint64{{1}, {1}}
		}
		for k := range s.pairs {
			s.pairs[k] = append(s.pairs[k], uint64(2+rng.IntN(5)))
		}
		for c := 1; c < width[f]; c++ {
			s.x[c] = rng.Float64()
		}
		return s, y
	}
	tab := textfeat.NewPatternTable()
	var s []surface
	var y []int8
	var idx, member []int
	for i := range 12000 {
		f := i % 2
		c, label := draw(f)
		if i < 4 {
			c.pairs[1] = append(c.pairs[1], 99) // twice in each set
		}
		compact(&c, tab)
		s, y, idx, member = append(s, c), append(y, label), append(idx, i/2), append(member, f)
	}
	rs := fitResidualStages(s, y, idx, member, 2)
	if rs[0] == nil || rs[1] == nil {
		t.Fatal("a set has no residual stage")
	}
	n1 := len(rs[0].Keys[0]) + len(rs[0].Keys[1])
	if !slices.Equal(rs[0].Keys[1], rs[1].Keys[1]) || !slices.Equal(rs[0].Fit.W[:n1], rs[1].Fit.W[:n1]) {
		t.Error("the two sets' stages do not share their pattern columns and weights")
	}
	for f, r := range rs {
		if len(r.Mean) != width[f] || len(r.Fit.W) != n1+width[f] {
			t.Errorf("set %d: %d means and %d weights, want %d and %d", f, len(r.Mean), len(r.Fit.W), width[f], n1+width[f])
		}
		if want := satShare[f] / (1 - satShare[f]); math.Abs(r.Odds-want) > 0.15 {
			t.Errorf("set %d: odds %.3f, want about %.3f", f, r.Odds, want)
		}
	}
	if !slices.Contains(rs[0].Keys[1], 99) {
		t.Error("pattern 99, in two candidates of each set, has no column")
	}
	// Each set alone has too few of pattern 99 for a column.
	for f := range 2 {
		var fs []surface
		var fy []int8
		var fi []int
		for j := range s {
			if member[j] == f {
				fs, fy, fi = append(fs, s[j]), append(fy, y[j]), append(fi, idx[j])
			}
		}
		if r := fitResidualStage(fs, fy, fi); slices.Contains(r.Keys[1], 99) {
			t.Errorf("set %d alone gives pattern 99 a column", f)
		}
	}
	for f, r := range rs {
		m := &balanceModels{Residual: r}
		var kept, pattern [2]int
		var x0 [2]float64
		for i := range 40000 {
			c, label := draw(f)
			if !m.keep(5, i, c, int(label)) {
				continue
			}
			kept[label]++
			x0[label] += c.x[0]
			if c.pairs[0][0] == 1 {
				pattern[label]++
			}
		}
		share := func(l int) float64 { return float64(pattern[l]) / float64(kept[l]) }
		mean := func(l int) float64 { return x0[l] / float64(kept[l]) }
		t.Logf("set %d: kept %v; pattern 1 in %.3f of sat, %.3f of unsat; x0 means %.3f %.3f", f, kept, share(1), share(0), mean(1), mean(0))
		if d := math.Abs(share(1) - share(0)); d > 0.04 {
			t.Errorf("set %d: pattern 1 in %.3f of kept sat and %.3f of kept unsat (0.6 and 0.3 before)", f, share(1), share(0))
		}
		if d := math.Abs(mean(1) - mean(0)); d > 0.08 {
			t.Errorf("set %d: feature 0's mean %.3f among kept sat and %.3f among kept unsat (0.5 and 0 before)", f, mean(1), mean(0))
		}
		if ratio := float64(kept[1]) / float64(kept[0]); math.Abs(ratio-r.Odds)/r.Odds > 0.1 {
			t.Errorf("set %d: kept sat to unsat %.3f, want its odds %.3f", f, ratio, r.Odds)
		}
	}
	// A set of one label gets no stage.
	y1 := slices.Clone(y)
	for j := range y1 {
		if member[j] == 1 {
			y1[j] = 1
		}
	}
	if rs := fitResidualStages(s, y1, idx, member, 2); rs[0] == nil || rs[1] != nil {
		t.Errorf("set 1 all sat: stages %v, want set 0's alone", rs)
	}
}
