package proof

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// unsatCase is an unsatisfiable instance with its certified MUS.
type unsatCase struct {
	sents []fragments.Sentence
	mus   []int
}

// sizes are points near each fragment's phase change (m, n1, n2), where
// about half the instances are unsatisfiable.
var sizes = map[fragments.Fragment][3]int{
	fragments.S: {14, 10, 0}, fragments.W: {14, 10, 0},
	fragments.V: {10, 5, 4}, fragments.Z: {10, 5, 4}, fragments.A: {10, 5, 4},
}

// unsatCases draws instances of f until it has n unsatisfiable ones.
func unsatCases(t testing.TB, f fragments.Fragment, n int, seed uint64) []unsatCase {
	t.Helper()
	b := native.New(native.Options{})
	rng := rand.New(rand.NewPCG(seed, uint64(f)))
	sz := sizes[f]
	var out []unsatCase
	for len(out) < n {
		in, err := fragments.Sample(rng, f, fragments.DefaultParams(), sz[0], sz[1], sz[2])
		if err != nil {
			t.Fatal(err)
		}
		v, err := solver.Decide(context.Background(), b, in.Formulas(), solver.DecideOptions{MUS: true})
		if err != nil {
			t.Fatal(err)
		}
		if v.Status == solver.Unsat {
			out = append(out, unsatCase{in.Sentences, v.MUS})
		}
	}
	return out
}

// parseAll parses sentences with the built-in vocabulary.
func parseAll(t testing.TB, text ...string) []fragments.Sentence {
	t.Helper()
	var out []fragments.Sentence
	for _, s := range text {
		sent, err := fragments.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sent)
	}
	return out
}
