package pairs

import "github.com/nlsat/nlsat/internal/fragments"

// logic is the quantifier and polarity skeleton of a sentence: what its
// template, quantifier variant and clause variant encode between them.
// Quantifier swaps and predicate flips change one field and map the
// skeleton back to a shape (apply); the grammar has a shape for every
// skeleton, so these edits never leave the sentence's fragment.
type logic struct {
	subjUniv bool // the subject's quantifier is ∀ (Every, No)
	predPos  bool // S, W, Z: q(x) is positive; V, A: r(x,y) is positive
	hasObj   bool // V, A: an object quantifier; Z: the clause's quantifier
	objUniv  bool // that quantifier is ∀
	objPos   bool // Z: the clause's verb is positive
}

func logicOf(s fragments.Sentence) logic {
	n := s.Template.Number()
	switch s.Fragment() {
	case fragments.V, fragments.A:
		l := logic{hasObj: true, predPos: n == 1}
		switch n {
		case 1:
			l.subjUniv = s.Quant == fragments.EveryEvery || s.Quant == fragments.EverySome
			l.objUniv = s.Quant == fragments.EveryEvery || s.Quant == fragments.SomeEvery
		default:
			l.subjUniv, l.objUniv = n == 2, s.Quant == fragments.Any
		}
		return l
	}
	l := logic{subjUniv: n != 3, predPos: n == 1 || n == 3 && !s.Q.Neg}
	if s.Fragment() == fragments.Z {
		l.hasObj = true
		l.objUniv = s.Clause == fragments.RCEvery || s.Clause == fragments.RCNotAny
		l.objPos = s.Clause == fragments.RCSome || s.Clause == fragments.RCEvery
	}
	return l
}

// apply returns s with the template, variants and the copula's polarity
// that express l; words and the other polarities are kept.
func (l logic) apply(s fragments.Sentence) fragments.Sentence {
	own := s.Fragment().Own()
	switch s.Fragment() {
	case fragments.V, fragments.A:
		switch {
		case l.predPos:
			s.Template = own[0]
			s.Quant = [2][2]fragments.Quant{
				{fragments.SomeSome, fragments.SomeEvery},
				{fragments.EverySome, fragments.EveryEvery},
			}[b2i(l.subjUniv)][b2i(l.objUniv)]
		default:
			s.Template = own[2-b2i(l.subjUniv)]
			s.Quant = [2]fragments.Quant{fragments.Every, fragments.Any}[b2i(l.objUniv)]
		}
		return s
	}
	switch {
	case l.subjUniv:
		s.Template = own[1-b2i(l.predPos)]
		s.Q.Neg = false
	default:
		s.Template = own[2]
		s.Q.Neg = !l.predPos
	}
	if s.Fragment() == fragments.Z {
		s.Clause = [2][2]fragments.Clause{
			{fragments.RCNotEvery, fragments.RCSome},
			{fragments.RCNotAny, fragments.RCEvery},
		}[b2i(l.objUniv)][b2i(l.objPos)]
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
