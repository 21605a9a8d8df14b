package pairs

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// Verdict is a certified answer for one instance: Sat with a model that
// solver.CheckModel accepted, Unsat with a minimal unsatisfiable subset
// that solver.MinimalCore certified, or Unknown with the reason.
type Verdict struct {
	Status solver.Status
	Reason solver.Reason  // why the answer is Unknown
	Detail string         // the backend's words for an Unknown
	Model  *fol.Structure // the checked model of a Sat answer
	MUS    []int          // the certified MUS of an Unsat answer, increasing
}

// Decide solves the formulas with b (reset first, so that the answer does
// not depend on earlier problems) and certifies the answer. An Unsat
// answer whose MUS cannot be certified because b answered Unknown on a
// subset is returned as Unknown: no label goes out without its
// certificate. An error is a bug or a failed certificate, not an answer.
func Decide(ctx context.Context, b solver.Backend, fs []fol.Formula) (Verdict, error) {
	if err := solver.Reset(b); err != nil {
		return Verdict{}, err
	}
	p := &solver.Problem{Sentences: fs}
	res, err := b.Solve(ctx, p)
	if err != nil {
		return Verdict{}, err
	}
	return certify(ctx, b, p, res)
}

func certify(ctx context.Context, b solver.Backend, p *solver.Problem, res solver.Result) (Verdict, error) {
	switch res.Status {
	case solver.Sat:
		if err := solver.CheckModel(p, res.Model); err != nil {
			return Verdict{}, fmt.Errorf("%s: %w", b.Name(), err)
		}
		return Verdict{Status: solver.Sat, Model: res.Model}, nil
	case solver.Unsat:
		mus, err := solver.MinimalCore(ctx, b, p, res.Core)
		switch {
		case ctx.Err() != nil:
			return Verdict{Reason: solver.Canceled}, ctx.Err()
		case errors.Is(err, solver.ErrUndecided):
			return Verdict{Reason: solver.GaveUp, Detail: err.Error()}, nil
		case err != nil:
			return Verdict{}, fmt.Errorf("minimal unsatisfiable subset: %w", err)
		}
		return Verdict{Status: solver.Unsat, MUS: mus}, nil
	}
	if ctx.Err() != nil {
		return Verdict{Reason: solver.Canceled}, ctx.Err()
	}
	return Verdict{Reason: res.Reason, Detail: res.Detail}, nil
}

// Result is the outcome of Find for one instance.
type Result struct {
	// Original is the certified verdict on the instance as given.
	Original Verdict
	// Found says whether an edit flips the label; Edit, Edited and
	// Sentences are set only then.
	Found bool
	// Edit is the first admissible edit (in the order of Edits) whose
	// instance has the opposite certified label.
	Edit Edit
	// Edited is the certified verdict on the edited instance.
	Edited Verdict
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
	orig, err := Decide(ctx, b, fragments.Formulas(sents))
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
		v, model, err := flipped(ctx, b, fragments.Formulas(edited), orig.Status)
		if err != nil {
			return r, fmt.Errorf("sentence %d, %s edit of %s: %w", e.Sentence+1, e.Kind, e.Role, err)
		}
		switch v.Status {
		case solver.Unknown:
			r.Undecided++
		case orig.Status:
			pool.add(model)
		default:
			r.Found, r.Edit, r.Edited, r.Sentences = true, e, v, edited
			return r, nil
		}
	}
	return r, nil
}

// keepsLabel reports whether e provably leaves the label of an instance
// with verdict orig unchanged, without solving.
func keepsLabel(orig Verdict, pool *modelPool, e Edit) bool {
	if orig.Status == solver.Unsat {
		return !slices.Contains(orig.MUS, e.Sentence)
	}
	return pool.satisfies(e)
}

// flipped decides an edited instance; only an answer other than was
// (the label the edit is meant to flip) is certified. A sat answer that
// keeps the label returns its model (checked) for the model pool.
func flipped(ctx context.Context, b solver.Backend, fs []fol.Formula, was solver.Status) (Verdict, *fol.Structure, error) {
	if err := solver.Reset(b); err != nil {
		return Verdict{}, nil, err
	}
	p := &solver.Problem{Sentences: fs}
	res, err := b.Solve(ctx, p)
	switch {
	case err != nil:
		return Verdict{}, nil, err
	case res.Status == was && was == solver.Sat:
		if err := solver.CheckModel(p, res.Model); err != nil {
			return Verdict{}, nil, fmt.Errorf("%s: %w", b.Name(), err)
		}
		return Verdict{Status: was}, res.Model, nil
	case res.Status == was:
		return Verdict{Status: was}, nil, nil
	}
	v, err := certify(ctx, b, p, res)
	return v, nil, err
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

func newModelPool(sents []fragments.Sentence, orig Verdict) *modelPool {
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
