package fragments_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/distract"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// allSentences lists every sentence of fragment f (its own templates and
// those it inherits) over three nouns and two verbs, with distinct words
// within a sentence, once per formula.
func allSentences(t *testing.T, f fragments.Fragment) []fragments.Sentence {
	// "" leaves a role the template does not use empty, as Check wants.
	nouns, verbs := []string{"", "artist", "baker", "chemist"}, []string{"", "admire", "hate"}
	seen := map[string]bool{}
	var out []fragments.Sentence
	for _, sh := range f.Shapes() {
		for neg := range 8 {
			for _, o := range nouns {
				for _, p := range nouns {
					for _, q := range nouns {
						for _, r := range verbs {
							for _, s := range verbs {
								st := fragments.Sentence{Shape: sh, O: fragments.Term{Noun: o, Neg: neg&1 != 0},
									P: fragments.Term{Noun: p, Neg: neg&2 != 0}, Q: fragments.Term{Noun: q, Neg: neg&4 != 0}, R: r, S: s}
								if st.Check() != nil {
									continue
								}
								if k := fol.String(st.Formula()); !seen[k] {
									seen[k] = true
									out = append(out, st)
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

// TestMeaningIsEquivalence checks Meaning against the decider on pairs of
// sentences of a fragment over the same words (repeated words included):
// equal keys exactly when each sentence entails the other (φ ∧ ¬ψ and
// ψ ∧ ¬φ unsatisfiable). Sentences over other words are never equivalent,
// since every word of a sentence matters to its truth. Every pair of S,
// W and V is checked; of the 0.8 million of Z and 1.4 million of A, every
// pair with equal keys and one in eight of the others (all of them take a
// minute; with -short only S and V are checked).
func TestMeaningIsEquivalence(t *testing.T) {
	b := native.New(native.Options{})
	unsat := func(a, c fragments.Sentence) bool {
		v, err := solver.Decide(context.Background(), b, []fol.Formula{a.Formula(), distract.Negate(c).Formula()}, solver.DecideOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return v.Status == solver.Unsat
	}
	for _, f := range fragments.All() {
		if testing.Short() && f != fragments.S && f != fragments.V {
			continue
		}
		groups := map[string][]fragments.Sentence{}
		keys := map[string]string{} // formula → meaning
		key := func(s fragments.Sentence) string { return keys[fol.String(s.Formula())] }
		for _, s := range allSentences(t, f) {
			keys[fol.String(s.Formula())] = s.Meaning()
			ws := append(slices.Clone(s.Nouns()), s.Verbs()...)
			slices.Sort(ws)
			k := strings.Join(slices.Compact(ws), " ")
			groups[k] = append(groups[k], s)
		}
		pairs, equivalent, n := 0, 0, 0
		for _, g := range groups {
			for i, a := range g {
				for _, c := range g[i+1:] {
					ka, kc := key(a), key(c)
					if n++; f >= fragments.Z && n%8 != 0 && ka != kc {
						continue
					}
					pairs++
					eq := unsat(a, c) && unsat(c, a)
					if eq {
						equivalent++
					}
					if same := ka == kc; same != eq {
						t.Errorf("%s: %q and %q: equivalent %v, same meaning key %v\n%s\n%s", f,
							fragments.Default().English(a), fragments.Default().English(c), eq, same, a.Meaning(), c.Meaning())
					}
				}
			}
		}
		t.Logf("%s: %d of %d pairs over the same words checked, %d equivalent", f, pairs, n, equivalent)
		if equivalent == 0 {
			t.Errorf("%s: no equivalent pair: the test does not exercise the key", f)
		}
	}
}

func ExampleSentence_Meaning() {
	for _, text := range []string{"Every artist is a baker.", "No non-baker is an artist.", "Some baker is an artist."} {
		s, _ := fragments.Parse(text)
		fmt.Println(s.Meaning())
	}
	// Output:
	// A.|(-artist(a) baker(a))
	// A.|(-artist(a) baker(a))
	// E.&(artist(a) baker(a))
}
