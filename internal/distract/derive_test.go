package distract

import (
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestDerive checks every proposal of derive on every sentence form: it
// is a well-formed sentence of fragment A, new, entailed by its premise
// (the premise with the proposal's negation is unsat for native) and
// true wherever the premise is true on random structures. It also checks
// which premises have rules, per the list in derive's comment.
func TestDerive(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 2))
	nouns := []string{"artist", "baker", "chemist", "dentist"}
	verbs := []string{"admire", "hate", "love"}
	seen := map[string]bool{}
	for _, sh := range fragments.A.Shapes() {
		for bits := range 8 {
			s := fragments.Sentence{Shape: sh}
			fill(&s, bits)
			if s.Check() != nil || seen[s.English()] {
				continue
			}
			seen[s.English()] = true
			_, ok := derive(rng, s, fragments.A, nouns, verbs)
			if want := hasRule(s); ok != want {
				t.Errorf("%q: derive applies = %v, want %v", s.English(), ok, want)
			}
			if !ok {
				continue
			}
			for range 10 {
				d, _ := derive(rng, s, fragments.A, nouns, verbs)
				checkDerived(t, rng, s, d)
			}
		}
	}
}

// hasRule is the list of derive's comment: every S and W sentence, Z3,
// V with a universal object and A with an existential one.
func hasRule(s fragments.Sentence) bool {
	switch s.Fragment() {
	case fragments.S, fragments.W:
		return true
	case fragments.Z:
		return s.Template == fragments.Z3
	case fragments.V:
		return !objectUpward(s)
	}
	return objectUpward(s)
}

func checkDerived(t *testing.T, rng *rand.Rand, s, d fragments.Sentence) {
	t.Helper()
	if err := d.Check(); err != nil {
		t.Errorf("%q gives a malformed sentence: %v", s.English(), err)
		return
	}
	if d.English() == s.English() {
		t.Errorf("%q gives itself", s.English())
	}
	if st := solveWith(t, independent(), []fol.Formula{s.Formula(), Negate(d).Formula()}); st != solver.Unsat {
		t.Errorf("%q does not entail %q: with its negation %v", s.English(), d.English(), st)
	}
	for range 100 {
		m := randomStructure(rng, 1+rng.IntN(3))
		a, _ := fol.Eval(s.Formula(), m)
		c, _ := fol.Eval(d.Formula(), m)
		if a && !c {
			t.Errorf("%q is true and %q false in %+v", s.English(), d.English(), m)
			return
		}
	}
}
