package entail

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// Label is the three-way answer of an entailment problem (see
// entailrec.Label, where its names live).
type Label = entailrec.Label

// The labels, and the values of the binary label.
const (
	Entailment    = entailrec.Entailment
	Neutral       = entailrec.Neutral
	Contradiction = entailrec.Contradiction
	Entailed      = entailrec.Entailed
	NotEntailed   = entailrec.NotEntailed
)

// ErrInconsistent is returned for premises that have no model: they
// entail everything, and are never used.
var ErrInconsistent = errors.New("the premises are unsatisfiable")

// Result is the certified answer for premises Φ and a hypothesis ψ.
type Result struct {
	// Decided is false when the backend left one of the two problems
	// undecided; the other fields are then meaningless.
	Decided bool
	Label   Label
	// Subset lists the premises (indices into Φ, increasing) of the
	// certified MUS that proves an Entailment (with neg ψ) or a
	// Contradiction (with ψ); nil for Neutral and when Decide was not
	// asked for certificates.
	Subset []int
	// With and Against are the verdicts on Φ ∪ {ψ} and Φ ∪ {neg ψ}.
	// For Neutral both are Sat with checked models; otherwise one is
	// Unsat and the other Sat, whose model shows Φ consistent.
	With, Against solver.Verdict
}

// Decide labels premises Φ and hypothesis ψ with b through solver.Decide
// on Φ ∪ {ψ} and Φ ∪ {neg ψ}, neg ψ being ψ.Negation(): Contradiction
// when the first is unsatisfiable, Entailment when the second is, Neutral
// when both have checked models. One side always has a model when Φ is
// consistent (ψ ∨ neg ψ is valid), and that model satisfies Φ; when both
// are unsatisfiable Decide returns ErrInconsistent. With mus, the
// unsatisfiable side's MUS is certified (solver.DecideOptions) and
// Subset is its premises; it always contains the hypothesis side, since
// Φ is consistent, and Decide checks that it does.
func Decide(ctx context.Context, b solver.Backend, premises []fragments.Sentence, hyp fragments.Sentence, mus bool) (Result, error) {
	phi := fragments.Formulas(premises)
	m := len(phi)
	var r Result
	var err error
	opt := solver.DecideOptions{MUS: mus}
	for i, h := range []fragments.Sentence{hyp, hyp.Negation()} {
		v := &r.With
		if i == 1 {
			v = &r.Against
		}
		if *v, err = solver.Decide(ctx, b, append(slices.Clip(phi), h.Formula()), opt); err != nil {
			return Result{}, fmt.Errorf("premises with %s: %w", [2]string{"the hypothesis", "its negation"}[i], err)
		}
		if v.Status == solver.Unknown {
			return Result{}, nil
		}
	}
	switch w, a := r.With.Status, r.Against.Status; {
	case w == solver.Unsat && a == solver.Unsat:
		return Result{}, ErrInconsistent
	case w == solver.Unsat:
		r.Label = Contradiction
	case a == solver.Unsat:
		r.Label = Entailment
	default:
		r.Label = Neutral
	}
	r.Decided = true
	if mus && r.Label != Neutral {
		v := r.With
		if r.Label == Entailment {
			v = r.Against
		}
		if len(v.MUS) == 0 || v.MUS[len(v.MUS)-1] != m {
			return Result{}, fmt.Errorf("%s: the MUS %v of consistent premises leaves out the hypothesis side", r.Label, v.MUS)
		}
		r.Subset = slices.Clone(v.MUS[:len(v.MUS)-1])
	}
	return r, nil
}

// Refutation returns the formulas whose unsatisfiability a certificate
// claims: the premises of subset with ψ (Contradiction) or neg ψ
// (Entailment). It is nil for Neutral.
func Refutation(premises []fragments.Sentence, hyp fragments.Sentence, l Label, subset []int) []fol.Formula {
	if l == Neutral {
		return nil
	}
	h := hyp
	if l == Entailment {
		h = hyp.Negation()
	}
	var fs []fol.Formula
	for _, i := range subset {
		fs = append(fs, premises[i].Formula())
	}
	return append(fs, h.Formula())
}

// labeller labels hypotheses on one premise set Φ while a triple is
// drawn, as Decide(ctx, b, Φ, ψ, false) would, with fewer solver calls.
// Every label it gives is decided, not guessed: a side is Sat because a
// checked model of Φ satisfies it, or because the solver found a checked
// model; Unsat only because the solver said so. What it saves:
//
//   - Equivalent hypotheses (equal fragments.Sentence.Meaning, which is
//     only equal for logically equivalent formulas) have the same label,
//     and are decided once.
//   - Every Sat side's model is a checked model of Φ (Decide checks it
//     against Φ ∪ {ψ} or Φ ∪ {neg ψ}). A model of Φ in which ψ (neg ψ)
//     is true shows Φ ∪ {ψ} (Φ ∪ {neg ψ}) satisfiable without a solver
//     call, so evaluating the models seen so far often settles a side,
//     and settles Neutral when it settles both.
//   - Once a model of Φ is known, Φ is consistent, and Φ ∪ {ψ} unsat
//     means Φ ⊨ ¬ψ, so Φ ∪ {neg ψ} (neg ψ ≡ ¬ψ) is satisfiable: the label
//     is Contradiction without deciding that side.
//
// Before any model of Φ is known both sides are decided, as Decide does,
// so that inconsistent premises are still found on the first hypothesis
// and reported as ErrInconsistent.
type labeller struct {
	b        solver.Backend
	premises []fragments.Sentence
	phi      []fol.Formula
	// plain makes label call Decide on every hypothesis (the
	// straightforward path, kept for tests to compare with).
	plain  bool
	models fol.Models
	labels map[string]Label
}

func newLabeller(b solver.Backend, premises []fragments.Sentence, plain bool) *labeller {
	return &labeller{b: b, premises: premises, phi: fragments.Formulas(premises), plain: plain, labels: map[string]Label{}}
}

// label returns hyp's label on the premises, false when a solver call
// left it undecided, or Decide's error (ErrInconsistent for inconsistent
// premises); key is hyp.Meaning().
func (l *labeller) label(ctx context.Context, hyp fragments.Sentence, key string) (Label, bool, error) {
	if l.plain {
		r, err := Decide(ctx, l.b, l.premises, hyp, false)
		return r.Label, r.Decided, err
	}
	if lab, ok := l.labels[key]; ok {
		return lab, true, nil
	}
	neg := hyp.Negation()
	with, against := l.satisfied(hyp.Formula()), l.satisfied(neg.Formula())
	var ok bool
	var err error
	if !with {
		if with, ok, err = l.sat(ctx, hyp, 0); err != nil || !ok {
			return 0, ok, err
		}
		if !with && l.models.Len() > 0 {
			// Φ is consistent and Φ ⊨ ¬ψ: Φ ∪ {neg ψ} is satisfiable.
			l.labels[key] = Contradiction
			return Contradiction, true, nil
		}
	}
	if !against {
		if against, ok, err = l.sat(ctx, neg, 1); err != nil || !ok {
			return 0, ok, err
		}
	}
	var lab Label
	switch {
	case !with && !against:
		return 0, false, ErrInconsistent
	case !with:
		lab = Contradiction
	case !against:
		lab = Entailment
	default:
		lab = Neutral
	}
	l.labels[key] = lab
	return lab, true, nil
}

// noLabel is labelFor's answer when hyp cannot have a label it is asked
// for.
const noLabel Label = -1

// labelFor is label for a caller that only wants hyp when its label is
// one of those open: when a single label is open, it decides only the
// side that tells that label from the others, and returns noLabel when
// that side rules it out. Its answers agree with label's: noLabel only
// when label would give a label that is not open. Until a model of Φ is
// known it labels in full, so that inconsistent premises are found.
func (l *labeller) labelFor(ctx context.Context, hyp fragments.Sentence, key string, open [3]bool) (Label, bool, error) {
	single := noLabel
	for lab, o := range open {
		switch {
		case !o:
		case single == noLabel:
			single = Label(lab)
		default:
			return l.label(ctx, hyp, key)
		}
	}
	if _, cached := l.labels[key]; cached || l.plain || l.models.Len() == 0 || single == Neutral || single == noLabel {
		return l.label(ctx, hyp, key)
	}
	// With a model of Φ known, Φ is consistent: Φ ∪ {ψ} unsat means
	// Contradiction, Φ ∪ {neg ψ} unsat means Entailment, and a side
	// that has a model rules out that label.
	side, f := 0, hyp
	if single == Entailment {
		side, f = 1, hyp.Negation()
	}
	if l.satisfied(f.Formula()) {
		return noLabel, true, nil
	}
	sat, ok, err := l.sat(ctx, f, side)
	if err != nil || !ok {
		return 0, ok, err
	}
	if sat {
		return noLabel, true, nil
	}
	l.labels[key] = single
	return single, true, nil
}

// satisfied reports whether f is true in a model of Φ seen so far. A
// model that cannot evaluate f is passed over.
func (l *labeller) satisfied(f fol.Formula) bool { return l.models.AnyTrue(f) }

// sat decides Φ ∪ {h} with solver.Decide, side 0 being the hypothesis
// and 1 its negation (for the error), and keeps a Sat answer's checked
// model; ok is false when the answer is Unknown.
func (l *labeller) sat(ctx context.Context, h fragments.Sentence, side int) (sat, ok bool, err error) {
	v, err := solver.Decide(ctx, l.b, append(slices.Clip(l.phi), h.Formula()), solver.DecideOptions{})
	switch {
	case err != nil:
		return false, false, fmt.Errorf("premises with %s: %w", [2]string{"the hypothesis", "its negation"}[side], err)
	case v.Status == solver.Unknown:
		return false, false, nil
	case v.Status == solver.Sat:
		// Decide checked the model (CheckModel), so Add's check passes.
		if err := l.models.Add(v.Model); err != nil {
			return false, false, fmt.Errorf("premises with %s: its model: %w", [2]string{"the hypothesis", "its negation"}[side], err)
		}
	}
	return v.Status == solver.Sat, true, nil
}
