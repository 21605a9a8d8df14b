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
	"sort"
	"strings"

	"github.com/nlsat/nlsat/internal/fol"
)

// readModel reads the model of a sat check as a finite structure over the
// problem's whole signature. The domain is the model's universe of U, or,
// for a grounded problem, the given element constants.
func (z *zctx) readModel(s C.Z3_solver, sig fol.Signature, ground []C.Z3_ast) (*fol.Structure, error) {
	var m C.Z3_model
	if err := z.check(C.nl_model(z.c, s, &m)); err != nil {
		return nil, fmt.Errorf("reading the model: %w", err)
	}
	defer C.Z3_model_dec_ref(z.c, m)
	elems := ground
	if elems == nil {
		var done func()
		var err error
		if elems, done, err = z.universe(m); err != nil {
			return nil, err
		}
		defer done()
	}
	st := fol.NewStructure(len(elems), sig)
	names := make([]string, 0, len(sig))
	for p := range sig {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		if err := z.fillTable(m, p, sig[p], elems, st); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// universe returns the elements of U in m, and a function that releases
// them. A model that has no universe for U (no sentence constrains U)
// gets a one-element domain: a fresh constant whose value model
// completion chooses.
func (z *zctx) universe(m C.Z3_model) ([]C.Z3_ast, func(), error) {
	var v C.Z3_ast_vector
	var n C.uint
	if err := z.check(C.nl_universe(z.c, m, z.u, &v, &n)); err != nil {
		return nil, nil, fmt.Errorf("reading the universe: %w", err)
	}
	if v == nil || n == 0 {
		if v != nil {
			C.Z3_ast_vector_dec_ref(z.c, v)
		}
		a, err := z.constant("nlsat!element", true)
		if err != nil {
			return nil, nil, err
		}
		return []C.Z3_ast{a}, func() { C.Z3_dec_ref(z.c, a) }, nil
	}
	done := func() { C.Z3_ast_vector_dec_ref(z.c, v) }
	elems := make([]C.Z3_ast, int(n))
	code := C.nl_vector_get(z.c, v, n, &elems[0])
	runtime.KeepAlive(elems)
	if err := z.check(code); err != nil {
		done()
		return nil, nil, fmt.Errorf("reading the universe: %w", err)
	}
	return elems, done, nil
}

// fillTable evaluates predicate p on every tuple of elems into st.
func (z *zctx) fillTable(m C.Z3_model, p string, arity int, elems []C.Z3_ast, st *fol.Structure) error {
	f, err := z.decl(p, arity)
	if err != nil {
		return err
	}
	n := len(elems)
	vals := make([]int8, n)
	if arity == 2 {
		vals = make([]int8, n*n)
	}
	code := C.nl_eval_table(z.c, m, f, C.uint(arity), C.uint(n), &elems[0], (*C.schar)(&vals[0]))
	runtime.KeepAlive(elems)
	runtime.KeepAlive(vals)
	if err := z.check(code); err != nil {
		return fmt.Errorf("evaluating %s in the model: %w", p, err)
	}
	if slices.Contains(vals, -1) {
		return fmt.Errorf("model gives %s a value that is not true or false", p)
	}
	for i := range n {
		if arity == 1 {
			st.Unary[p][i] = vals[i] == 1
			continue
		}
		for j := range n {
			st.Binary[p][i][j] = vals[i*n+j] == 1
		}
	}
	return nil
}

// core returns the sorted indices of the sentences in the unsat core.
func (z *zctx) core(s C.Z3_solver, m int) ([]int, error) {
	ids := make([]C.uint, m+1)
	var n C.uint
	code := C.nl_core(z.c, s, C.uint(len(ids)), &ids[0], &n)
	runtime.KeepAlive(ids)
	if err := z.check(code); err != nil {
		return nil, fmt.Errorf("reading the unsat core: %w", err)
	}
	if int(n) > m {
		return nil, fmt.Errorf("unsat core has %d members, the problem %d sentences", n, m)
	}
	core := make([]int, 0, n)
	for _, id := range ids[:n] {
		i, ok := z.ids[uint32(id)]
		if !ok || i >= m {
			return nil, fmt.Errorf("unsat core holds a term that tracks no sentence")
		}
		core = append(core, i)
	}
	sort.Ints(core)
	return slices.Compact(core), nil
}

// statKeys are the Z3 statistics copied into Result.Stats, by Z3's name.
var statKeys = map[string]bool{
	"rlimit count": true, "time": true, "max memory": true, "conflicts": true,
	"decisions": true, "quant instantiations": true, "final checks": true,
}

// stats reads a few cheap statistics of the solver. Errors are ignored:
// statistics are informative, never part of an answer.
func (z *zctx) stats(s C.Z3_solver) map[string]float64 {
	out := map[string]float64{}
	st := C.Z3_solver_get_statistics(z.c, s)
	if z.lastErr() != nil || st == nil {
		return out
	}
	C.Z3_stats_inc_ref(z.c, st)
	defer C.Z3_stats_dec_ref(z.c, st)
	for i := C.uint(0); i < C.Z3_stats_size(z.c, st); i++ {
		key := C.GoString(C.Z3_stats_get_key(z.c, st, i))
		if !statKeys[key] {
			continue
		}
		key = strings.ReplaceAll(key, " ", "-")
		if C.Z3_stats_is_uint(z.c, st, i) {
			out[key] = float64(C.Z3_stats_get_uint_value(z.c, st, i))
		} else {
			out[key] = float64(C.Z3_stats_get_double_value(z.c, st, i))
		}
	}
	return out
}
