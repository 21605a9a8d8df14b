package fragments

import (
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

// randomStructure interprets every predicate of sig at random over a
// domain of 1 to 4 elements.
func randomStructure(rng *rand.Rand, sig fol.Signature) *fol.Structure {
	st := fol.NewStructure(1+rng.IntN(4), sig)
	for _, ext := range st.Unary {
		for i := range ext {
			ext[i] = rng.IntN(2) == 1
		}
	}
	for _, ext := range st.Binary {
		for i := range ext {
			for j := range ext[i] {
				ext[i][j] = rng.IntN(2) == 1
			}
		}
	}
	return st
}

// unsatBySearch reports whether fs has no model with at most maxSize
// elements, by trying every structure. It is a bounded check, not a proof.
func unsatBySearch(t *testing.T, fs []fol.Formula, maxSize int) bool {
	t.Helper()
	sig, err := fol.SignatureOf(fs...)
	if err != nil {
		t.Fatal(err)
	}
	for size := 1; size <= maxSize; size++ {
		st := fol.NewStructure(size, sig)
		var cells []*bool
		for _, ext := range st.Unary {
			for i := range ext {
				cells = append(cells, &ext[i])
			}
		}
		for _, ext := range st.Binary {
			for i := range ext {
				for j := range ext[i] {
					cells = append(cells, &ext[i][j])
				}
			}
		}
		for bits := 0; bits < 1<<len(cells); bits++ {
			for i, c := range cells {
				*c = bits>>i&1 == 1
			}
			if allTrue(t, fs, st) {
				return false
			}
		}
	}
	return true
}

func allTrue(t *testing.T, fs []fol.Formula, st *fol.Structure) bool {
	for _, f := range fs {
		v, err := fol.Eval(f, st)
		if err != nil {
			t.Fatal(err)
		}
		if !v {
			return false
		}
	}
	return true
}

// TestDualities checks on random structures that each "No" and "does not"
// form is the negation of the matching positive form, the reading the
// spec fixes ("No p r's every q" is the negation of "Some p r's every q").
func TestDualities(t *testing.T) {
	pairs := [][2]string{
		{"S2", "S3"}, {"W2", "W3"},
		{"V2.any", "V1.some-some"}, {"V2.every", "V1.some-every"},
		{"V3.any", "V1.every-some"}, {"V3.every", "V1.every-every"},
		{"Z2.some", "Z3.some"}, {"Z2.every", "Z3.every"},
		{"Z2.not-any", "Z3.not-any"}, {"Z2.not-every", "Z3.not-every"},
	}
	for _, c := range []string{"who", "who-not"} {
		pairs = append(pairs,
			[2]string{"A2.any." + c, "A1.some-some." + c}, [2]string{"A2.every." + c, "A1.some-every." + c},
			[2]string{"A3.any." + c, "A1.every-some." + c}, [2]string{"A3.every." + c, "A1.every-every." + c})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, pr := range pairs {
		neg := sen(t, pr[0], "", "", "", "", "")
		pos := sen(t, pr[1], "", "", "", "", "")
		for trial := 0; trial < 200; trial++ {
			// Same random words and polarities in both; in S, W and Z the
			// "No" form fixes Q positive, so the "Some" form's Q is too.
			fill(rng, &neg)
			pos.O, pos.P, pos.Q, pos.R, pos.S = neg.O, neg.P, neg.Q, neg.R, neg.S
			if f := pos.Fragment(); f == S || f == W || f == Z {
				pos.Q.Neg = false
			}
			f, g := neg.Formula(), pos.Formula()
			sig, _ := fol.SignatureOf(f, g)
			st := randomStructure(rng, sig)
			vf, err1 := fol.Eval(f, st)
			vg, err2 := fol.Eval(g, st)
			if err1 != nil || err2 != nil || vf == vg {
				t.Fatalf("%s (%q) is not the negation of %s (%q): %v %v %v %v",
					pr[0], neg.English(), pr[1], pos.English(), vf, vg, err1, err2)
			}
		}
	}
}

// fill gives s random words from a small pool and random free polarities.
func fill(rng *rand.Rand, s *Sentence) {
	l := layoutOf(s.Template)
	*s = Sentence{Shape: s.Shape}
	nouns := []string{"artist", "poet", "scholar"}
	rng.Shuffle(len(nouns), func(i, j int) { nouns[i], nouns[j] = nouns[j], nouns[i] })
	for i, r := range l.nouns {
		s.term(r).Noun = nouns[i]
	}
	for _, r := range l.neg {
		s.term(r).Neg = rng.IntN(2) == 1
	}
	verbs := []string{"admire", "hate"}[:l.verbs]
	if l.verbs > 0 {
		s.R = verbs[0]
	}
	if l.verbs > 1 {
		s.S = verbs[1]
	}
}
