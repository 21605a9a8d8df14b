package proof

import (
	"context"
	"errors"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// TestParseConclusionTable reads conclusions in the forms Render writes,
// as written and as a model might vary them, and rejects what is not one.
func TestParseConclusionTable(t *testing.T) {
	lx := fragments.Default()
	for _, c := range []struct {
		in, want string // want is fol.String's, "" for an error
	}{
		{"Everyone is a poet.", "∀x(poet(x))"},
		{"no one is  an poet", "∀x(¬poet(x))"},
		{"Every poet is a scholar.", "∀x(poet(x) → scholar(x))"},
		{"No non-poet who is a scholar and is not a baker is a dentist.", "∀x(¬poet(x) ∧ scholar(x) ∧ ¬baker(x) → ¬dentist(x))"},
		{"#1 is a poet and #1 does not love any musician.", "poet(c1) ∧ ∀y(musician(y) → ¬love(c1,y))"},
		{"#2 loves #1.", "love(c2,c1)"},
		{"#1 does not admire every non-poet who hates him.", "∃y(¬poet(y) ∧ hate(y,c1) ∧ ¬admire(c1,y))"},
		{"#1 admires some poet who does not hate him", "∃y(poet(y) ∧ ¬hate(y,c1) ∧ admire(c1,y))"},
		{"#1 admires every poet.", "∀y(poet(y) → admire(c1,y))"},
		{"#0 is a poet.", ""},
		{"#1 is a wizard.", ""},
		{"#1 is a poet and.", ""},
		{"Every poet who is a scholar.", ""},
		{"", ""},
	} {
		f, err := ParseConclusion(lx, c.in)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("ParseConclusion(%q) = %s, want an error", c.in, fol.String(f))
		case c.want == "":
		case err != nil:
			t.Errorf("ParseConclusion(%q): %v", c.in, err)
		case fol.String(f) != c.want:
			t.Errorf("ParseConclusion(%q) = %s, want %s", c.in, fol.String(f), c.want)
		}
	}
}

// TestParseConclusionInvertsRender reads back the English of every
// conclusion of the proofs of random instances of each fragment.
func TestParseConclusionInvertsRender(t *testing.T) {
	b := native.New(native.Options{})
	lx := fragments.Default()
	for _, f := range fragments.All() {
		for _, c := range unsatCases(t, f, 15, 3) {
			p, err := Find(context.Background(), b, lx, c.sents, c.mus, DefaultBudget)
			if errors.Is(err, ErrNoProof) {
				continue
			} else if err != nil {
				t.Fatal(err)
			}
			for _, s := range p.Steps {
				if s.Formula == nil {
					continue
				}
				got, err := ParseConclusion(lx, s.English)
				if err != nil || !fol.Equal(got, s.Formula) {
					t.Errorf("%s: ParseConclusion(%q) = %v, %v; want %s", f, s.English, got, err, fol.String(s.Formula))
				}
			}
		}
	}
}

// FuzzParseConclusion checks that whatever ParseConclusion reads, Render
// writes back as English that reads as the same formula.
func FuzzParseConclusion(f *testing.F) {
	for _, s := range []string{"Everyone is a poet.", "No non-poet who is a scholar and is not a baker is a dentist.",
		"#1 is a poet and #1 does not love any musician.", "#1 admires some poet who does not hate him.", "#2 loves #1."} {
		f.Add(s)
	}
	lx := fragments.Default()
	f.Fuzz(func(t *testing.T, in string) {
		g, err := ParseConclusion(lx, in)
		if err != nil {
			return
		}
		out, err := Render(lx, g)
		if err != nil {
			t.Fatalf("ParseConclusion(%q) = %s, which Render refuses: %v", in, fol.String(g), err)
		}
		back, err := ParseConclusion(lx, out)
		if err != nil || !fol.Equal(back, g) {
			t.Fatalf("ParseConclusion(%q) = %s, rendered %q, read back as %v (%v)", in, fol.String(g), out, back, err)
		}
	})
}
