package fragments_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// everySentence returns one sentence per shape and free noun polarity,
// over the words artist, baker, chef and admire, hate.
func everySentence() []fragments.Sentence {
	var out []fragments.Sentence
	for _, sh := range fragments.A.Shapes() {
		f := sh.Template.Fragment()
		for pol := range 8 {
			s := fragments.Sentence{Shape: sh,
				O: fragments.Term{Noun: "artist", Neg: pol&1 != 0},
				P: fragments.Term{Noun: "baker", Neg: pol&2 != 0},
				Q: fragments.Term{Noun: "chef", Neg: pol&4 != 0}}
			if f == fragments.S || f == fragments.V {
				s.O = fragments.Term{}
			}
			if f == fragments.A {
				s.Q = fragments.Term{}
			}
			if f.HasVerbs() {
				s.R = "admire"
			}
			if f == fragments.A {
				s.S = "hate"
			}
			if s.Check() == nil {
				out = append(out, s)
			}
		}
	}
	return out
}

// TestNegation checks Negation over every shape and noun polarity: the
// negation is a well-formed sentence of the same fragment over the same
// words, Negation is an involution, and the native decider finds
// s ∧ neg(s) unsatisfiable (neg(s) → ¬s) and ¬s ∧ ¬neg(s) unsatisfiable
// (¬s → neg(s)), so that neg(s) is equivalent to ¬s.
func TestNegation(t *testing.T) {
	ctx := context.Background()
	b := native.New(native.Options{})
	sents := everySentence()
	if len(sents) < 100 {
		t.Fatalf("only %d sentences to test", len(sents))
	}
	for _, s := range sents {
		neg := s.Negation()
		if err := neg.Check(); err != nil {
			t.Errorf("%s: negation %s is not well formed: %v", s.English(), neg.ID(), err)
			continue
		}
		switch {
		case neg.Fragment() != s.Fragment():
			t.Errorf("%s: negation %q is in %s", s.English(), neg.English(), neg.Fragment())
		case neg.Negation() != s:
			t.Errorf("%s: negation of negation is %q", s.English(), neg.Negation().English())
		case !sameWords(s, neg):
			t.Errorf("%s: negation %q changes the words", s.English(), neg.English())
		}
		f, g := s.Formula(), neg.Formula()
		for _, fs := range [][]fol.Formula{{f, g}, {notQ(f), notQ(g)}} {
			v, err := solver.Decide(ctx, b, fs, solver.DecideOptions{})
			if err != nil {
				t.Fatalf("%s: %v", s.English(), err)
			}
			if v.Status != solver.Unsat {
				t.Errorf("%s / %s: %s ∧ %s is %v, want unsat", s.English(), neg.English(),
					fol.String(fs[0]), fol.String(fs[1]), v.Status)
			}
		}
	}
}

// notQ is ¬f for a sentence ∀x φ or ∃x φ, written ∃x ¬φ or ∀x ¬φ so that
// the native decider takes it (it wants a quantifier on top).
func notQ(f fol.Formula) fol.Formula {
	switch g := f.(type) {
	case *fol.Forall:
		return &fol.Exists{V: g.V, Body: &fol.Not{F: g.Body}}
	case *fol.Exists:
		return &fol.Forall{V: g.V, Body: &fol.Not{F: g.Body}}
	}
	panic(fmt.Sprintf("not a quantified sentence: %s", fol.String(f)))
}

func sameWords(a, b fragments.Sentence) bool {
	an, bn, av, bv := a.Nouns(), b.Nouns(), a.Verbs(), b.Verbs()
	if len(an) != len(bn) || len(av) != len(bv) {
		return false
	}
	for i := range an {
		if an[i] != bn[i] {
			return false
		}
	}
	for i := range av {
		if av[i] != bv[i] {
			return false
		}
	}
	keepQ := a.Fragment() == fragments.V || a.Fragment() == fragments.A
	return a.O.Neg == b.O.Neg && a.P.Neg == b.P.Neg && (!keepQ || a.Q.Neg == b.Q.Neg)
}

// ExampleSentence_Negation shows one negation per fragment.
func ExampleSentence_Negation() {
	lx := fragments.Default()
	for _, e := range []string{
		"Every artist is a baker.",
		"Some non-artist who is a baker is not a chef.",
		"Every artist admires some non-baker.",
		"No artist who does not admire every baker is a chef.",
		"Some artist admires every baker who does not hate him.",
	} {
		s, err := lx.Parse(e)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s\n  %s\n", e, lx.English(s.Negation()))
	}
	// Output:
	// Every artist is a baker.
	//   Some artist is not a baker.
	// Some non-artist who is a baker is not a chef.
	//   Every non-artist who is a baker is a chef.
	// Every artist admires some non-baker.
	//   Some artist does not admire any non-baker.
	// No artist who does not admire every baker is a chef.
	//   Some artist who does not admire every baker is a chef.
	// Some artist admires every baker who does not hate him.
	//   No artist admires every baker who does not hate him.
}
