package proof

import (
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
)

// mlit is a unary literal ±p(x) of the monadic fragments.
type mlit struct {
	Noun string
	Neg  bool
}

func (l mlit) not() mlit { return mlit{l.Noun, !l.Neg} }

func (l mlit) formula() fol.Formula { return fol.Lit(!l.Neg, fol.Unary(l.Noun, varX)) }

// clauseOf reads a universal statement ∀x(l1 ∧ … ∧ lk → h) or ∀x(h) as
// the clause ¬l1 ∨ … ∨ ¬lk ∨ h, in that order.
func clauseOf(f fol.Formula) ([]mlit, bool) {
	body, head, ok := monadicUniversal(f)
	if !ok {
		return nil, false
	}
	var c []mlit
	for _, t := range body {
		c = append(c, mlit{t.Noun, !t.Neg})
	}
	return append(c, mlit{head.Noun, head.Neg}), true
}

// existentialOf reads ∃x(l1 ∧ … ∧ lk) over unary literals.
func existentialOf(f fol.Formula) ([]mlit, bool) {
	e, ok := f.(*fol.Exists)
	if !ok || e.V != varX {
		return nil, false
	}
	var out []mlit
	for _, c := range conjuncts(e.Body) {
		t, ok := unaryTerm(c)
		if !ok {
			return nil, false
		}
		out = append(out, mlit{t.Noun, t.Neg})
	}
	return out, true
}

// universalFormula is the formula of the clause c said with head h:
// ∀x(¬c1 ∧ … → h), or ∀x(h) for a unit clause.
func universalFormula(c []mlit, h mlit) fol.Formula {
	var body []fol.Formula
	for _, l := range c {
		if l != h {
			body = append(body, l.not().formula())
		}
	}
	if len(body) == 0 {
		return &fol.Forall{V: varX, Body: h.formula()}
	}
	return &fol.Forall{V: varX, Body: &fol.Implies{L: fol.Conj(body...), R: h.formula()}}
}

func without(c []mlit, l mlit) []mlit {
	return slices.DeleteFunc(slices.Clone(c), func(m mlit) bool { return m == l })
}

// union returns a then the members of b not in a.
func union(a, b []mlit) []mlit {
	out := slices.Clone(a)
	for _, l := range b {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

func sameSet(a, b []mlit) bool { return subset(a, b) && subset(b, a) }

func subset(a, b []mlit) bool {
	for _, l := range a {
		if !slices.Contains(b, l) {
			return false
		}
	}
	return true
}

func tautology(c []mlit) bool {
	for _, l := range c {
		if slices.Contains(c, l.not()) {
			return true
		}
	}
	return false
}
