package native

import (
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver/solvertest"
)

// BenchmarkNativeNouns solves a fixed set of 20 instances per fragment
// with verbs at 40 to 60 nouns (seed 11), the upper end of the one-word
// noun patterns; ns/op is per instance.
func BenchmarkNativeNouns(b *testing.B) {
	for _, f := range []fragments.Fragment{fragments.V, fragments.Z, fragments.A} {
		rng := rand.New(rand.NewPCG(11, uint64(f)))
		var set [][]fol.Formula
		for range 20 {
			n1 := 40 + rng.IntN(21)
			m := int(float64(n1) * (1.5 + rng.Float64()))
			in, err := fragments.Sample(rng, f, fragments.DefaultParams(), m, n1, 4)
			if err != nil {
				b.Fatal(err)
			}
			set = append(set, in.Formulas())
		}
		benchSolve(b, f.String(), set)
	}
}

// BenchmarkRestartsA solves the three A instances of 48 and 64 nouns and
// 2–3 verbs in testdata on which the lazy search learns tens of nogoods
// (see TestBuildGoesOn); ns/op is per instance.
func BenchmarkRestartsA(b *testing.B) {
	var set [][]fol.Formula
	for _, file := range []string{"testdata/a64-restarts-unsat.txt", "testdata/a64-restarts-unsat2.txt", "testdata/a48-restarts-sat.txt"} {
		set = append(set, solvertest.ReadSentences(b, file))
	}
	benchSolve(b, "A", set)
}
