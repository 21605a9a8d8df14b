package proof

import (
	"errors"
	"fmt"

	"github.com/nlsat/nlsat/internal/fol"
)

// A statement about named individuals is checked by the decider, which
// knows no constants, through guard predicates: individual #k becomes a
// unary predicate ck (a name no lexicon word can have), a premise φ(ck)
// becomes ∀x(ck(x) → φ(x)) and a negated conclusion ¬φ(ck) becomes
// ∃x(ck(x) ∧ ¬φ(x)). This is sound: from a model of the cited facts in
// which the conclusion fails, reading each ck as the one element #k names
// gives a model of the encoded premises and negated conclusion, and of
// ∃x ck(x) for each individual the premises name, which the checker adds. So when
// the encoded set is unsatisfiable, the conclusion follows.

// exists says that individual #k is an element: ∃x ck(x).
func exists(k int) fol.Formula {
	return &fol.Exists{V: varX, Body: fol.Unary(string(individual(k)), varX)}
}

// encodePremise returns the formulas that stand for premise f: f itself
// when it is a sentence, otherwise one guarded formula per conjunct.
func encodePremise(f fol.Formula) ([]fol.Formula, error) {
	if f == nil {
		return nil, errors.New("no formula to cite")
	}
	if len(fol.FreeVars(f)) == 0 {
		return []fol.Formula{f}, nil
	}
	var out []fol.Formula
	for _, c := range conjuncts(f) {
		g, err := guard(c, true)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// encodeNegation returns one formula that stands for the negation of f:
// for a sentence its negation, for a fact about individuals its guarded
// negation.
func encodeNegation(f fol.Formula) (fol.Formula, error) {
	if len(fol.FreeVars(f)) == 0 {
		body, head, ok := monadicUniversal(f)
		if !ok {
			return nil, fmt.Errorf("cannot negate %s", fol.String(f))
		}
		var cs []fol.Formula
		for _, t := range body {
			cs = append(cs, fol.Lit(!t.Neg, fol.Unary(t.Noun, varX)))
		}
		cs = append(cs, fol.Lit(head.Neg, fol.Unary(head.Noun, varX)))
		return &fol.Exists{V: varX, Body: fol.Conj(cs...)}, nil
	}
	if err := singleFact(f); err != nil {
		return nil, err
	}
	n := negate(f)
	if n == nil {
		return nil, fmt.Errorf("cannot negate %s", fol.String(f))
	}
	return guard(n, false)
}

// guard turns a fact about individuals into a sentence: universally
// guarded (∀x(ck(x) → …)) for a premise, existentially (∃x(ck(x) ∧ …))
// for a negated conclusion.
func guard(f fol.Formula, univ bool) (fol.Formula, error) {
	wrap := func(v fol.Var, k int, body fol.Formula) fol.Formula {
		g := fol.Unary(string(individual(k)), v)
		if univ {
			return &fol.Forall{V: v, Body: &fol.Implies{L: g, R: body}}
		}
		return &fol.Exists{V: v, Body: fol.Conj(g, body)}
	}
	if a, pos, ok := literal(f); ok {
		ks := make([]int, len(a.Args))
		vs := []fol.Var{varX, varY}
		for i, v := range a.Args {
			if ks[i] = individualNumber(v); ks[i] == 0 || i > 1 {
				return nil, fmt.Errorf("cannot encode %s", fol.String(f))
			}
		}
		body := fol.Lit(pos, &fol.Atom{Pred: a.Pred, Args: vs[:len(ks)]})
		if len(ks) == 2 {
			body = wrap(varY, ks[1], body)
		}
		return wrap(varX, ks[0], body), nil
	}
	ks := individuals(f)
	if len(ks) != 1 || bindsX(f) {
		return nil, fmt.Errorf("cannot encode %s", fol.String(f))
	}
	return wrap(varX, ks[0], subst(f, individual(ks[0]), varX)), nil
}

// bindsX reports whether f quantifies x somewhere.
func bindsX(f fol.Formula) bool {
	found := false
	fol.Walk(f, func(g fol.Formula) bool {
		switch q := g.(type) {
		case *fol.Forall:
			found = found || q.V == varX
		case *fol.Exists:
			found = found || q.V == varX
		}
		return !found
	})
	return found
}

// singleFact reports an error unless f is one statement about named
// individuals: a literal, or a quantified statement about one individual
// that negate can negate.
func singleFact(f fol.Formula) error {
	if len(individuals(f)) == 0 {
		return errors.New("the conclusion is about no named individual")
	}
	if _, _, ok := literal(f); ok {
		return nil
	}
	if len(individuals(f)) != 1 || negate(f) == nil {
		return fmt.Errorf("the conclusion %s is not a single fact", fol.String(f))
	}
	return nil
}

// universalStatement reports whether f is a sentence ∀x … or has a
// conjunct ∀y … about an individual.
func universalStatement(f fol.Formula) bool {
	for _, c := range conjuncts(f) {
		if _, ok := c.(*fol.Forall); ok {
			return true
		}
	}
	return false
}
