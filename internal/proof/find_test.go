package proof

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

var _ = slices.Contains[[]int]
