package split

import (
	"math"
	"math/rand/v2"
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
