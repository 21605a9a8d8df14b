package fragments

import "github.com/nlsat/nlsat/internal/fol"

const (
	varX fol.Var = "x"
	varY fol.Var = "y"
)

// Formula returns the first-order meaning of s, shaped exactly as the
// spec's tables print it (see the package documentation, # Semantics). It
// assumes s passes Check.
func (s Sentence) Formula() fol.Formula {
	switch s.Fragment() {
	case S:
		return copular(s.Template.Number(), []fol.Formula{lit(s.P, varX)}, s.Q)
	case W:
		return copular(s.Template.Number(), []fol.Formula{lit(s.O, varX), lit(s.P, varX)}, s.Q)
	case Z:
		return copular(s.Template.Number(), []fol.Formula{lit(s.O, varX), s.relClause()}, s.Q)
	case V:
		return s.transitive(s.P, lit(s.Q, varY))
	case A:
		arc := fol.Conj(lit(s.P, varY), fol.Lit(s.Clause == Who, fol.Binary(s.S, varY, varX)))
		return s.transitive(s.O, arc)
	}
	return nil
}

// lit is ±noun(v).
func lit(t Term, v fol.Var) fol.Formula { return fol.Lit(!t.Neg, fol.Unary(t.Noun, v)) }

// restricted is ∀v(restr → body) when univ and ∃v(restr ∧ body) otherwise,
// the two ways a determiner combines its noun with its scope. A
// conjunctive restrictor is flattened into the ∃ conjunction, as the spec
// writes ∃y(±p(y) ∧ s(y,x) ∧ r(x,y)).
func restricted(univ bool, v fol.Var, restr, body fol.Formula) fol.Formula {
	if univ {
		return &fol.Forall{V: v, Body: &fol.Implies{L: restr, R: body}}
	}
	return &fol.Exists{V: v, Body: fol.Conj(restr, body)}
}

// copular builds the S, W and Z formulas: template 1 is ∀x(restr → q(x)),
// 2 is ∀x(restr → ¬q(x)) and 3 is ∃x(restr ∧ ±q(x)).
func copular(n int, restr []fol.Formula, q Term) fol.Formula {
	r := fol.Conj(restr...)
	switch n {
	case 1:
		return restricted(true, varX, r, lit(Term{Noun: q.Noun}, varX))
	case 2:
		return restricted(true, varX, r, lit(Term{Noun: q.Noun, Neg: true}, varX))
	}
	return &fol.Exists{V: varX, Body: fol.Conj(append(restr, lit(q, varX))...)}
}

// relClause is Z's RC(x).
func (s Sentence) relClause() fol.Formula {
	univ := s.Clause == RCEvery || s.Clause == RCNotAny
	pos := s.Clause == RCSome || s.Clause == RCEvery
	return restricted(univ, varY, lit(s.P, varY), fol.Lit(pos, fol.Binary(s.R, varX, varY)))
}

// transitive builds the V and A formulas from the subject term and the
// object restrictor (±q(y) for V, ARC(y,x) for A).
func (s Sentence) transitive(subj Term, obj fol.Formula) fol.Formula {
	subjUniv, objUniv, pos := s.quantifiers()
	body := restricted(objUniv, varY, obj, fol.Lit(pos, fol.Binary(s.R, varX, varY)))
	return restricted(subjUniv, varX, lit(subj, varX), body)
}

// quantifiers gives, for a V or A sentence, whether the subject and the
// object are universal and whether the main verb is positive.
func (s Sentence) quantifiers() (subjUniv, objUniv, pos bool) {
	switch s.Template.Number() {
	case 1:
		return s.Quant == EveryEvery || s.Quant == EverySome,
			s.Quant == EveryEvery || s.Quant == SomeEvery, true
	case 2:
		return true, s.Quant == Any, false
	}
	return false, s.Quant == Any, false
}
