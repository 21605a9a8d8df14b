package fragments

import (
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

const x, y fol.Var = "x", "y"

// Formula constructors written independently of formula.go, so that the
// expected formulas in the tests are built by hand from the spec's tables.
func u(p string, v fol.Var) fol.Formula        { return fol.Unary(p, v) }
func bin(r string, a, b fol.Var) fol.Formula   { return fol.Binary(r, a, b) }
func not(f fol.Formula) fol.Formula            { return &fol.Not{F: f} }
func and(fs ...fol.Formula) fol.Formula        { return &fol.And{Fs: fs} }
func imp(l, r fol.Formula) fol.Formula         { return &fol.Implies{L: l, R: r} }
func all(v fol.Var, b fol.Formula) fol.Formula { return &fol.Forall{V: v, Body: b} }
func ex(v fol.Var, b fol.Formula) fol.Formula  { return &fol.Exists{V: v, Body: b} }

// tm reads "artist" or "non-artist" as a term; "" is the empty term.
func tm(s string) Term {
	w, neg := strings.CutPrefix(s, "non-")
	return Term{Noun: w, Neg: neg}
}

// sen builds a sentence from its id and roles, failing the test on a bad id.
func sen(t testing.TB, id, o, p, q, r, s string) Sentence {
	t.Helper()
	sh, err := ParseID(id)
	if err != nil {
		t.Fatal(err)
	}
	return Sentence{Shape: sh, O: tm(o), P: tm(p), Q: tm(q), R: r, S: s}
}
