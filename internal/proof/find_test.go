package proof

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// TestEveryProofChecks finds proofs of random unsatisfiable instances of
// each fragment and checks them: S and W must always get one; V, Z and A
// may be out of budget, never wrongly proved.
func TestEveryProofChecks(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	b := native.New(native.Options{})
	for _, f := range fragments.All() {
		proved := 0
		for i, c := range unsatCases(t, f, n, 1) {
			p, err := Find(context.Background(), b, fragments.Default(), c.sents, c.mus, DefaultBudget)
			switch {
			case errors.Is(err, ErrNoProof) && f.HasVerbs():
				continue
			case err != nil:
				t.Fatalf("%s case %d: %v\n%s", f, i, err, caseText(c))
			}
			proved++
			used := map[int]bool{}
			for _, s := range p.Steps {
				if s.Rule == Given {
					used[s.Sentence] = true
				}
			}
			if len(used) != len(c.mus) {
				t.Errorf("%s case %d: the proof cites %d of the %d sentences of the MUS", f, i, len(used), len(c.mus))
			}
		}
		t.Logf("%s: %d of %d proved", f, proved, n)
	}
}

func caseText(c unsatCase) string {
	var s string
	for _, i := range c.mus {
		s += fmt.Sprintf("  %d. %s\n", i+1, c.sents[i].English())
	}
	return s
}

// TestBudgetIsHonest checks that a proof over the step budget is no
// proof at all, and the depth of Figure 1's proof (counted by hand: naming
// #1, #1 is a poet, #1 loves some musician, the contradiction).
func TestBudgetIsHonest(t *testing.T) {
	b := native.New(native.Options{})
	sents := parseAll(t, "Every scholar is a poet.", "Every poet loves some musician.", "Some scholar does not love any musician.")
	for _, c := range []struct {
		steps int
		ok    bool
	}{{7, true}, {6, false}, {1, false}} {
		budget := DefaultBudget
		budget.Steps = c.steps
		p, err := Find(context.Background(), b, fragments.Default(), sents, []int{0, 1, 2}, budget)
		if c.ok != (err == nil) || (!c.ok && (!errors.Is(err, ErrNoProof) || p.Len() != 0)) {
			t.Errorf("budget %d: %d steps, %v", c.steps, p.Len(), err)
		}
		if c.ok && p.Depth() != 4 {
			t.Errorf("depth %d, want 4", p.Depth())
		}
	}
}
