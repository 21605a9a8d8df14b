package solver_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// TestLabelOnly: an answer without its certificate (DecideOptions
// LabelOnly, the balance pilot's) has the label and the contradictory
// pair, or its absence, that the certified answer has, and its pair is
// an unsatisfiable subset of at most two sentences, on sampled
// instances of every fragment around the phase change.
func TestLabelOnly(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 32))
	b := native.New(native.Options{})
	kinds := map[string]int{}
	for _, f := range []fragments.Fragment{fragments.S, fragments.W, fragments.V, fragments.Z, fragments.A} {
		for j := range 60 {
			n1, n2 := 6+rng.IntN(8), 0
			if f >= fragments.V {
				n2 = 2 + rng.IntN(4)
			}
			m := n1 + n2 + rng.IntN(2*(n1+n2))
			inst, err := fragments.Sample(rng, f, fragments.DefaultParams(), m, n1, n2)
			if err != nil {
				t.Fatal(err)
			}
			fs := inst.Formulas()
			full, err := solver.Decide(ctx, b, fs, solver.DecideOptions{MUS: true})
			if err != nil {
				t.Fatal(err)
			}
			light, err := solver.Decide(ctx, b, fs, solver.DecideOptions{MUS: true, LabelOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if light.Status != full.Status || (len(light.Pair) > 0) != (len(full.Pair) > 0) {
				t.Fatalf("%s sample %d: label only %v with pair %v, certified %v with pair %v", f, j, light.Status, light.Pair, full.Status, full.Pair)
			}
			if light.MUS != nil {
				t.Fatalf("%s: a MUS without being asked to certify", f)
			}
			kinds[full.Status.String()+map[bool]string{true: " with a pair", false: ""}[len(full.Pair) > 0]]++
			if len(light.Pair) == 0 {
				continue
			}
			if len(light.Pair) > 2 {
				t.Fatalf("%s: pair %v of more than two sentences", f, light.Pair)
			}
			var sub []fol.Formula
			for _, i := range light.Pair {
				sub = append(sub, fs[i])
			}
			v, err := solver.Decide(ctx, b, sub, solver.DecideOptions{})
			if err != nil || v.Status != solver.Unsat {
				t.Fatalf("%s: pair %v is %v (%v)", f, light.Pair, v.Status, err)
			}
		}
	}
	// The sample must hold every kind of answer, or the test says little.
	for _, k := range []string{"sat", "unsat", "unsat with a pair"} {
		if kinds[k] == 0 {
			t.Errorf("no %s answer among the samples: %v", k, kinds)
		}
	}
}
