package pairs

import (
	"context"
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// Result is the outcome of Find for one instance.
type Result struct {
	// Original is the certified verdict on the instance as given.
	Original solver.Verdict
	// Found says whether an edit flips the label; Edit, Edited and
	// Sentences are set only then.
	Found bool
	// Edit is the first admissible edit (in the order of Edits) whose
	// instance has the opposite certified label.
	Edit Edit
	// Edited is the certified verdict on the edited instance.
	Edited solver.Verdict
	// Sentences is the edited instance.
	Sentences []fragments.Sentence
	// Admissible counts the instance's admissible edits, Solved those the
	// search had to decide (the others provably keep the label), and
	// Undecided those the backend could not decide or certify.
	Admissible, Solved, Undecided int
}

// Find decides the instance sents of fragment frag and looks for the
// first admissible edit of one sentence (Edits, in its order) that flips
// the label. It skips only edits that provably keep the label: for a sat
// instance, an edit whose instance is true in a checked model met so far
// (the instance's own, or one of an edited instance that stayed sat); for
// an unsat one, an edit of a sentence outside its MUS. The
// others are decided with b; the first whose answer is the opposite and
// certifies is the result. An edit b leaves undecided is counted and
// passed over. If the instance itself stays undecided, Result.Original is
// Unknown and no edit is tried.
func Find(ctx context.Context, b solver.Backend, lx *fragments.Lexicon, sents []fragments.Sentence, frag fragments.Fragment) (Result, error) {
	orig, err := solver.Decide(ctx, b, fragments.Formulas(sents), solver.DecideOptions{MUS: true})
	if err != nil || orig.Status == solver.Unknown {
		return Result{Original: orig}, err
	}
	edits := Edits(lx, sents, frag)
	r := Result{Original: orig, Admissible: len(edits)}
	pool := newModelPool(sents, orig)
	for _, e := range edits {
		if keepsLabel(orig, pool, e) {
			continue
		}
		edited := slices.Clone(sents)
		edited[e.Sentence] = e.To
		r.Solved++
		// Only an answer other than the original's needs its
		// certificate: a MUS if the edit made a sat instance unsat.
		v, err := solver.Decide(ctx, b, fragments.Formulas(edited), solver.DecideOptions{MUS: orig.Status == solver.Sat})
		if err != nil {
			return r, fmt.Errorf("sentence %d, %s edit of %s: %w", e.Sentence+1, e.Kind, e.Role, err)
		}
		switch v.Status {
		case solver.Unknown:
			r.Undecided++
		case orig.Status:
			if v.Model != nil {
				pool.add(v.Model)
			}
		default:
			r.Found, r.Edit, r.Edited, r.Sentences = true, e, v, edited
			return r, nil
		}
	}
	return r, nil
}

// keepsLabel reports whether e provably leaves the label of an instance
// with verdict orig unchanged, without solving.
func keepsLabel(orig solver.Verdict, pool *modelPool, e Edit) bool {
	if orig.Status == solver.Unsat {
		return !slices.Contains(orig.MUS, e.Sentence)
	}
	return pool.satisfies(e)
}

// modelPool holds the checked models met while searching a sat
// instance: its own and those of edited instances that stayed sat. A
// model that makes every sentence but the edited one true, and the new
// sentence too, shows that the edit keeps the label.
type modelPool struct {
	sents  []fol.Formula
	models []*fol.Structure
	falses [][]int // per model, the indices of the sentences it makes false
}

func newModelPool(sents []fragments.Sentence, orig solver.Verdict) *modelPool {
	p := &modelPool{sents: fragments.Formulas(sents)}
	if orig.Status == solver.Sat {
		p.add(orig.Model)
	}
	return p
}

// add records m with the original sentences it makes false; a model that
// makes two or more false can never witness an edit of one and is left
// out.
func (p *modelPool) add(m *fol.Structure) {
	var falses []int
	for i, f := range p.sents {
		if ok, err := fol.Eval(f, m); err != nil || !ok {
			if falses = append(falses, i); len(falses) > 1 {
				return
			}
		}
	}
	p.models, p.falses = append(p.models, m), append(p.falses, falses)
}

// satisfies reports whether some model of the pool makes the instance
// with e applied true.
func (p *modelPool) satisfies(e Edit) bool {
	to := e.To.Formula()
	for k, m := range p.models {
		if len(p.falses[k]) == 1 && p.falses[k][0] != e.Sentence {
			continue
		}
		if ok, err := fol.Eval(to, m); err == nil && ok {
			return true
		}
	}
	return false
}
