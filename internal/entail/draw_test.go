package entail

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// shares counts, per label, what a shallow reader of the hypothesis
// alone sees: its template, and whether it has a negation word.
type shares map[Label]map[string]int

func (s shares) add(l Label, h fragments.Sentence) {
	if s[l] == nil {
		s[l] = map[string]int{}
	}
	s[l]["template "+h.Template.String()]++
	neg := h.O.Neg || h.P.Neg || h.Q.Neg || h.Template.Number() != 1 || h.Clause == fragments.RCNotAny ||
		h.Clause == fragments.RCNotEvery || h.Clause == fragments.WhoNot
	s[l][fmt.Sprintf("negation word %v", neg)]++
}

// majority is the accuracy of the best classifier that sees only one
// feature's value: per value, the most frequent label.
func (s shares) majority(prefix string) float64 {
	keys := map[string]bool{}
	total := 0
	for _, m := range s {
		for k, n := range m {
			if len(k) >= len(prefix) && k[:len(prefix)] == prefix {
				keys[k] = true
				total += n
			}
		}
	}
	best := 0
	for k := range keys {
		top := 0
		for _, m := range s {
			top = max(top, m[k])
		}
		best += top
	}
	return float64(best) / float64(total)
}

func drawShares(t *testing.T, f fragments.Fragment, sameShape bool, triples int) shares {
	t.Helper()
	ctx := context.Background()
	b := native.New(native.Options{})
	d := NewDrawer(f, fragments.DefaultParams())
	d.SameShape = sameShape
	n1, n2, m := 8, 0, 10
	if f.HasVerbs() {
		n1, n2, m = 4, 4, 8
	}
	s := shares{}
	for i := range triples {
		rng := rand.New(rand.NewPCG(7, uint64(i)))
		first, err := fragments.Sample(rng, f, d.Params, m, n1, n2)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := d.Triple(ctx, b, rng, first)
		if err != nil {
			t.Fatal(err)
		}
		for l, p := range ps {
			if p.Result.Label != Label(l) {
				t.Fatalf("triple %d: problem %d is %v", i, l, p.Result.Label)
			}
			if slices.Contains(p.Premises.English(), p.Hypothesis.English()) {
				t.Errorf("triple %d: the hypothesis %q is a premise", i, p.Hypothesis.English())
			}
			s.add(Label(l), p.Hypothesis)
		}
		if sameShape && (ps[0].Hypothesis.Shape != ps[2].Hypothesis.Shape || ps[1].Hypothesis.Q.Neg != ps[2].Hypothesis.Q.Neg) {
			t.Errorf("triple %d: hypotheses of different shapes", i)
		}
	}
	return s
}

// TestTripleShortcuts draws balanced triples and measures the best
// hypothesis-only classifier on the template and on the presence of a
// negation word. With shapes matched within a triple both are exactly at
// chance (1/3). NLSAT_ENTAIL_SHARES=1 also prints the shares without
// matching, which is what made matching the default.
func TestTripleShortcuts(t *testing.T) {
	triples, frags := 10, []fragments.Fragment{fragments.S, fragments.V, fragments.A}
	if testing.Short() {
		triples, frags = 3, frags[:2]
	}
	for _, f := range frags {
		s := drawShares(t, f, true, triples)
		for _, feat := range []string{"template", "negation word"} {
			if acc := s.majority(feat); acc > 1.0/3+1e-9 {
				t.Errorf("%s: %s predicts the label %.2f of the time, want 1/3", f, feat, acc)
			}
		}
		if os.Getenv("NLSAT_ENTAIL_SHARES") == "" {
			continue
		}
		for _, same := range []bool{false, true} {
			s := drawShares(t, f, same, 60)
			t.Logf("%s same-shape=%v: template %.2f, negation word %.2f", f, same, s.majority("template"), s.majority("negation word"))
			for _, l := range entailrec.Labels() {
				t.Logf("  %-13v %v", l, s[l])
			}
		}
	}
}

// TestTripleLabeller checks that the labeller's shortcuts draw the same
// triples as deciding every candidate with Decide (Drawer.plain): the
// same premises, hypotheses, labels, subsets and model sizes, and the
// generator left in the same state. The plans are generate's defaults
// (the hard region's m), so inconsistent premise sets come up too.
func TestTripleLabeller(t *testing.T) {
	tests := []struct {
		f       fragments.Fragment
		triples int
	}{
		{fragments.S, 3}, {fragments.W, 3}, {fragments.V, 2}, {fragments.Z, 2}, {fragments.A, 2},
	}
	if testing.Short() {
		tests = tests[:3]
	}
	for _, tt := range tests {
		plan := benchPlan(t, tt.f)
		for i := range tt.triples {
			var got [2]string
			for k, plain := range []bool{false, true} {
				d := NewDrawer(plan.Frag(), plan.Params())
				d.plain = plain
				first, err := plan.Draw(i)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(plan.Seed^Stream, uint64(i)))
				ps, err := d.Triple(context.Background(), native.New(native.Options{}), rng, first)
				if err != nil {
					t.Fatalf("%s triple %d plain=%v: %v", tt.f, i, plain, err)
				}
				got[k] = fmt.Sprintf("%s next %d", tripleString(ps), rng.Uint64())
			}
			if got[0] != got[1] {
				t.Errorf("%s triple %d: got\n%s\nwant\n%s", tt.f, i, got[0], got[1])
			}
		}
	}
}

// tripleString is what a triple's records say of it.
func tripleString(ps [3]Problem) string {
	var b strings.Builder
	for _, p := range ps {
		r := p.Result
		fmt.Fprintf(&b, "%q ⊢ %q: %v %v", p.Premises.English(), p.Hypothesis.English(), r.Label, r.Subset)
		if r.Label == Neutral {
			fmt.Fprintf(&b, " models %d %d", r.With.Model.Size, r.Against.Model.Size)
		}
		b.WriteString("\n")
	}
	return b.String()
}
