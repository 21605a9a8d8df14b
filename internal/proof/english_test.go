package proof

import (
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// TestRender checks the English of conclusions the fragments cannot say,
// and that those they can say parse back to their formula.
func TestRender(t *testing.T) {
	for _, c := range []struct{ formula, want string }{
		{"∀x(poet(x))", "Everyone is a poet."},
		{"∀x(¬artist(x))", "No one is an artist."},
		{"∀x(artist(x) ∧ baker(x) ∧ ¬carpenter(x) → dentist(x))", "Every artist who is a baker and is not a carpenter is a dentist."},
		{"∀x(¬artist(x) ∧ baker(x) ∧ carpenter(x) → ¬dentist(x))", "No non-artist who is a baker and is a carpenter is a dentist."},
		{"∀x(¬artist(x) → dentist(x))", "Every non-artist is a dentist."},
		{"∀x(artist(x) ∧ ¬baker(x) → ¬dentist(x))", "No artist who is not a baker is a dentist."},
		{"poet(c1) ∧ ∀y(musician(y) → ¬love(c1, y))", "#1 is a poet and #1 does not love any musician."},
		{"¬poet(c2)", "#2 is not a poet."},
		{"love(c1, c2)", "#1 loves #2."},
		{"¬love(c2, c2)", "#2 does not love #2."},
		{"∃y(¬musician(y) ∧ ¬love(c3, y))", "#3 does not love every non-musician."},
		{"∀y(artist(y) ∧ admire(y, c1) → hate(c1, y))", "#1 hates every artist who admires him."},
		{"∃y(artist(y) ∧ ¬admire(y, c1) ∧ hate(c1, y))", "#1 hates some artist who does not admire him."},
	} {
		f, err := fol.Parse(c.formula)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Render(fragments.Default(), f)
		if err != nil || got != c.want {
			t.Errorf("Render(%s) = %q, %v; want %q", c.formula, got, err, c.want)
		}
		if s, err := fragments.Parse(got); err == nil && !fol.Equal(s.Formula(), f) {
			t.Errorf("%q parses to %s, not %s", got, fol.String(s.Formula()), c.formula)
		}
	}
}
