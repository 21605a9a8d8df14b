package native

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestSpeedReport prints wall-clock statistics per fragment for the main
// sizes (sampleAt) and the generalisation sizes (S, W: n1 16..24; V, Z, A:
// n1 8..12, n2 8..24). It runs only with NLSAT_SPEED=1.
func TestSpeedReport(t *testing.T) {
	if os.Getenv("NLSAT_SPEED") == "" {
		t.Skip("set NLSAT_SPEED=1 to measure")
	}
	n := envInt(t, "NLSAT_SPEED_N", 200)
	b := New(Options{})
	for _, gen := range []bool{false, true} {
		for _, f := range fragments.All() {
			rng := rand.New(rand.NewPCG(9, uint64(f)))
			var ds []time.Duration
			sat := 0
			for range n {
				in := sampleAt(t, rng, f, true)
				if gen {
					in = sampleGen(t, rng, f)
				}
				start := time.Now()
				res, err := b.Solve(context.Background(), &solver.Problem{Sentences: in.Formulas()})
				ds = append(ds, time.Since(start))
				if err != nil || res.Status == solver.Unknown {
					t.Fatalf("%s: %v %v %s", f, err, res.Status, res.Detail)
				}
				if res.Status == solver.Sat {
					sat++
				}
			}
			slices.Sort(ds)
			var sum time.Duration
			for _, d := range ds {
				sum += d
			}
			t.Logf("%s gen=%v: n=%d sat=%d mean %v p50 %v p99 %v max %v", f, gen, n, sat,
				sum/time.Duration(n), ds[n/2], ds[n*99/100], ds[n-1])
		}
	}
}

func sampleGen(t testing.TB, rng *rand.Rand, f fragments.Fragment) fragments.Instance {
	var m, n1, n2 int
	if f == fragments.S || f == fragments.W {
		n1 = 16 + rng.IntN(9)
		m = int(float64(n1) * (1.2 + 0.8*rng.Float64()))
	} else {
		n1, n2 = 8+rng.IntN(5), 8+rng.IntN(17)
		m = int(float64(n1) * (2 + 1.5*rng.Float64()))
	}
	in, err := fragments.Sample(rng, f, fragments.DefaultParams(), m, n1, n2)
	if err != nil {
		t.Fatalf("sample %s: %v", f, err)
	}
	return in
}
