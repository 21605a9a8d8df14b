package distract

import (
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// TestNegate checks, for every shape and every polarity pattern, that
// Negate(s) is a well-formed sentence of s's fragment, that Negate is an
// involution, and that its formula is false exactly where s's is true on
// random structures of sizes 1 to 3 (the fol evaluator is the judge).
// There are 184 such sentences up to words, counted by hand from the
// tables of docs/fragments.md: 8 in S, 16 more in W, 32 in V, 64 in Z and 64 in A
// (shapes times 2 to the number of free polarities).
func TestNegate(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	seen := map[string]bool{}
	for _, sh := range fragments.A.Shapes() {
		for bits := range 8 {
			s := fragments.Sentence{Shape: sh}
			fill(&s, bits)
			if s.Check() != nil || seen[s.English()] {
				continue // a polarity the template fixes, or a role it lacks
			}
			seen[s.English()] = true
			n := Negate(s)
			if err := n.Check(); err != nil {
				t.Errorf("%s: Negate gives a malformed sentence: %v", s.English(), err)
				continue
			}
			if n.Fragment() != s.Fragment() {
				t.Errorf("%s: Negate left fragment %s for %s", s.English(), s.Fragment(), n.Fragment())
			}
			if Negate(n) != s {
				t.Errorf("%s: Negate twice gives %s", s.English(), Negate(n).English())
			}
			for range 200 {
				m := randomStructure(rng, 1+rng.IntN(3))
				a, err1 := fol.Eval(s.Formula(), m)
				b, err2 := fol.Eval(n.Formula(), m)
				if err1 != nil || err2 != nil {
					t.Fatalf("eval: %v, %v", err1, err2)
				}
				if a == b {
					t.Errorf("%q and its negation %q are both %v in %+v", s.English(), n.English(), a, m)
					break
				}
			}
		}
	}
	if len(seen) != 184 {
		t.Errorf("checked %d sentences, want 184", len(seen))
	}
}

// fill gives s the words artist, baker, chemist and admire, hate, with
// the free polarities of O, P, Q taken from bits.
func fill(s *fragments.Sentence, bits int) {
	ws := map[rune]string{'O': "artist", 'P': "baker", 'Q': "chemist"}
	switch s.Fragment() {
	case fragments.S:
		s.P, s.Q = fragments.Term{Noun: ws['P']}, fragments.Term{Noun: ws['Q']}
	case fragments.V:
		s.P, s.Q, s.R = fragments.Term{Noun: ws['P']}, fragments.Term{Noun: ws['Q']}, "admire"
	case fragments.A:
		s.O, s.P, s.R, s.S = fragments.Term{Noun: ws['O']}, fragments.Term{Noun: ws['P']}, "admire", "hate"
	default:
		s.O, s.P, s.Q = fragments.Term{Noun: ws['O']}, fragments.Term{Noun: ws['P']}, fragments.Term{Noun: ws['Q']}
		if s.Fragment() == fragments.Z {
			s.R = "admire"
		}
	}
	s.O.Neg = s.O.Noun != "" && bits&1 != 0
	s.P.Neg = bits&2 != 0
	s.Q.Neg = s.Q.Noun != "" && bits&4 != 0
}

// randomStructure interprets the words of fill at random.
func randomStructure(rng *rand.Rand, size int) *fol.Structure {
	m := &fol.Structure{Size: size, Unary: map[string][]bool{}, Binary: map[string][][]bool{}}
	for _, p := range []string{"artist", "baker", "chemist", "dentist"} {
		m.Unary[p] = make([]bool, size)
		for a := range size {
			m.Unary[p][a] = rng.IntN(2) == 0
		}
	}
	for _, r := range []string{"admire", "hate", "love"} {
		m.Binary[r] = make([][]bool, size)
		for a := range size {
			m.Binary[r][a] = make([]bool, size)
			for b := range size {
				m.Binary[r][a][b] = rng.IntN(2) == 0
			}
		}
	}
	return m
}
