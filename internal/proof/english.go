package proof

import (
	"fmt"
	"strings"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// Render returns the English of a conclusion a proof may state: a
// universal statement about one element of the monadic fragments (a
// sentence of S or W where they can say it), or a conjunction of facts
// about named individuals. It is an error for any other formula.
func Render(lx *fragments.Lexicon, f fol.Formula) (string, error) {
	if len(fol.FreeVars(f)) == 0 {
		return renderUniversal(lx, f)
	}
	cs := conjuncts(f)
	parts := make([]string, len(cs))
	for i, c := range cs {
		s, err := renderFact(lx, c)
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	return strings.Join(parts, " and ") + ".", nil
}

// renderUniversal renders ∀x(l) and ∀x(l1 ∧ … ∧ lk → h) over unary
// literals: "Everyone is a p.", "No one is a p.", a sentence of S (k = 1)
// or W (k = 2), and beyond that W's form with "and" between the
// conditions of the relative clause.
func renderUniversal(lx *fragments.Lexicon, f fol.Formula) (string, error) {
	body, head, ok := monadicUniversal(f)
	if !ok {
		return "", fmt.Errorf("cannot render %s", fol.String(f))
	}
	noun := func(t fragments.Term) string {
		if t.Neg {
			return "non-" + t.Noun
		}
		return t.Noun
	}
	switch len(body) {
	case 0:
		if head.Neg {
			return "No one is " + article(lx, head.Noun) + ".", nil
		}
		return "Everyone is " + article(lx, head.Noun) + ".", nil
	case 1, 2:
		return lx.English(universalSentence(body, head)), nil
	}
	det := "Every"
	if head.Neg {
		det = "No"
	}
	conds := make([]string, len(body)-1)
	for i, t := range body[1:] {
		conds[i] = "is " + article(lx, t.Noun)
		if t.Neg {
			conds[i] = "is not " + article(lx, t.Noun)
		}
	}
	return fmt.Sprintf("%s %s who %s is %s.", det, noun(body[0]), strings.Join(conds, " and "), article(lx, head.Noun)), nil
}

// universalSentence is the sentence of S (one condition) or W (two) that
// says ∀x(body → head).
func universalSentence(body []fragments.Term, head fragments.Term) fragments.Sentence {
	n := 1
	if head.Neg {
		n = 2
	}
	q := fragments.Term{Noun: head.Noun}
	if len(body) == 1 {
		return fragments.Sentence{Shape: fragments.Shape{Template: fragments.S1 + fragments.Template(n-1)}, P: body[0], Q: q}
	}
	return fragments.Sentence{Shape: fragments.Shape{Template: fragments.W1 + fragments.Template(n-1)}, O: body[0], P: body[1], Q: q}
}

// monadicUniversal reads ∀x(l) or ∀x(l1 ∧ … ∧ lk → h), all literals
// unary over x, into its conditions and its head.
func monadicUniversal(f fol.Formula) (body []fragments.Term, head fragments.Term, ok bool) {
	all, isAll := f.(*fol.Forall)
	if !isAll || all.V != varX {
		return nil, head, false
	}
	hf := all.Body
	if imp, isImp := all.Body.(*fol.Implies); isImp {
		for _, c := range conjuncts(imp.L) {
			t, ok := unaryTerm(c)
			if !ok {
				return nil, head, false
			}
			body = append(body, t)
		}
		hf = imp.R
	}
	head, ok = unaryTerm(hf)
	return body, head, ok
}

// unaryTerm reads ±p(x) as a term.
func unaryTerm(f fol.Formula) (fragments.Term, bool) {
	a, pos, ok := literal(f)
	if !ok || len(a.Args) != 1 || a.Args[0] != varX {
		return fragments.Term{}, false
	}
	return fragments.Term{Noun: a.Pred, Neg: !pos}, true
}

// renderFact renders one fact about individuals: "#1 is (not) a p",
// "#1 (does not) r #2", or what #1 does to some, every or any p (who s's
// him).
func renderFact(lx *fragments.Lexicon, f fol.Formula) (string, error) {
	if a, pos, ok := literal(f); ok {
		return renderGround(lx, a, pos)
	}
	var univ bool
	var restr []fol.Formula
	var verb fol.Formula
	switch g := f.(type) {
	case *fol.Forall:
		imp, ok := g.Body.(*fol.Implies)
		if !ok || g.V != varY {
			return "", fmt.Errorf("cannot render %s", fol.String(f))
		}
		univ, restr, verb = true, conjuncts(imp.L), imp.R
	case *fol.Exists:
		cs := conjuncts(g.Body)
		if g.V != varY || len(cs) < 2 {
			return "", fmt.Errorf("cannot render %s", fol.String(f))
		}
		restr, verb = cs[:len(cs)-1], cs[len(cs)-1]
	default:
		return "", fmt.Errorf("cannot render %s", fol.String(f))
	}
	return renderQuantified(lx, f, univ, restr, verb)
}

// renderQuantified renders ∀y(restr → ±r(c,y)) or ∃y(restr ∧ ±r(c,y)),
// restr being ±p(y) and, in A, ±s(y,c).
func renderQuantified(lx *fragments.Lexicon, f fol.Formula, univ bool, restr []fol.Formula, verb fol.Formula) (string, error) {
	bad := fmt.Errorf("cannot render %s", fol.String(f))
	r, pos, ok := literal(verb)
	if !ok || len(r.Args) != 2 || r.Args[1] != varY || individualNumber(r.Args[0]) == 0 || len(restr) > 2 {
		return "", bad
	}
	c := r.Args[0]
	p, ppos, ok := literal(restr[0])
	if !ok || len(p.Args) != 1 || p.Args[0] != varY {
		return "", bad
	}
	obj := p.Pred
	if !ppos {
		obj = "non-" + p.Pred
	}
	if len(restr) == 2 {
		s, spos, ok := literal(restr[1])
		if !ok || len(s.Args) != 2 || s.Args[0] != varY || s.Args[1] != c {
			return "", bad
		}
		if spos {
			obj += " who " + third(lx, s.Pred) + " him"
		} else {
			obj += " who does not " + s.Pred + " him"
		}
	}
	subj := name(c)
	switch {
	case univ && pos:
		return subj + " " + third(lx, r.Pred) + " every " + obj, nil
	case univ:
		return subj + " does not " + r.Pred + " any " + obj, nil
	case pos:
		return subj + " " + third(lx, r.Pred) + " some " + obj, nil
	}
	return subj + " does not " + r.Pred + " every " + obj, nil
}

// renderGround renders a literal about individuals.
func renderGround(lx *fragments.Lexicon, a *fol.Atom, pos bool) (string, error) {
	for _, v := range a.Args {
		if individualNumber(v) == 0 {
			return "", fmt.Errorf("cannot render %s: %s is not an individual", fol.String(a), v)
		}
	}
	switch {
	case len(a.Args) == 1 && pos:
		return name(a.Args[0]) + " is " + article(lx, a.Pred), nil
	case len(a.Args) == 1:
		return name(a.Args[0]) + " is not " + article(lx, a.Pred), nil
	case len(a.Args) == 2 && pos:
		return name(a.Args[0]) + " " + third(lx, a.Pred) + " " + name(a.Args[1]), nil
	case len(a.Args) == 2:
		return name(a.Args[0]) + " does not " + a.Pred + " " + name(a.Args[1]), nil
	}
	return "", fmt.Errorf("cannot render %s", fol.String(a))
}

// name writes individual ck as #k.
func name(v fol.Var) string { return fmt.Sprintf("#%d", individualNumber(v)) }

// article returns a noun with its indefinite article from lx.
func article(lx *fragments.Lexicon, noun string) string {
	if n, ok := lx.Noun(noun); ok {
		return n.Article + " " + noun
	}
	return fragments.ArticleRule(noun) + " " + noun
}

// third returns a verb's third-person form from lx.
func third(lx *fragments.Lexicon, base string) string {
	if v, ok := lx.Verb(base); ok {
		return v.Third
	}
	return fragments.ThirdRule(base)
}
