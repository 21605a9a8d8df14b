//go:build cgo && !noz3

package z3

/*
#include "nlz3.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
)

// translator turns fol formulas into Z3 terms. Every term it makes is
// inc_ref'd and recorded in made, which the caller releases when the solve
// is over. With elems set it grounds the formulas instead: a quantifier
// becomes the conjunction or disjunction of its body over the constants
// elems, which stand for the domain {0, …, len(elems)-1}.
type translator struct {
	z     *zctx
	made  []C.Z3_ast
	bound map[fol.Var]int // how many enclosing quantifiers bind each variable
	elems []C.Z3_ast
	env   map[fol.Var]C.Z3_ast // in ground mode, the element each variable stands for
}

// checkSignature returns the problem's signature, or an error for an arity
// clash or an arity other than 1 or 2.
func checkSignature(fs []fol.Formula) (fol.Signature, error) {
	for i, f := range fs {
		if hasNil(f) {
			return nil, fmt.Errorf("malformed problem: sentence %d has a nil sub-formula", i+1)
		}
	}
	sig, err := fol.SignatureOf(fs...)
	if err != nil {
		return nil, fmt.Errorf("malformed problem: %w", err)
	}
	for p, k := range sig {
		if k != 1 && k != 2 {
			return nil, fmt.Errorf("malformed problem: predicate %q has arity %d; only 1 and 2 are supported", p, k)
		}
	}
	return sig, nil
}

// hasNil reports whether f or one of its sub-formulas is nil, which
// fol.Walk would not survive.
func hasNil(f fol.Formula) bool {
	switch g := f.(type) {
	case nil:
		return true
	case *fol.Not:
		return g == nil || hasNil(g.F)
	case *fol.And:
		return g == nil || slices.ContainsFunc(g.Fs, hasNil)
	case *fol.Or:
		return g == nil || slices.ContainsFunc(g.Fs, hasNil)
	case *fol.Implies:
		return g == nil || hasNil(g.L) || hasNil(g.R)
	case *fol.Forall:
		return g == nil || hasNil(g.Body)
	case *fol.Exists:
		return g == nil || hasNil(g.Body)
	case *fol.Atom:
		return g == nil
	}
	return false
}

// sentences translates every sentence of a problem.
func (t *translator) sentences(fs []fol.Formula) ([]C.Z3_ast, error) {
	terms := make([]C.Z3_ast, len(fs))
	for i, f := range fs {
		a, err := t.term(f)
		if err != nil {
			return nil, fmt.Errorf("malformed problem: sentence %d: %w", i+1, err)
		}
		terms[i] = a
	}
	return terms, nil
}

// keep records a freshly made term so that it is released later.
func (t *translator) keep(a C.Z3_ast, code C.Z3_error_code) (C.Z3_ast, error) {
	if err := t.z.check(code); err != nil {
		return nil, err
	}
	t.made = append(t.made, a)
	return a, nil
}

// term translates f.
func (t *translator) term(f fol.Formula) (C.Z3_ast, error) {
	var a C.Z3_ast
	switch g := f.(type) {
	case *fol.Atom:
		return t.atom(g)
	case *fol.Not:
		x, err := t.term(g.F)
		if err != nil {
			return nil, err
		}
		code := C.nl_mk_not(t.z.c, x, &a)
		return t.keep(a, code)
	case *fol.And:
		return t.nary(g.Fs, 1)
	case *fol.Or:
		return t.nary(g.Fs, 0)
	case *fol.Implies:
		l, err := t.term(g.L)
		if err != nil {
			return nil, err
		}
		r, err := t.term(g.R)
		if err != nil {
			return nil, err
		}
		code := C.nl_mk_implies(t.z.c, l, r, &a)
		return t.keep(a, code)
	case *fol.Forall:
		return t.quant(g.V, g.Body, 1)
	case *fol.Exists:
		return t.quant(g.V, g.Body, 0)
	case nil:
		return nil, fmt.Errorf("nil sub-formula")
	}
	return nil, fmt.Errorf("unknown formula node %T", f)
}

func (t *translator) atom(g *fol.Atom) (C.Z3_ast, error) {
	var args [2]C.Z3_ast
	if len(g.Args) < 1 || len(g.Args) > 2 {
		return nil, fmt.Errorf("atom %s has arity %d; only 1 and 2 are supported", g.Pred, len(g.Args))
	}
	for i, v := range g.Args {
		if t.bound[v] == 0 {
			return nil, fmt.Errorf("free variable %s in %s(…)", v, g.Pred)
		}
		if t.elems != nil {
			args[i] = t.env[v]
			continue
		}
		x, err := t.z.variable(v)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	f, err := t.z.decl(g.Pred, len(g.Args))
	if err != nil {
		return nil, err
	}
	var a C.Z3_ast
	code := C.nl_mk_app(t.z.c, f, C.uint(len(g.Args)), &args[0], &a)
	runtime.KeepAlive(&args)
	return t.keep(a, code)
}

func (t *translator) nary(fs []fol.Formula, and C.int) (C.Z3_ast, error) {
	args := make([]C.Z3_ast, len(fs)+1) // +1: never pass a pointer to an empty slice
	for i, h := range fs {
		x, err := t.term(h)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	var a C.Z3_ast
	code := C.nl_mk_nary(t.z.c, and, C.uint(len(fs)), &args[0], &a)
	runtime.KeepAlive(args)
	return t.keep(a, code)
}

func (t *translator) quant(v fol.Var, body fol.Formula, forall C.int) (C.Z3_ast, error) {
	if t.elems != nil {
		return t.expand(v, body, forall)
	}
	x, err := t.z.variable(v)
	if err != nil {
		return nil, err
	}
	t.bound[v]++
	b, err := t.term(body)
	t.bound[v]--
	if err != nil {
		return nil, err
	}
	var a C.Z3_ast
	code := C.nl_mk_quant(t.z.c, forall, x, b, &a)
	return t.keep(a, code)
}

// expand grounds a quantifier over the elements.
func (t *translator) expand(v fol.Var, body fol.Formula, forall C.int) (C.Z3_ast, error) {
	old, shadowed := t.env[v]
	t.bound[v]++
	defer func() {
		t.bound[v]--
		if shadowed {
			t.env[v] = old
		} else {
			delete(t.env, v)
		}
	}()
	args := make([]C.Z3_ast, len(t.elems))
	for i, e := range t.elems {
		t.env[v] = e
		x, err := t.term(body)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	var a C.Z3_ast
	code := C.nl_mk_nary(t.z.c, forall, C.uint(len(args)), &args[0], &a)
	runtime.KeepAlive(args)
	return t.keep(a, code)
}
