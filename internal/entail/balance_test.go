package entail

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/split/units"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// drawTriples draws n triples of fragment f with d, premise set i from
// (seed, i).
func drawTriples(t *testing.T, d *Drawer, seed uint64, n int) [][3]Problem {
	t.Helper()
	b := native.New(native.Options{})
	n1, n2, m := 8, 0, 10
	if d.Fragment.HasVerbs() {
		n1, n2, m = 4, 4, 8
	}
	var out [][3]Problem
	for i := range n {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		first, err := fragments.Sample(rng, d.Fragment, d.Params, m, n1, n2)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := d.Triple(context.Background(), b, rng, first)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ps)
	}
	return out
}

// bins returns the balance's bins of a triple's three hypotheses.
func (b *balancer) bins(ps [3]Problem, lx *fragments.Lexicon) [3]int {
	pp := textfeat.NewPremises(ps[0].Premises.English())
	var out [3]int
	for l, p := range ps {
		out[l] = b.bin(pp, lx.English(p.Hypothesis))
	}
	return out
}

// records are the records of triples, as a pilot holds them.
func records(triples [][3]Problem, lx *fragments.Lexicon) [][]units.Record {
	var out [][]units.Record
	for i, ps := range triples {
		var u []units.Record
		for _, p := range ps {
			u = append(u, NewRecord(lx, p, "native", fmt.Sprint(i)))
		}
		out = append(out, u)
	}
	return out
}

// apart counts the triples whose hypotheses b sorts into different bins.
func (b *balancer) apart(triples [][3]Problem, lx *fragments.Lexicon) int {
	n := 0
	for _, ps := range triples {
		if k := b.bins(ps, lx); k[0] != k[1] || k[1] != k[2] {
			n++
		}
	}
	return n
}

// TestBalanceBins fits the balance of V to a pilot of triples drawn
// without it, and draws triples with it: the pilot's triples often hold
// hypotheses the model sorts into different bins (it reads the labels),
// the balanced ones never do, and each still holds the three labels.
// Then its residual stage, fitted to those balanced triples, sorts
// apart many of them, which the first model alone could not, and the
// triples drawn with both stages share both models' orders.
func TestBalanceBins(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 480 triples")
	}
	params := fragments.DefaultParams()
	lx := params.Lexicon.OrDefault()
	d := NewDrawer(fragments.V, params)
	pilot := drawTriples(t, d, 11, 200)
	task, err := Split.(unitTask).Fit(records(pilot, lx))
	if err != nil {
		t.Fatal(err)
	}
	balance := task.(unitTask).balance
	b := balance["V"]
	if b == nil || len(balance) != 1 {
		t.Fatalf("fitted models for %d fragments, V's %v: want V's alone", len(balance), b)
	}
	if apart := b.apart(pilot, lx); apart < len(pilot)/4 {
		t.Fatalf("the model sorts the hypotheses of %d of %d pilot triples into different bins: too few for the matching to matter", apart, len(pilot))
	}
	check := func(stage string, triples [][3]Problem) {
		for i, ps := range triples {
			for l, p := range ps {
				if p.Result.Label != Label(l) {
					t.Fatalf("%s triple %d: problem %d is %v", stage, i, l, p.Result.Label)
				}
			}
			if k := b.bins(ps, lx); k[0] != k[1] || k[1] != k[2] {
				t.Errorf("%s triple %d: bins %v, want one bin for the three hypotheses", stage, i, k)
			}
		}
	}
	d.Bin = b.bin
	matched := drawTriples(t, d, 12, 200)
	check("matched", matched)

	task, err = task.(units.Refiner).Refine(records(matched, lx))
	if err != nil {
		t.Fatal(err)
	}
	b = task.(unitTask).balance["V"]
	if b.residual == nil {
		t.Fatal("no residual stage fitted to 200 triples")
	}
	apart := b.apart(matched, lx)
	if apart < len(matched)/4 {
		t.Errorf("the residual stage sorts the hypotheses of %d of %d matched triples into different bins: too few to find what the first model left", apart, len(matched))
	}
	d.Bin = b.bin
	check("doubly matched", drawTriples(t, d, 13, 40))
	t.Logf("triples sorted apart: %d of %d matched triples by the residual stage", apart, len(matched))
}

// TestPilotUnits: a build's pilot is twice its triples, at least 600 or
// eight times them, whichever is less, and at most 6,000; its residual
// pilot is as large.
func TestPilotUnits(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{1, 8}, {10, 80}, {75, 600}, {300, 600}, {301, 602}, {2400, 4800}, {3000, 6000}, {100000, 6000},
	} {
		if got := pilotUnits(c.n); got != c.want {
			t.Errorf("pilotUnits(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	// A build's plan records both pilots, the residual one as large.
	if p := buildPlan(t, fragments.V, 60, 30, 30, false); p.Pilot != 320 || p.Residual != p.Pilot {
		t.Errorf("a build of 40 triples: pilot %d, residual pilot %d; want 320 and as many", p.Pilot, p.Residual)
	}
}
