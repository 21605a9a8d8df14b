//go:build cgo && !noz3

package z3

/*
#include "nlz3.h"
*/
import "C"

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// job is one Solve in progress: the translated sentences, the watchdog
// and the wall-clock deadline shared by its checks.
type job struct {
	b        *Backend
	z        *zctx
	w        *watchdog
	p        *solver.Problem
	sig      fol.Signature
	terms    []C.Z3_ast
	deadline time.Time
}

// firstBudget is the resource budget of a Solve's first attempt; each
// further attempt on the quantified problem gets four times the budget of
// the one before.
const firstBudget = 100_000

// outcome is how a Solve's sequence of attempts ended.
type outcome struct {
	why      solver.Reason // the limit that ended the attempts, if any
	used     float64       // resource count spent over all attempts
	attempts int
}

// maxAttempts bounds the attempts on the quantified problem, so that a
// problem on which Z3 gives up at once does not restart until the budget
// is spent a few thousand units at a time.
const maxAttempts = 10

// maxGround is the largest domain the finite-model search tries.
const maxGround = 8

// attempt is a finished check; its solver belongs to the caller.
type attempt struct {
	s     C.Z3_solver
	r     C.Z3_lbool
	elems []C.Z3_ast // the domain of a grounded check, nil for the quantified problem
}

// decide checks the sentences, each asserted under its own tracking
// literal so that an unsat answer names its core, and reads the
// certificate. Z3's simple solver is used: the default (combined) solver
// builds a tactic on every check, which cost about 35 ms per instance
// against 0.6 ms.
func (j *job) decide() (solver.Result, error) {
	a, o, err := j.run()
	if a.s != nil {
		defer C.Z3_solver_dec_ref(j.z.c, a.s)
	}
	if err != nil {
		return solver.Result{}, err
	}
	res := solver.Result{Stats: j.z.stats(a.s), Reason: o.why}
	res.Stats["rlimit-count"], res.Stats["attempts"] = o.used, float64(o.attempts)
	res.Stats["ground-size"] = float64(len(a.elems))
	if o.why != solver.NoReason {
		return res, nil
	}
	switch a.r {
	case C.Z3_L_TRUE:
		m, err := j.z.readModel(a.s, j.sig, a.elems)
		if err != nil {
			return solver.Result{}, err
		}
		if err := solver.CheckModel(j.p, m); err != nil {
			return solver.Result{}, fmt.Errorf("z3 answered sat with a model that fails its check (a bug): %w", err)
		}
		res.Status, res.Model = solver.Sat, m
	case C.Z3_L_FALSE:
		res.Status = solver.Unsat
		if res.Core, err = j.z.core(a.s, len(j.terms)); err != nil {
			return solver.Result{}, err
		}
	default:
		res.Detail = C.GoString(C.Z3_solver_get_reason_unknown(j.z.c, a.s))
		if err := j.z.lastErr(); err != nil {
			return solver.Result{}, fmt.Errorf("reading the reason for unknown: %w", err)
		}
		res.Reason = reason(res.Detail)
	}
	return res, nil
}

// run checks the sentences, and while Z3 gives up or spends an attempt's
// budget it starts again on a fresh solver with the next seed and four
// times the budget, until RLimit is spent or maxAttempts are made. Z3 4.8.12's quantifier
// instantiation is very seed sensitive: a 3-sentence problem with a
// one-element model ran past 10 million units with seeds 0 to 2 and took
// 1,810 with seed 3. After the first failed attempt it searches for a
// small model (see finite). An answer given at a limit is not trusted,
// since Z3 can answer sat once it has been canceled. The attempt it
// returns, even with an error, has a solver (or nil) that the caller
// releases.
func (j *job) run() (attempt, outcome, error) {
	total := float64(clampU32(j.b.opts.RLimit))
	budget := min(firstBudget, total)
	plain := j.b.opts.Plain
	if j.b.oneAttempt || plain {
		budget = total
	}
	var o outcome
	for n := 1; ; n++ {
		s, err := j.solver(j.terms, true, j.b.opts.Seed+uint32(n-1), budget)
		if err != nil {
			return attempt{}, o, err
		}
		a := attempt{s: s, r: C.Z3_L_UNDEF}
		r, used, err := j.check(s, &o)
		if err != nil || o.why != solver.NoReason {
			return a, o, err
		}
		switch {
		case r != C.Z3_L_UNDEF && used < budget:
			a.r = r
			return a, o, nil
		case plain && used < budget:
			return a, o, nil // Z3 gave up; decide reads its reason
		case total-o.used <= 0 || n == maxAttempts || plain:
			if used >= budget {
				o.why = solver.ResourceLimit
			}
			return a, o, nil
		}
		C.Z3_solver_dec_ref(j.z.c, s)
		if n == 1 {
			if a, done, err := j.finite(&o, total); done || err != nil {
				return a, o, err
			}
		}
		budget = min(4*budget, total-o.used)
		if budget <= 0 {
			o.why = solver.ResourceLimit
			return j.emptyAttempt(o)
		}
	}
}

// finite searches for a model with 1 to maxGround elements by grounding
// the sentences over that many constants, a propositional problem that Z3
// decides at once. Z3 4.8.12's quantifier instantiation misses many small
// models of these fragments for any seed: 7 of 300 random 2-to-7-sentence
// problems with models of at most 3 elements stayed unknown after 10
// million units, and none with this search. Unsat at one size says
// nothing, so only sat ends the search. done reports that the attempts are over: a model was found or a
// limit was reached.
func (j *job) finite(o *outcome, total float64) (a attempt, done bool, err error) {
	for k := 1; k <= maxGround; k++ {
		budget := min(10*firstBudget, total-o.used)
		if budget <= 0 {
			return attempt{}, false, nil
		}
		elems, err := j.z.elements(k)
		if err != nil {
			return attempt{}, true, err
		}
		t := &translator{z: j.z, bound: map[fol.Var]int{}, elems: elems, env: map[fol.Var]C.Z3_ast{}}
		terms, err := t.sentences(j.p.Sentences)
		var s C.Z3_solver
		if err == nil {
			s, err = j.solver(terms, false, j.b.opts.Seed, budget)
		}
		j.z.release(t.made) // the solver holds its own references
		if err != nil {
			return attempt{}, true, err
		}
		r, used, err := j.check(s, o)
		if err != nil || o.why != solver.NoReason || (r == C.Z3_L_TRUE && used < budget) {
			return attempt{s: s, r: r, elems: elems}, true, err
		}
		C.Z3_solver_dec_ref(j.z.c, s)
	}
	return attempt{}, false, nil
}

// emptyAttempt returns a fresh solver with nothing asserted, so that run
// always hands back a solver to read statistics from.
func (j *job) emptyAttempt(o outcome) (attempt, outcome, error) {
	s, err := j.z.newSolver(1, 1, j.b.opts.Seed)
	return attempt{s: s, r: C.Z3_L_UNDEF}, o, err
}

// solver makes a solver with the time left and the given seed and
// resource budget, and asserts terms, each under its own tracking literal
// when track is true.
func (j *job) solver(terms []C.Z3_ast, track bool, seed uint32, budget float64) (C.Z3_solver, error) {
	ms := millis(time.Until(j.deadline))
	if j.b.noZ3Timer {
		ms = math.MaxUint32
	}
	s, err := j.z.newSolver(ms, uint32(budget), seed)
	if err != nil {
		return nil, err
	}
	for i, a := range terms {
		if track {
			lit, err := j.z.track(i)
			if err != nil {
				C.Z3_solver_dec_ref(j.z.c, s)
				return nil, err
			}
			C.Z3_solver_assert_and_track(j.z.c, s, a, lit)
		} else {
			C.Z3_solver_assert(j.z.c, s, a)
		}
		if err := j.z.lastErr(); err != nil {
			C.Z3_solver_dec_ref(j.z.c, s)
			return nil, fmt.Errorf("asserting sentence %d: %w", i+1, err)
		}
	}
	return s, nil
}

// check runs one check of s while the watchdog may interrupt it; it does
// not start the check if the watchdog has already fired. It returns Z3's
// answer and the resource count spent, and adds to o; o.why is set when
// the watchdog fired or the check ran into the deadline.
func (j *job) check(s C.Z3_solver, o *outcome) (C.Z3_lbool, float64, error) {
	before, err := j.z.rlimitCount(s)
	if err != nil {
		return C.Z3_L_UNDEF, 0, err
	}
	r := C.Z3_lbool(C.Z3_L_UNDEF)
	if j.w.enter() {
		r = C.Z3_solver_check(j.z.c, s)
		j.w.exit()
	}
	o.attempts++
	if why := j.w.reason(); why != solver.NoReason {
		o.why = why
		return C.Z3_L_UNDEF, 0, nil
	}
	if !time.Now().Before(j.deadline) {
		o.why = solver.Timeout
		return C.Z3_L_UNDEF, 0, nil
	}
	if err := j.z.lastErr(); err != nil {
		return C.Z3_L_UNDEF, 0, fmt.Errorf("z3 check: %w", err)
	}
	after, err := j.z.rlimitCount(s)
	o.used += after - before
	return r, after - before, err
}

// reason maps Z3's reason for an unknown answer that reached no limit to a
// solver.Reason. Z3 says "canceled" for its own timer and for rlimit alike,
// and a cancellation that neither the clock nor the counter shows is
// counted as a resource limit.
func reason(detail string) solver.Reason {
	d := strings.ToLower(detail)
	switch {
	case strings.Contains(d, "timeout"):
		return solver.Timeout
	case strings.Contains(d, "resource limit"), strings.Contains(d, "rlimit"),
		strings.Contains(d, "memout"), strings.Contains(d, "memory"),
		strings.Contains(d, "cancel"), strings.Contains(d, "interrupt"):
		return solver.ResourceLimit
	}
	return solver.GaveUp
}
