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

// bins returns the model's bins of a triple's three hypotheses.
func (m *patternModel) bins(ps [3]Problem, lx *fragments.Lexicon) [3]int {
	pp := textfeat.NewPremises(ps[0].Premises.English())
	var out [3]int
	for l, p := range ps {
		out[l] = m.bin(pp, lx.English(p.Hypothesis))
	}
	return out
}

// TestBalanceBins fits the balance model of V to a pilot of triples drawn
// without it, and draws triples with it: the pilot's triples often hold
// hypotheses the model sorts into different bins (it reads the labels),
// the balanced ones never do, and each still holds the three labels.
func TestBalanceBins(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 240 triples")
	}
	params := fragments.DefaultParams()
	lx := params.Lexicon.OrDefault()
	d := NewDrawer(fragments.V, params)
	pilot := drawTriples(t, d, 11, 200)
	var recs [][]units.Record
	for i, ps := range pilot {
		var u []units.Record
		for _, p := range ps {
			u = append(u, NewRecord(lx, p, "native", fmt.Sprint(i)))
		}
		recs = append(recs, u)
	}
	models := fitBalance(recs)
	m := models["V"]
	if m == nil || len(models) != 1 {
		t.Fatalf("fitted models for %d fragments, V's %v: want V's alone", len(models), m)
	}
	apart := 0
	for _, ps := range pilot {
		if b := m.bins(ps, lx); b[0] != b[1] || b[1] != b[2] {
			apart++
		}
	}
	if apart < len(pilot)/4 {
		t.Fatalf("the model sorts the hypotheses of %d of %d pilot triples into different bins: too few for the matching to matter", apart, len(pilot))
	}
	d.Bin = m.bin
	for i, ps := range drawTriples(t, d, 12, 40) {
		for l, p := range ps {
			if p.Result.Label != Label(l) {
				t.Fatalf("triple %d: problem %d is %v", i, l, p.Result.Label)
			}
		}
		if b := m.bins(ps, lx); b[0] != b[1] || b[1] != b[2] {
			t.Errorf("triple %d: bins %v, want one bin for the three hypotheses", i, b)
		}
	}
	t.Logf("pilot triples whose hypotheses the model sorts apart: %d of %d", apart, len(pilot))
}

// TestPilotUnits: a build's pilot is twice its triples, at least 600 or
// eight times them, whichever is less, and at most 6,000.
func TestPilotUnits(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{1, 8}, {10, 80}, {75, 600}, {300, 600}, {301, 602}, {2400, 4800}, {3000, 6000}, {100000, 6000},
	} {
		if got := pilotUnits(c.n); got != c.want {
			t.Errorf("pilotUnits(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
