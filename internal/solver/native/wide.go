package native

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/sat"
	"github.com/nlsat/nlsat/internal/solver"
)

// errWide marks a problem with more nouns than the pattern width it was
// normalized for holds; normalizeIn's caller then picks a wider one.
var errWide = errors.New("more nouns than the noun patterns hold")

// wideMonadic decides a problem without verbs whose nouns are too many for
// one-word noun patterns, as the S and W fragments over a large
// vocabulary give (it is kept for them, before the wider patterns, because
// one SAT call per existential is all they need): every sentence is ∀x φ or ∃x ψ with φ, ψ without
// quantifiers over unary atoms of x. Such a problem is satisfiable exactly
// when, for each existential (or, without one, once), some valuation of
// the nouns satisfies ψ and every φ: one element per existential is then a
// model. Each question is one SAT call under an activation literal per
// sentence, so an Unsat answer comes with the sentences it needed. ok is
// false when the problem is not of that form.
func wideMonadic(ctx context.Context, s *sat.Solver, p *solver.Problem) (res solver.Result, ok bool, err error) {
	sig, err := fol.SignatureOf(p.Sentences...)
	if err != nil {
		return res, false, nil
	}
	nouns := make([]string, 0, len(sig))
	for name, k := range sig {
		if k != 1 {
			return res, false, nil
		}
		nouns = append(nouns, name)
	}
	slices.Sort(nouns)
	s.Reset()
	s.Options = sat.Options{Stop: func() bool { return ctx.Err() != nil }}
	first := s.AddVars(len(nouns))
	noun := make(map[string]int, len(nouns))
	for i, name := range nouns {
		noun[name] = first + i
	}
	acts := make([]sat.Lit, len(p.Sentences))
	var universals []sat.Lit
	var exists []int // sentence indices
	for i, f := range p.Sentences {
		var body fol.Formula
		var v fol.Var
		switch q := f.(type) {
		case *fol.Forall:
			body, v = q.Body, q.V
		case *fol.Exists:
			body, v = q.Body, q.V
			exists = append(exists, i)
		default:
			return res, false, nil
		}
		l, ok := tseitin(s, noun, v, body)
		if !ok {
			return res, false, nil
		}
		acts[i] = sat.Pos(s.AddVars(1))
		s.AddClause(acts[i].Not(), l)
		if _, ok := f.(*fol.Forall); ok {
			universals = append(universals, acts[i])
		}
	}
	stats := map[string]float64{"nouns": float64(len(nouns)), "verbs": 0, "wide_monadic": 1}
	queries := [][]sat.Lit{universals}
	if len(exists) > 0 {
		queries = queries[:0]
		for _, i := range exists {
			queries = append(queries, append(slices.Clip(universals), acts[i]))
		}
	}
	var elems [][]bool
	for _, asm := range queries {
		switch s.Solve(asm...) {
		case sat.Unknown:
			r := solver.Canceled
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				r = solver.Timeout
			}
			return solver.Result{Status: solver.Unknown, Reason: r, Stats: stats}, true, nil
		case sat.Unsat:
			var core []int
			for _, l := range s.Core() {
				core = append(core, slices.Index(acts, l))
			}
			slices.Sort(core)
			return solver.Result{Status: solver.Unsat, Core: slices.Compact(core), Stats: stats}, true, nil
		}
		e := make([]bool, len(nouns))
		for j := range nouns {
			e[j] = s.Value(first + j)
		}
		elems = append(elems, e)
	}
	st := fol.NewStructure(len(elems), sig)
	for j, name := range nouns {
		for a, e := range elems {
			st.Unary[name][a] = e[j]
		}
	}
	if err := solver.CheckModel(p, st); err != nil {
		return res, true, fmt.Errorf("native model fails its check: %w", err)
	}
	stats["model_size"] = float64(st.Size)
	return solver.Result{Status: solver.Sat, Model: st, Stats: stats}, true, nil
}

// tseitin returns a literal equivalent to f, a formula without quantifiers
// over unary atoms of v, adding the defining clauses of its subformulas to
// s; ok is false for any other formula.
func tseitin(s *sat.Solver, noun map[string]int, v fol.Var, f fol.Formula) (sat.Lit, bool) {
	switch g := f.(type) {
	case *fol.Atom:
		if len(g.Args) != 1 || g.Args[0] != v {
			return 0, false
		}
		return sat.Pos(noun[g.Pred]), true
	case *fol.Not:
		l, ok := tseitin(s, noun, v, g.F)
		return l.Not(), ok
	case *fol.Implies:
		return tseitin(s, noun, v, &fol.Or{Fs: []fol.Formula{&fol.Not{F: g.L}, g.R}})
	case *fol.And, *fol.Or:
		var fs []fol.Formula
		and := false
		if a, ok := g.(*fol.And); ok {
			fs, and = a.Fs, true
		} else {
			fs = g.(*fol.Or).Fs
		}
		ls := make([]sat.Lit, len(fs))
		for i, h := range fs {
			var ok bool
			if ls[i], ok = tseitin(s, noun, v, h); !ok {
				return 0, false
			}
		}
		out := sat.Pos(s.AddVars(1))
		t := out  // t ↔ ∧ls
		if !and { // out ↔ ∨ls is ¬out ↔ ∧¬ls
			for i := range ls {
				ls[i] = ls[i].Not()
			}
			t = out.Not()
		}
		long := []sat.Lit{t}
		for _, l := range ls {
			s.AddClause(t.Not(), l)
			long = append(long, l.Not())
		}
		s.AddClause(long...)
		return out, true
	}
	return 0, false
}
