package fragments

import (
	"fmt"
	"strings"
)

// detNumber maps a subject determiner to its template number for S, W, Z
// and for the non-"does" V and A forms.
var detNumber = map[string]int{"Every": 1, "No": 2, "Some": 3}

func templateOf(f Fragment, n int) Template { return Template(3*(int(f)-1) + n) }

func (p *parser) sentence() (Sentence, error) {
	det, err := p.expect("Every", "No", "Some")
	if err != nil {
		return Sentence{}, err
	}
	subj, err := p.term()
	if err != nil {
		return Sentence{}, err
	}
	switch p.peek() {
	case "is":
		s := Sentence{Shape: Shape{Template: templateOf(S, detNumber[det])}, P: subj}
		s.Q, err = p.copula(det)
		return s, err
	case "who":
		p.i++
		return p.relative(det, subj)
	case "does":
		if det == "Some" {
			return p.transitive(det, subj)
		}
	default:
		if _, ok := p.lx.VerbByThird(p.peek()); ok {
			return p.transitive(det, subj)
		}
	}
	alts := `a verb in the third person` + p.thirdHint() + ` or "is" or "who"`
	if det == "Some" {
		alts += ` or "does"`
	}
	return Sentence{}, p.fail(alts)
}

// thirdHint names the third-person form when the current word is the base
// form of a verb, the most likely slip.
func (p *parser) thirdHint() string {
	if v, ok := p.lx.Verb(p.peek()); ok {
		return fmt.Sprintf(" (%s)", v.Third)
	}
	return ""
}

// term reads a noun in a determiner position: "p" or "non-p".
func (p *parser) term() (Term, error) {
	w, neg := strings.CutPrefix(p.peek(), "non-")
	if _, ok := p.lx.Noun(w); !ok {
		return Term{}, p.fail("a noun of the vocabulary, or non- and a noun")
	}
	p.i++
	return Term{Noun: w, Neg: neg}, nil
}

// articleNoun reads "a p" or "an p" with the article the noun takes.
func (p *parser) articleNoun() (string, error) {
	at := p.i
	art, err := p.expect("a", "an")
	if err != nil {
		return "", err
	}
	n, ok := p.lx.Noun(p.peek())
	if !ok {
		return "", p.fail("a noun of the vocabulary")
	}
	if n.Article != art {
		p.i = at
		return "", p.fail(fmt.Sprintf("%q before %q", n.Article, n.Word))
	}
	p.i++
	return n.Word, nil
}

// copula reads "is (not) a q" at the end of S, W and Z sentences; "not"
// is allowed only after a "Some" subject.
func (p *parser) copula(det string) (Term, error) {
	if _, err := p.expect("is"); err != nil {
		return Term{}, err
	}
	var q Term
	if det == "Some" {
		_, q.Neg = p.accept("not")
	}
	w, err := p.articleNoun()
	q.Noun = w
	return q, err
}

// verb reads a verb in the third person, or "does not" and its base form
// when negated, and returns the base form.
func (p *parser) verb(negated bool) (string, error) {
	if !negated {
		v, ok := p.lx.VerbByThird(p.peek())
		if !ok {
			return "", p.fail("a verb in the third person" + p.thirdHint())
		}
		p.i++
		return v.Base, nil
	}
	for _, w := range []string{"does", "not"} {
		if _, err := p.expect(w); err != nil {
			return "", err
		}
	}
	v, ok := p.lx.Verb(p.peek())
	if !ok {
		hint := ""
		if t, isThird := p.lx.VerbByThird(p.peek()); isThird {
			hint = fmt.Sprintf(" (%s)", t.Base)
		}
		return "", p.fail("a verb in the base form" + hint)
	}
	p.i++
	return v.Base, nil
}
