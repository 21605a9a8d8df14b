//go:build cgo && !noz3

package z3

/*
#cgo pkg-config: z3
#include "nlz3.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"unsafe"

	"github.com/nlsat/nlsat/internal/fol"
)

// zctx is one Z3 context with the declarations cached in it. The sort U,
// the predicate declarations, the bound-variable constants and the
// tracking literals are inc_ref'd once and live as long as the context;
// their number is bounded by the vocabulary and the largest instance.
type zctx struct {
	c      C.Z3_context
	u      C.Z3_sort
	decls  map[declKey]C.Z3_func_decl
	vars   map[fol.Var]C.Z3_ast
	tracks []C.Z3_ast
	elems  []C.Z3_ast     // constants that stand for domain elements when grounding
	ids    map[uint32]int // ast id of tracks[i] → i
}

// declKey names a predicate declaration: the same name may be used with
// different arities in different instances.
type declKey struct {
	name  string
	arity int
}

// newZctx makes a reference-counted context with no error handler.
func newZctx() (*zctx, error) {
	var c C.Z3_context
	if code := C.nl_new_context(&c); code != C.Z3_OK {
		return nil, fmt.Errorf("z3: cannot create a context (error code %d)", int(code))
	}
	z := &zctx{c: c, decls: map[declKey]C.Z3_func_decl{}, vars: map[fol.Var]C.Z3_ast{}, ids: map[uint32]int{}}
	name := C.CString("U")
	defer C.free(unsafe.Pointer(name))
	if err := z.check(C.nl_mk_sort(c, name, &z.u)); err != nil {
		C.Z3_del_context(c)
		return nil, err
	}
	return z, nil
}

// close releases every cached object and deletes the context.
func (z *zctx) close() {
	for _, f := range z.decls {
		C.Z3_dec_ref(z.c, C.Z3_func_decl_to_ast(z.c, f))
	}
	for _, v := range z.vars {
		C.Z3_dec_ref(z.c, v)
	}
	z.release(z.tracks)
	z.release(z.elems)
	C.Z3_dec_ref(z.c, C.Z3_sort_to_ast(z.c, z.u))
	C.Z3_del_context(z.c)
	z.c = nil
}

// check turns a Z3 error code into a Go error carrying Z3's message.
func (z *zctx) check(code C.Z3_error_code) error {
	if code == C.Z3_OK {
		return nil
	}
	msg := C.GoString(C.Z3_get_error_msg(z.c, code))
	if msg == "" {
		msg = "error code " + strconv.Itoa(int(code))
	}
	return errors.New("z3: " + msg)
}

// lastErr checks the context's error code after a direct Z3 call.
func (z *zctx) lastErr() error { return z.check(C.Z3_get_error_code(z.c)) }

// release dec_refs every AST of as.
func (z *zctx) release(as []C.Z3_ast) {
	if len(as) == 0 {
		return
	}
	C.nl_dec_refs(z.c, C.uint(len(as)), &as[0])
	runtime.KeepAlive(as)
}

// decl returns the cached declaration of a predicate of arity 1 or 2.
func (z *zctx) decl(name string, arity int) (C.Z3_func_decl, error) {
	k := declKey{name, arity}
	if f, ok := z.decls[k]; ok {
		return f, nil
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var f C.Z3_func_decl
	if err := z.check(C.nl_mk_decl(z.c, cs, C.uint(arity), z.u, &f)); err != nil {
		return nil, fmt.Errorf("declaring %s/%d: %w", name, arity, err)
	}
	z.decls[k] = f
	return f, nil
}

// constant makes an inc_ref'd constant named name, of sort U when ofU is
// true and Bool otherwise.
func (z *zctx) constant(name string, ofU bool) (C.Z3_ast, error) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	dom := z.u
	if !ofU {
		dom = nil
	}
	var f C.Z3_func_decl
	if err := z.check(C.nl_mk_decl(z.c, cs, 0, dom, &f)); err != nil {
		return nil, err
	}
	defer C.Z3_dec_ref(z.c, C.Z3_func_decl_to_ast(z.c, f))
	var a C.Z3_ast
	if err := z.check(C.nl_mk_app(z.c, f, 0, nil, &a)); err != nil {
		return nil, err
	}
	return a, nil
}

// variable returns the cached constant of sort U that stands for v.
func (z *zctx) variable(v fol.Var) (C.Z3_ast, error) {
	if a, ok := z.vars[v]; ok {
		return a, nil
	}
	a, err := z.constant(string(v), true)
	if err != nil {
		return nil, fmt.Errorf("variable %s: %w", v, err)
	}
	z.vars[v] = a
	return a, nil
}

// track returns the Boolean literal that tracks sentence i.
func (z *zctx) track(i int) (C.Z3_ast, error) {
	for len(z.tracks) <= i {
		n := len(z.tracks)
		a, err := z.constant("nlsat!sentence!"+strconv.Itoa(n), false)
		if err != nil {
			return nil, err
		}
		z.tracks = append(z.tracks, a)
		z.ids[uint32(C.Z3_get_ast_id(z.c, a))] = n
		if err := z.lastErr(); err != nil {
			return nil, err
		}
	}
	return z.tracks[i], nil
}

// elements returns n cached constants of sort U for grounding.
func (z *zctx) elements(n int) ([]C.Z3_ast, error) {
	for len(z.elems) < n {
		a, err := z.constant("nlsat!e!"+strconv.Itoa(len(z.elems)), true)
		if err != nil {
			return nil, err
		}
		z.elems = append(z.elems, a)
	}
	return z.elems[:n], nil
}

// newSolver makes an inc_ref'd solver with the given limits.
func (z *zctx) newSolver(timeoutMS, rlimit, seed uint32) (C.Z3_solver, error) {
	var s C.Z3_solver
	if err := z.check(C.nl_new_solver(z.c, C.uint(timeoutMS), C.uint(rlimit), C.uint(seed), &s)); err != nil {
		return nil, fmt.Errorf("making a solver: %w", err)
	}
	return s, nil
}

// rlimitCount reads the context's cumulative resource counter.
func (z *zctx) rlimitCount(s C.Z3_solver) (float64, error) {
	var n C.double
	if err := z.check(C.nl_rlimit_count(z.c, s, &n)); err != nil {
		return 0, fmt.Errorf("reading the resource counter: %w", err)
	}
	return float64(n), nil
}

// versionOnce caches the library version.
var versionOnce = sync.OnceValue(func() string {
	var major, minor, build, rev C.uint
	C.Z3_get_version(&major, &minor, &build, &rev)
	return fmt.Sprintf("%d.%d.%d", major, minor, build)
})
