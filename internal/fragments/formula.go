package fragments

import (
	"strings"
	"sync"

	"github.com/nlsat/nlsat/internal/fol"
)

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

// FormulaText returns fol.String(s.Formula()), the formula as records
// write it, from a recipe per shape and noun polarities: the text of the
// formula whose words are marks, cut at the marks, each piece followed by
// the role whose word stands there. A formula's tree, and so its text
// but for the words, depends on nothing else, and every candidate a
// split draws writes one for each of its sentences.
func (s Sentence) FormulaText() string {
	key := formulaKey{s.Shape, s.O.Neg, s.P.Neg, s.Q.Neg}
	formulaRecipes.RLock()
	rc, ok := formulaRecipes.m[key]
	formulaRecipes.RUnlock()
	if !ok {
		rc = recipeOf(key)
		formulaRecipes.Lock()
		formulaRecipes.m[key] = rc
		formulaRecipes.Unlock()
	}
	words := [...]string{s.O.Noun, s.P.Noun, s.Q.Noun, s.R, s.S}
	size := 0
	for _, p := range rc {
		size += len(p.text)
		if p.word >= 0 {
			size += len(words[p.word])
		}
	}
	var b strings.Builder
	b.Grow(size)
	for _, p := range rc {
		b.WriteString(p.text)
		if p.word >= 0 {
			b.WriteString(words[p.word])
		}
	}
	return b.String()
}

// formulaKey is what a formula's text depends on but its words.
type formulaKey struct {
	Shape
	o, p, q bool // the nouns' polarities
}

// recipePiece is a piece of a formula's text and the word that follows
// it: 0 to 4 for O, P, Q, R and S, -1 for none (the last piece).
type recipePiece struct {
	text string
	word int8
}

// formulaRecipes holds the recipes made so far, a few per shape.
var formulaRecipes = struct {
	sync.RWMutex
	m map[formulaKey][]recipePiece
}{m: map[formulaKey][]recipePiece{}}

// formulaMark starts the mark of a word in a recipe's formula; the byte
// after it is the word's number. No text of a formula holds it but for a
// word.
const formulaMark = "\x00"

// recipeOf writes the formula of a sentence of key's shape and
// polarities whose words are marks, and cuts it at them.
func recipeOf(key formulaKey) []recipePiece {
	mark := func(k int) string { return formulaMark + string(rune('0'+k)) }
	s := Sentence{Shape: key.Shape,
		O: Term{Noun: mark(0), Neg: key.o}, P: Term{Noun: mark(1), Neg: key.p}, Q: Term{Noun: mark(2), Neg: key.q},
		R: mark(3), S: mark(4)}
	text := fol.String(s.Formula())
	var out []recipePiece
	for {
		i := strings.Index(text, formulaMark)
		if i < 0 {
			return append(out, recipePiece{text: text, word: -1})
		}
		out = append(out, recipePiece{text: text[:i], word: int8(text[i+1] - '0')})
		text = text[i+2:]
	}
}
