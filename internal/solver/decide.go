package solver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
)

// Verdict is a certified answer for one problem: Sat with a model that
// Shrink made small and CheckModel accepted, Unsat with (when asked for) a minimal
// unsatisfiable subset that MinimalCore certified, or Unknown with the
// reason. It is what every command and package that labels gets from
// Decide.
type Verdict struct {
	Status Status
	// Reason and Detail say why the answer is Unknown.
	Reason Reason
	Detail string
	// Model is the checked model of a Sat answer, as small as Shrink
	// finds: of the least size of any model when there is one of at most
	// MaxGround elements.
	Model *fol.Structure
	// MUS is the certified minimal unsatisfiable subset of an Unsat
	// answer (indices into the sentences, increasing); nil when Decide
	// was not asked for one.
	MUS []int
	// Pair, found with MUS, is a certified unsatisfiable pair of the
	// sentences (UnsatPair); nil when every pair is satisfiable, or
	// without MUS.
	Pair []int
	// Nodes is the backend's search effort (the native type search's
	// nodes; 0 where the backend does not report it).
	Nodes int
	// Elapsed is the backend's time on the problem itself, without the
	// MUS.
	Elapsed time.Duration
}

// DecideOptions say how far Decide certifies an answer.
type DecideOptions struct {
	// MUS asks for a certified MUS of an Unsat answer, and for a certified
	// unsatisfiable pair of sentences or the certified absence of one
	// (Pair). Without it an Unsat verdict carries no subset.
	MUS bool
	// LabelOnly is for a caller that keeps no certificate, only the
	// answer and, with MUS, whether two sentences contradict each other
	// (the surface balance's pilot, whose instances never reach a
	// dataset): a Sat answer keeps the backend's model, neither shrunk
	// nor checked, and an Unsat answer gets no MUS, only a Pair when a
	// subset of at most two sentences is unsatisfiable (the first that
	// NoCoreUpTo finds, not shrunk further). Such a verdict is not
	// certified and must not become a label.
	LabelOnly bool
}

// Decide solves the sentences fs with b and certifies the answer. The
// backend is reset first (Reset), so that the verdict does not depend on
// the problems it solved before. A Sat answer's model is shrunk (Shrink)
// and then checked with CheckModel, whatever the backend did; an Unsat
// answer, with opt.MUS, is shrunk to a MUS by MinimalCore and searched for
// an unsatisfiable pair by UnsatPair; opt.LabelOnly skips all of this but
// the search for a pair. An Unsat answer whose MUS or pair
// cannot be certified because b answered Unknown on a subset is returned
// as Unknown (GaveUp): no label goes out without its certificate.
//
// # Errors
//
// An error is a bug or a failed certificate, never an answer. The one
// exception is cancellation: if ctx ends before the verdict is certified,
// Decide returns an Unknown verdict with reason Canceled together with
// ctx's error, so that callers only pass errors on.
func Decide(ctx context.Context, b Backend, fs []fol.Formula, opt DecideOptions) (Verdict, error) {
	if err := Reset(b); err != nil {
		return Verdict{}, fmt.Errorf("%s: %w", b.Name(), err)
	}
	p := &Problem{Sentences: fs}
	res, err := b.Solve(ctx, p)
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{Status: res.Status, Reason: res.Reason, Detail: res.Detail, Model: res.Model,
		Nodes: int(res.Stats["nodes"]), Elapsed: res.Elapsed}
	switch {
	case ctx.Err() != nil || res.Reason == Canceled:
		return canceled(ctx)
	case res.Status == Sat && opt.LabelOnly:
	case res.Status == Unsat && opt.MUS && opt.LabelOnly:
		ok, core, err := NoCoreUpTo(ctx, b, p, 2)
		if err != nil || ctx.Err() != nil {
			return uncertified(ctx, "unsatisfiable pair", err)
		}
		if !ok {
			v.Pair = core
		}
	case res.Status == Sat:
		if res.Model == nil {
			return Verdict{}, fmt.Errorf("%s: sat without a model", b.Name())
		}
		m, err := Shrink(ctx, p, res.Model)
		switch {
		case ctx.Err() != nil:
			return canceled(ctx)
		case err != nil:
			return Verdict{}, fmt.Errorf("%s: shrinking its model: %w", b.Name(), err)
		}
		if err := CheckModel(p, m); err != nil {
			return Verdict{}, fmt.Errorf("%s: %w", b.Name(), err)
		}
		v.Model = m
	case res.Status == Unsat && opt.MUS:
		mus, err := MinimalCore(ctx, b, p, res.Core)
		if err != nil || ctx.Err() != nil {
			return uncertified(ctx, "minimal unsatisfiable subset", err)
		}
		pair, err := UnsatPair(ctx, b, p, mus)
		if err != nil || ctx.Err() != nil {
			return uncertified(ctx, "unsatisfiable pair", err)
		}
		v.MUS, v.Pair = mus, pair
	}
	return v, nil
}

// uncertified is Decide's answer when an Unsat answer's certificate (what)
// could not be made: canceled when ctx has ended; Unknown (GaveUp) when
// the backend answered Unknown on a subset, since the unsat answer stands
// but a label needs its certificate; otherwise err.
func uncertified(ctx context.Context, what string, err error) (Verdict, error) {
	switch {
	case ctx.Err() != nil:
		return canceled(ctx)
	case errors.Is(err, ErrUndecided):
		return Verdict{Reason: GaveUp, Detail: err.Error()}, nil
	}
	return Verdict{}, fmt.Errorf("%s: %w", what, err)
}

// Complete is implemented by backends that decide every problem they
// accept (the native one): an Unknown verdict from them, other than a
// cancellation, is a failure to report, never an instance to skip.
type Complete interface {
	Complete() bool
}

// IsComplete reports whether b is a complete backend.
func IsComplete(b Backend) bool {
	c, ok := b.(Complete)
	return ok && c.Complete()
}

// canceled is Decide's answer once ctx has ended.
func canceled(ctx context.Context) (Verdict, error) {
	err := ctx.Err()
	if err == nil {
		err = context.Canceled
	}
	return Verdict{Reason: Canceled}, err
}
