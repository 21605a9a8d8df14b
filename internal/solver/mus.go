package solver

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
)

// ErrUndecided is wrapped by MinimalCore's error when a backend answered
// Unknown on a subset, so that the caller can tell an incomplete solver
// from a bug.
var ErrUndecided = errors.New("undecided")

// CoreFinder is implemented by backends that can shrink an unsat core of a
// problem more cheaply than deletion can, with work they leave out of
// Solve because only MUS computations need it. FindCore returns a subset
// of core (indices into p.Sentences) that is still unsatisfiable;
// MinimalCore certifies its result whatever FindCore returned.
type CoreFinder interface {
	FindCore(ctx context.Context, p *Problem, core []int) ([]int, error)
}

// MinimalCore shrinks core (all sentences when nil) to a minimal
// unsatisfiable subset of p by deletion, after the backend's FindCore if
// it is a CoreFinder: each sentence is dropped if the
// rest is still Unsat, and when the backend returns an unsat core of the
// rest, everything outside it is dropped at once. It then certifies the
// result: the subset itself is Unsat, and the subset minus any one
// sentence has a model that CheckModel accepts. That model is the one
// found when the sentence was kept (it satisfies a superset of the
// subset minus the sentence), so certification costs no solving unless a
// check fails. Any Unknown answer, or a failed certification, is an
// error: a MUS is never built on an unknown.
func MinimalCore(ctx context.Context, b Backend, p *Problem, core []int) (mus []int, err error) {
	if core == nil {
		for i := range p.Sentences {
			core = append(core, i)
		}
	}
	if f, ok := b.(CoreFinder); ok {
		if core, err = f.FindCore(ctx, p, core); err != nil {
			return nil, fmt.Errorf("minimal core: %s: %w", b.Name(), err)
		}
	}
	mus = slices.Clone(core)
	slices.Sort(mus)
	// proved says whether mus itself was answered Unsat; witness[j] is a
	// checked model of a superset of mus minus sentence j.
	proved := false
	witness := map[int]*fol.Structure{}
	for i := 0; i < len(mus); {
		rest := slices.Delete(slices.Clone(mus), i, i+1)
		res, err := solveSubset(ctx, b, p, rest)
		if err != nil {
			return nil, err
		}
		if res.Status != Unsat {
			witness[mus[i]] = res.Model
			i++
			continue
		}
		mus, proved = rest, true
		if len(res.Core) > 0 && len(res.Core) < len(rest) && inRange(res.Core, len(rest)) {
			// The sentences kept so far are in every unsat subset of
			// rest, so they survive, still in front.
			mus = make([]int, 0, len(res.Core))
			for _, c := range res.Core {
				mus = append(mus, rest[c])
			}
			slices.Sort(mus)
			proved = false
		}
	}
	if err := certifyCore(ctx, b, p, mus, proved, witness); err != nil {
		return nil, err
	}
	return mus, nil
}

// certifyCore checks that mus is Unsat (unless proved) and that each mus
// minus one sentence is Sat with a checked model, taken from witness where
// it holds there and solved for otherwise.
func certifyCore(ctx context.Context, b Backend, p *Problem, mus []int, proved bool, witness map[int]*fol.Structure) error {
	if !proved {
		if res, err := solveSubset(ctx, b, p, mus); err != nil {
			return err
		} else if res.Status != Unsat {
			return fmt.Errorf("core %v is %v, not unsat", mus, res.Status)
		}
	}
	for i := range mus {
		rest := slices.Delete(slices.Clone(mus), i, i+1)
		if m := witness[mus[i]]; m != nil && CheckModel(subProblem(p, rest), m) == nil {
			continue
		}
		res, err := solveSubset(ctx, b, p, rest)
		if err != nil {
			return err
		}
		if res.Status != Sat {
			return fmt.Errorf("core %v is not minimal: without sentence %d it is %v", mus, mus[i]+1, res.Status)
		}
	}
	return nil
}

// inRange reports whether every index lies in [0, n).
func inRange(idx []int, n int) bool {
	for _, i := range idx {
		if i < 0 || i >= n {
			return false
		}
	}
	return true
}

// subProblem returns the sentences of p at indices idx.
func subProblem(p *Problem, idx []int) *Problem {
	sub := &Problem{Timeout: p.Timeout}
	for _, i := range idx {
		sub.Sentences = append(sub.Sentences, p.Sentences[i])
	}
	return sub
}

// solveSubset decides the sentences of p at indices idx. A Sat answer's
// model is re-checked with CheckModel; Unknown is an error.
func solveSubset(ctx context.Context, b Backend, p *Problem, idx []int) (Result, error) {
	sub := subProblem(p, idx)
	res, err := b.Solve(ctx, sub)
	if err != nil {
		return res, fmt.Errorf("minimal core: %s: %w", b.Name(), err)
	}
	switch res.Status {
	case Unknown:
		return res, fmt.Errorf("minimal core: %s answered unknown (%v) on sentences %v: %w", b.Name(), res.Reason, plusOne(idx), ErrUndecided)
	case Sat:
		if err := CheckModel(sub, res.Model); err != nil {
			return res, fmt.Errorf("minimal core: %s model for sentences %v: %w", b.Name(), plusOne(idx), err)
		}
	}
	return res, nil
}

func plusOne(idx []int) []int {
	out := make([]int, len(idx))
	for i, v := range idx {
		out[i] = v + 1
	}
	return out
}
