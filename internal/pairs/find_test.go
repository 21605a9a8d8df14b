package pairs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// sample draws instance i of fragment f as nlsat generate does by
// default: n1, n2 uniform in 6–16, 0 for S and W and in 3–8 for V, Z, A,
// and the hard region's m.
func sample(t *testing.T, f fragments.Fragment, seed uint64, i int) fragments.Instance {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	n1, n2 := 3+rng.IntN(6), 3+rng.IntN(6)
	if f <= fragments.W {
		n1, n2 = 6+rng.IntN(11), 0
	}
	inst, err := fragments.Sample(rng, f, fragments.DefaultParams(), phase.HardM(f, n1, n2), n1, n2)
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// inputRecord is the record nlsat generate would write for inst, without
// its label.
func inputRecord(inst fragments.Instance, id string) *dataset.Record {
	r := &dataset.Record{ID: id, Fragment: inst.Fragment.String(), Sentences: inst.English(),
		N1: len(inst.Nouns), N2: len(inst.Verbs), Nouns: inst.Nouns, Verbs: inst.Verbs, Seed: id}
	r.Text = inst.Text()
	return r
}

// recheck decides a twin afresh from its English with b and checks its
// label and certificate: a sat twin's model size is positive and b finds
// a model that CheckModel accepts; an unsat twin's MUS is unsatisfiable
// and every MUS minus one sentence is satisfiable with a checked model.
func recheck(ctx context.Context, b solver.Backend, r *Record, frag fragments.Fragment) error {
	var fs []fol.Formula
	for i, e := range r.Sentences {
		s, err := fragments.Parse(e)
		if err != nil {
			return err
		}
		if s.Fragment() > frag {
			return fmt.Errorf("sentence %d %q is not in %s", i, e, frag)
		}
		fs = append(fs, s.Formula())
	}
	st, err := solve(ctx, b, fs)
	switch {
	case err != nil:
		return err
	case st != solver.Sat && st != solver.Unsat || dataset.LabelText(labelOf(st)) != r.LabelText:
		return fmt.Errorf("%s decides %s, the twin says %s", b.Name(), st, r.LabelText)
	case st == solver.Sat && r.Certificate.ModelSize < 1:
		return fmt.Errorf("sat twin with model size %d", r.Certificate.ModelSize)
	case st == solver.Sat:
		return nil
	}
	mus := r.Certificate.MUS
	sub := func(idx []int) []fol.Formula {
		var out []fol.Formula
		for _, i := range idx {
			out = append(out, fs[i])
		}
		return out
	}
	if st, err := solve(ctx, b, sub(mus)); err != nil || st != solver.Unsat {
		return fmt.Errorf("MUS %v is %v (%v)", mus, st, err)
	}
	for i := range mus {
		rest := slices.Delete(slices.Clone(mus), i, i+1)
		if st, err := solve(ctx, b, sub(rest)); err != nil || st != solver.Sat {
			return fmt.Errorf("MUS %v is not minimal: without %d it is %v (%v)", mus, mus[i], st, err)
		}
	}
	return nil
}

// solve decides fs with b and checks a sat answer's model.
func solve(ctx context.Context, b solver.Backend, fs []fol.Formula) (solver.Status, error) {
	p := &solver.Problem{Sentences: fs}
	res, err := b.Solve(ctx, p)
	if err != nil {
		return 0, err
	}
	if res.Status == solver.Sat {
		if err := solver.CheckModel(p, res.Model); err != nil {
			return 0, err
		}
	}
	return res.Status, nil
}

func labelOf(st solver.Status) int {
	return map[solver.Status]int{solver.Sat: dataset.LabelSat, solver.Unsat: dataset.LabelUnsat}[st]
}

// TestPairsOnSampledInstances is the acceptance test: on instances of
// every fragment drawn as nlsat generate draws them, every pair differs in
// exactly one sentence, has opposite labels, and each twin's certificate
// holds when its English is decided afresh by a second native backend
// (and, for every tenth pair, by z3 where it is available). It logs the
// share of instances with a flipping edit.
func TestPairsOnSampledInstances(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 30
	}
	if !z3.Available() {
		t.Log("z3 is not available (built with -tags noz3 or without libz3): twins are rechecked with native only")
	}
	for _, f := range fragments.All() {
		t.Run(f.String(), func(t *testing.T) {
			t.Parallel()
			pairsOnSampled(t, f, n)
		})
	}
}

func pairsOnSampled(t *testing.T, f fragments.Fragment, n int) {
	ctx := context.Background()
	var z *z3.Backend
	if z3.Available() {
		var err error
		if z, err = z3.New(z3.Options{}); err != nil {
			t.Fatal(err)
		}
		defer z.Close()
	}
	b, again := native.New(native.Options{}), native.New(native.Options{})
	var found, total [3]int // by the original's status
	kinds := map[Kind]int{}
	for i := range n {
		inst := sample(t, f, 42, i)
		r, err := Find(ctx, b, fragments.Default(), inst.Sentences, f)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if r.Original.Status == solver.Unknown {
			t.Fatalf("%d: native left the instance undecided", i)
		}
		total[r.Original.Status]++
		if !r.Found {
			continue
		}
		found[r.Original.Status]++
		kinds[r.Edit.Kind]++
		tw := Twins(inputRecord(inst, fmt.Sprint(i)), inst.Sentences, r, b.Name())
		if err := CheckTwins(&tw[0], &tw[1]); err != nil {
			t.Errorf("%d: %v", i, err)
		}
		if back, err := fragments.Parse(tw[1].Edit.To); err != nil || back != r.Edit.To || back.Fragment() > f {
			t.Errorf("%d: edited sentence %q parses as %+v (%v)", i, tw[1].Edit.To, back, err)
		}
		for k := range tw {
			if err := recheck(ctx, again, &tw[k], f); err != nil {
				t.Errorf("%d %s twin: native: %v", i, tw[k].PairRole, err)
			}
			if z != nil && i%10 == 0 {
				if err := recheck(ctx, z, &tw[k], f); err != nil {
					t.Errorf("%d %s twin: z3: %v", i, tw[k].PairRole, err)
				}
			}
		}
	}
	all := found[solver.Sat] + found[solver.Unsat]
	t.Logf("%s: %d/%d instances (%.0f%%) have a flipping edit: sat %d/%d, unsat %d/%d; %d negation, %d quantifier, %d predicate-negation",
		f, all, n, 100*float64(all)/float64(n), found[solver.Sat], total[solver.Sat], found[solver.Unsat], total[solver.Unsat],
		kinds[Negation], kinds[Quantifier], kinds[Predicate])
	// Measured at n = 200 with seed 42: between 82% and 88% per
	// fragment. Far fewer would mean the edit set or the search broke.
	if all < n/2 {
		t.Errorf("%s: only %d of %d instances have a flipping edit", f, all, n)
	}
}

// TestFindMatchesExhaustiveSearch checks that Find's shortcuts (edits
// true in the model of a sat instance, edits outside the MUS of an unsat
// one) never change the answer: deciding every admissible edit in order
// finds the same first flipping edit, or none.
func TestFindMatchesExhaustiveSearch(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 5
	}
	ctx := context.Background()
	b := native.New(native.Options{})
	for _, f := range fragments.All() {
		for i := range n {
			inst := sample(t, f, 7, i)
			r, err := Find(ctx, b, fragments.Default(), inst.Sentences, f)
			if err != nil {
				t.Fatal(err)
			}
			var want *Edit
			edits := Edits(fragments.Default(), inst.Sentences, f)
			for k, e := range edits {
				edited := slices.Clone(inst.Sentences)
				edited[e.Sentence] = e.To
				v, err := solver.Decide(ctx, b, fragments.Formulas(edited), solver.DecideOptions{MUS: true})
				if err != nil {
					t.Fatal(err)
				}
				if v.Status != r.Original.Status {
					want = &edits[k]
					break
				}
			}
			switch {
			case want == nil && r.Found:
				t.Errorf("%s %d: Find took %+v, but no edit flips the label", f, i, r.Edit)
			case want != nil && !r.Found:
				t.Errorf("%s %d: Find found nothing, but %+v flips the label", f, i, *want)
			case want != nil && (want.Sentence != r.Edit.Sentence || want.Kind != r.Edit.Kind || want.Role != r.Edit.Role):
				t.Errorf("%s %d: Find took %d %s %s, the first flipping edit is %d %s %s", f, i,
					r.Edit.Sentence, r.Edit.Kind, r.Edit.Role, want.Sentence, want.Kind, want.Role)
			}
		}
	}
}
