package proof

import (
	"context"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// goldenProof finds the proof of the golden case name.
func goldenProof(t *testing.T, name string) ([]fragments.Sentence, Proof) {
	t.Helper()
	for _, c := range goldenCases {
		if c.name != name {
			continue
		}
		sents := parseAll(t, c.sents...)
		b := native.New(native.Options{})
		v, err := solver.Decide(context.Background(), b, fragments.Formulas(sents), solver.DecideOptions{MUS: true})
		if err != nil {
			t.Fatal(err)
		}
		p, err := Find(context.Background(), b, fragments.Default(), sents, v.MUS, DefaultBudget)
		if err != nil {
			t.Fatal(err)
		}
		return sents, p
	}
	t.Fatalf("no golden case %s", name)
	return nil, Proof{}
}

func chainText(p Proof) string {
	var b strings.Builder
	Fprint(&b, p)
	return b.String() + "Answer: unsatisfiable\n"
}

// drop removes step k (from 0) and renumbers the citations after it.
func drop(p Proof, k int) Proof {
	var out Proof
	for i, s := range p.Steps {
		if i == k {
			continue
		}
		var pre []int
		for _, j := range s.Premises {
			switch {
			case j > k:
				pre = append(pre, j-1)
			case j < k:
				pre = append(pre, j)
			}
		}
		s.Premises = pre
		out.Steps = append(out.Steps, s)
	}
	return out
}

// TestCheckChain checks the gold chains of every fragment and broken
// copies of them; the broken steps' numbers are read off the golden
// proofs in testdata (figure1: step 4 names #1 from step 3, step 5 applies
// step 1 to it; s-chain: step 5 chains 2 and 4).
func TestCheckChain(t *testing.T) {
	lx := fragments.Default()
	b := native.New(native.Options{})
	edit := func(name string, f func(p Proof) string) func(*testing.T) ([]fragments.Sentence, string) {
		return func(t *testing.T) ([]fragments.Sentence, string) {
			sents, p := goldenProof(t, name)
			return sents, f(p)
		}
	}
	gold := func(p Proof) string { return chainText(p) }
	for _, c := range []struct {
		name   string
		chain  func(*testing.T) ([]fragments.Sentence, string)
		step   int
		reason string
	}{
		{"S gold", edit("s-chain", gold), 0, ChainValid},
		{"S universal gold", edit("s-universal", gold), 0, ChainValid},
		{"W gold", edit("w-chain", gold), 0, ChainValid},
		{"V gold", edit("figure1", gold), 0, ChainValid},
		{"Z gold", edit("z-clause", gold), 0, ChainValid},
		{"A gold", edit("a-anaphora", gold), 0, ChainValid},
		{"as a model writes it", edit("figure1", func(p Proof) string {
			var b strings.Builder
			b.WriteString("Let us reason step by step.\n\n")
			for _, l := range strings.Split(strings.TrimSpace(chainText(p)), "\n") {
				l = strings.Join(strings.Fields(l), " ")
				if !strings.HasPrefix(l, "Answer") {
					b.WriteString(strings.Replace(strings.ToLower(l[:1])+l[1:], ". ", ") ", 1) + "\n")
				}
			}
			return b.String()
		}), 0, ChainValid},
		{"drop a given step", edit("figure1", func(p Proof) string { return chainText(drop(p, 0)) }), 4, ChainDoesNotFollow},
		{"drop a derived step", edit("figure1", func(p Proof) string { return chainText(drop(p, 4)) }), 5, ChainDoesNotFollow},
		{"cite a wrong step", edit("figure1", func(p Proof) string {
			p.Steps[4].Premises = []int{1, 3}
			return chainText(p)
		}), 5, ChainDoesNotFollow},
		{"cite a later step", edit("s-chain", func(p Proof) string {
			p.Steps[4].Premises = []int{1, 5}
			return chainText(p)
		}), 5, ChainCitesLater},
		{"negate a conclusion", edit("figure1", func(p Proof) string {
			p.Steps[4].Formula = negate(p.Steps[4].Formula)
			p.Steps[4].English, _ = Render(lx, p.Steps[4].Formula)
			return chainText(p)
		}), 5, ChainDoesNotFollow},
		{"negate a chained conclusion", edit("s-chain", func(p Proof) string {
			p.Steps[4].English = "No scholar is a baker."
			return chainText(p)
		}), 5, ChainDoesNotFollow},
		{"change a given sentence", edit("s-chain", func(p Proof) string {
			p.Steps[1].Sentence = 2
			return chainText(p)
		}), 2, ChainWrongSentence},
		{"no such sentence", edit("s-chain", func(p Proof) string {
			p.Steps[1].Sentence = 41
			return chainText(p)
		}), 2, ChainWrongSentence},
		{"garbage step", edit("figure1", func(p Proof) string {
			p.Steps[5].English = "Therefore the wizard is happy."
			return chainText(p)
		}), 6, ChainUnparsed},
		{"no justification", edit("figure1", func(p Proof) string {
			return strings.Replace(chainText(p), "by 1, 4", "", 1)
		}), 5, ChainUnparsed},
		{"misnumbered", edit("figure1", func(p Proof) string {
			return strings.Replace(chainText(p), "  5. ", "  6. ", 1)
		}), 5, ChainUnparsed},
		{"stops short", edit("figure1", func(p Proof) string {
			p.Steps = p.Steps[:len(p.Steps)-1]
			return chainText(p)
		}), 0, ChainNoContradiction},
		{"garbage text", edit("figure1", func(Proof) string { return "The answer is unsatisfiable." }), 0, ChainNoSteps},
	} {
		t.Run(c.name, func(t *testing.T) {
			sents, text := c.chain(t)
			got := CheckChain(context.Background(), b, lx, sents, text)
			if got.FirstUnsupported != c.step || got.Reason != c.reason || got.Valid != (c.reason == ChainValid) {
				t.Errorf("got step %d, %s (%s), valid %v; want step %d, %s\n%s", got.FirstUnsupported, got.Reason, got.Detail, got.Valid, c.step, c.reason, text)
			}
		})
	}
}
