package phase

import (
	"bytes"
	"math"
	"testing"

	"github.com/nlsat/nlsat/internal/binom"
	"github.com/nlsat/nlsat/internal/fragments"
)

func TestRunIsDeterministic(t *testing.T) {
	tests := []struct {
		f fragments.Fragment
		g Grid
	}{
		{fragments.S, Grid{N1: Range{6, 7}, M: &Range{6, 12}, MStep: 3}},
		{fragments.A, Grid{N1: Range{3, 4}, N2: Range{3, 3}, M: &Range{10, 16}, MStep: 6}},
	}
	for _, tt := range tests {
		var outs []string
		for _, adaptive := range []int{0, 120} {
			for _, workers := range []int{1, 2, 3} {
				es := estimates(t, Config{Fragment: tt.f, Points: points(t, tt.f, tt.g), Samples: 30, Budget: adaptive, Seed: 7}, workers)
				var b bytes.Buffer
				if err := WritePoints(&b, es); err != nil {
					t.Fatal(err)
				}
				outs = append(outs, b.String())
			}
		}
		for i := range outs {
			if base := i / 3 * 3; outs[i] != outs[base] {
				t.Errorf("%s: run %d differs from run %d:\n%s\n%s", tt.f, i, base, outs[i], outs[base])
			}
		}
	}
}

// TestPSatDecreasesWithM checks that along every curve no later point is
// significantly more satisfiable than an earlier one, and that P(sat)
// falls significantly from the first point to the last.
func TestPSatDecreasesWithM(t *testing.T) {
	tests := []struct {
		f fragments.Fragment
		g Grid
	}{
		{fragments.S, Grid{N1: Range{8, 10}, Alpha: &Ratios{0.5, 3, 0.25}}},
		{fragments.W, Grid{N1: Range{8, 8}, Alpha: &Ratios{0.5, 3, 0.25}}},
		{fragments.V, Grid{N1: Range{4, 4}, N2: Range{4, 5}, Alpha: &Ratios{1, 7, 1}}},
		{fragments.A, Grid{N1: Range{4, 4}, N2: Range{4, 4}, Alpha: &Ratios{1, 10, 1.5}}},
	}
	for _, tt := range tests {
		es := estimates(t, Config{Fragment: tt.f, Points: points(t, tt.f, tt.g), Samples: 100, Seed: 3}, 0)
		_, groups := byN1(es)
		for n1, c := range groups {
			for i := range c {
				for j := i + 1; j < len(c); j++ {
					if c[j].N2 == c[i].N2 && c[i].CI.Hi < c[j].CI.Lo {
						t.Errorf("%s n1=%d: P(sat) at m=%d (%v) significantly above m=%d (%v)", tt.f, n1, c[j].M, c[j].CI, c[i].M, c[i].CI)
					}
				}
			}
			first, last := c[0], c[len(c)-1]
			if !(first.CI.Lo > 0.8 && last.CI.Hi < 0.2) {
				t.Errorf("%s n1=%d: P(sat) goes from %v at m=%d to %v at m=%d, want near 1 to near 0", tt.f, n1, first.CI, first.M, last.CI, last.M)
			}
		}
	}
}

func TestAdaptiveStopsByRule(t *testing.T) {
	pts := points(t, fragments.S, Grid{N1: Range{10, 10}, M: &Range{4, 30}, MStep: 2})
	const first, budget = 20, 320
	es := estimates(t, Config{Fragment: fragments.S, Points: pts, Samples: first, Budget: budget, Seed: 5}, 0)
	spent := 0
	for _, e := range es {
		spent += e.N
		doublings := e.N == first || e.N == 2*first || e.N == 4*first || e.N == 8*first || e.N == budget
		stopped := e.Verdict != Straddles || e.N == budget
		if !doublings || !stopped || e.Verdict != e.finishVerdict() {
			t.Errorf("m=%d: n=%d verdict %s interval %v breaks the stopping rule", e.M, e.N, e.Verdict, e.CI)
		}
	}
	if spent >= len(pts)*budget/2 {
		t.Errorf("adaptive spent %d instances, want well under the uniform %d", spent, len(pts)*budget)
	}
	var sides = map[Verdict]int{}
	for _, e := range es {
		sides[e.Verdict]++
	}
	if sides[Above] == 0 || sides[Below] == 0 {
		t.Errorf("verdicts %v: want points above and below the band", sides)
	}
}

// finishVerdict recomputes the verdict from the counts.
func (e Estimate) finishVerdict() Verdict {
	return PaperBand().Classify(binom.Wilson(e.Sat, e.Decided(), Confidence))
}

// TestBandMatchesDirectEstimate checks the region of S at n1 = 10 against
// direct estimates from 1,000 instances per m drawn with another seed.
func TestBandMatchesDirectEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("solves about 20,000 instances")
	}
	pts := points(t, fragments.S, Grid{N1: Range{10, 10}, M: &Range{8, 22}})
	es := estimates(t, Config{Fragment: fragments.S, Points: pts, Samples: 200, Seed: 1}, 0)
	region := NewRegion(Config{Fragment: fragments.S, Band: PaperBand()}, es, "test", "native")
	direct := estimates(t, Config{Fragment: fragments.S, Points: pts, Samples: 1000, Seed: 99}, 0)
	for _, rp := range region.Points {
		for _, d := range direct {
			// The sweep's 200 samples put P(sat) within about ±0.07 of
			// the truth; the direct estimate within about ±0.03.
			if d.Point == rp.Point && (d.P < 0.35-0.1 || d.P > 0.65+0.1) {
				t.Errorf("region point m=%d has P(sat) %.3f in the sweep but %.3f from 1,000 instances", rp.M, rp.PSat, d.P)
			}
		}
	}
	cs, cd := Crossings(es), Crossings(direct)
	if len(cs) != 1 || len(cd) != 1 || math.Abs(cs[0].Alpha()-cd[0].Alpha()) > 0.1 {
		t.Fatalf("sweep crossing %v, direct crossing %v: want one each, α within 0.1", cs, cd)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, rp := range region.Points {
		lo, hi = min(lo, rp.Alpha()), max(hi, rp.Alpha())
	}
	if a := cd[0].Alpha(); len(region.Points) == 0 || a < lo-0.1 || a > hi+0.1 {
		t.Errorf("direct crossing α %.2f lies outside the region's α range [%.2f, %.2f]", a, lo, hi)
	}
	t.Logf("S n1=10: region α in [%.2f, %.2f], sweep crossing α %.3f, direct %.3f", lo, hi, cs[0].Alpha(), cd[0].Alpha())
}
