package z3

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// Short builders for hand-written formulas.
func all(v fol.Var, f fol.Formula) fol.Formula { return &fol.Forall{V: v, Body: f} }
func ex(v fol.Var, f fol.Formula) fol.Formula  { return &fol.Exists{V: v, Body: f} }
func imp(l, r fol.Formula) fol.Formula         { return &fol.Implies{L: l, R: r} }
func and(fs ...fol.Formula) fol.Formula        { return fol.Conj(fs...) }
func or(fs ...fol.Formula) fol.Formula         { return fol.Disj(fs...) }
func not(f fol.Formula) fol.Formula            { return &fol.Not{F: f} }
func u(p string, v fol.Var) fol.Formula        { return fol.Unary(p, v) }
func b(r string, x, y fol.Var) fol.Formula     { return fol.Binary(r, x, y) }

// newBackend makes a Backend for a test, or skips the test when Z3 is not
// built in.
func newBackend(t testing.TB, o Options) *Backend {
	t.Helper()
	if !Available() {
		t.Skip("z3 support not built in (built with -tags noz3 or without cgo)")
	}
	be, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { be.Close() })
	return be
}

// solve runs one problem with a generous test timeout.
func solve(t testing.TB, be *Backend, fs ...fol.Formula) solver.Result {
	t.Helper()
	res, err := be.Solve(context.Background(), &solver.Problem{Sentences: fs, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	return res
}

// hardProblem is satisfiable only in infinite structures (r is a strict
// order without a maximal element), so Z3's finite-model search never
// ends: it runs until it is interrupted or hits a limit. It needs a third
// variable, which the fragments never use.
func hardProblem() []fol.Formula {
	return []fol.Formula{
		all("x", ex("y", b("r", "x", "y"))),
		all("x", not(b("r", "x", "x"))),
		all("x", all("y", all("z", imp(and(b("r", "x", "y"), b("r", "y", "z")), b("r", "x", "z"))))),
	}
}

// show prints f compactly for test failure messages.
func show(f fol.Formula) string {
	switch g := f.(type) {
	case *fol.Atom:
		var a []string
		for _, v := range g.Args {
			a = append(a, string(v))
		}
		return g.Pred + "(" + strings.Join(a, ",") + ")"
	case *fol.Not:
		return "~" + show(g.F)
	case *fol.And:
		var a []string
		for _, h := range g.Fs {
			a = append(a, show(h))
		}
		return "(" + strings.Join(a, " & ") + ")"
	case *fol.Or:
		var a []string
		for _, h := range g.Fs {
			a = append(a, show(h))
		}
		return "(" + strings.Join(a, " | ") + ")"
	case *fol.Implies:
		return "(" + show(g.L) + " -> " + show(g.R) + ")"
	case *fol.Forall:
		return "A" + string(g.V) + "." + show(g.Body)
	case *fol.Exists:
		return "E" + string(g.V) + "." + show(g.Body)
	}
	return "?"
}

// showAll prints a problem one sentence a line.
func showAll(fs []fol.Formula) string {
	var sb strings.Builder
	for _, f := range fs {
		sb.WriteString("\n\t" + show(f))
	}
	return sb.String()
}
