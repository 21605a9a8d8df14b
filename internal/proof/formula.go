package proof

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/fol"
)

// The variables of the fragments' formulas: x the subject, y the object.
const (
	varX fol.Var = "x"
	varY fol.Var = "y"
)

// individual returns the variable that names individual #k (k ≥ 1). A
// name with a digit is never a word of a lexicon (lexicon words are
// letters only), so it cannot clash with a noun when the checker turns it
// into a predicate.
func individual(k int) fol.Var { return fol.Var(fmt.Sprintf("c%d", k)) }

// individualNumber returns k for the variable ck, or 0 for any other.
func individualNumber(v fol.Var) int {
	s, ok := strings.CutPrefix(string(v), "c")
	if !ok {
		return 0
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || "c"+strconv.Itoa(k) != string(v) {
		return 0
	}
	return k
}

// individuals returns the numbers of the individuals free in f, without
// repeats.
func individuals(f fol.Formula) []int {
	var out []int
	for _, v := range fol.FreeVars(f) {
		if k := individualNumber(v); k > 0 {
			out = append(out, k)
		}
	}
	return out
}

// subst replaces the free occurrences of v in f by w.
func subst(f fol.Formula, v, w fol.Var) fol.Formula {
	switch g := f.(type) {
	case *fol.Atom:
		args := make([]fol.Var, len(g.Args))
		for i, a := range g.Args {
			args[i] = a
			if a == v {
				args[i] = w
			}
		}
		return &fol.Atom{Pred: g.Pred, Args: args}
	case *fol.Not:
		return &fol.Not{F: subst(g.F, v, w)}
	case *fol.And:
		return &fol.And{Fs: substAll(g.Fs, v, w)}
	case *fol.Or:
		return &fol.Or{Fs: substAll(g.Fs, v, w)}
	case *fol.Implies:
		return &fol.Implies{L: subst(g.L, v, w), R: subst(g.R, v, w)}
	case *fol.Forall:
		if g.V == v {
			return g
		}
		return &fol.Forall{V: g.V, Body: subst(g.Body, v, w)}
	case *fol.Exists:
		if g.V == v {
			return g
		}
		return &fol.Exists{V: g.V, Body: subst(g.Body, v, w)}
	}
	return f
}

func substAll(fs []fol.Formula, v, w fol.Var) []fol.Formula {
	out := make([]fol.Formula, len(fs))
	for i, f := range fs {
		out[i] = subst(f, v, w)
	}
	return out
}

// conjuncts returns the operands of a conjunction, or f alone.
func conjuncts(f fol.Formula) []fol.Formula {
	if a, ok := f.(*fol.And); ok {
		return a.Fs
	}
	return []fol.Formula{f}
}

// literal reports whether f is an atom or a negated atom, and returns the
// atom and its sign.
func literal(f fol.Formula) (a *fol.Atom, pos, ok bool) {
	switch g := f.(type) {
	case *fol.Atom:
		return g, true, true
	case *fol.Not:
		a, ok := g.F.(*fol.Atom)
		return a, false, ok
	}
	return nil, false, false
}

// negate returns the negation of a statement about individuals in the
// shape the fragments write it: ¬a for an atom a, a for ¬a, ∃y(R ∧ ¬l)
// for ∀y(R → l) and ∀y(R → ¬l) for ∃y(R ∧ l), the last conjunct of an
// existential body being its verb. It returns nil for anything else.
func negate(f fol.Formula) fol.Formula {
	if a, pos, ok := literal(f); ok {
		return fol.Lit(!pos, a)
	}
	switch g := f.(type) {
	case *fol.Forall:
		imp, ok := g.Body.(*fol.Implies)
		if !ok {
			return nil
		}
		if l := negate(imp.R); l != nil {
			return &fol.Exists{V: g.V, Body: fol.Conj(imp.L, l)}
		}
	case *fol.Exists:
		cs := conjuncts(g.Body)
		if len(cs) < 2 {
			return nil
		}
		if l := negate(cs[len(cs)-1]); l != nil {
			return &fol.Forall{V: g.V, Body: &fol.Implies{L: fol.Conj(cs[:len(cs)-1]...), R: l}}
		}
	}
	return nil
}

// key is a formula's identity for lookups.
func key(f fol.Formula) string { return fol.String(f) }
