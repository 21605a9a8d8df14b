package proof

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// ParseConclusion reads the English of a conclusion back to its formula:
// the inverse of Render, and a sentence of the fragments, which Render
// writes for a universal statement of one or two conditions. It is
// lenient where a reader would be: white space, the case of the first
// word, "a" for "an", and the final full stop do not matter. Nouns and
// verbs must be lx's.
func ParseConclusion(lx *fragments.Lexicon, english string) (fol.Formula, error) {
	text := strings.Join(strings.Fields(english), " ")
	if text == "" {
		return nil, errors.New("no English")
	}
	if !strings.HasSuffix(text, ".") {
		text += "."
	}
	if s, err := lx.Parse(text); err == nil {
		return s.Formula(), nil
	} else if !strings.HasPrefix(text, "#") && !hasWords(text, "no one", "everyone", "who") {
		return nil, err
	}
	p := &concParser{lx: lx, words: strings.Fields(strings.TrimSuffix(text, "."))}
	f, err := p.conclusion()
	if err == nil && p.i < len(p.words) {
		err = p.fail("the end")
	}
	if err != nil {
		return nil, fmt.Errorf("%q: %w", english, err)
	}
	return f, nil
}

// hasWords reports whether text starts with one of the phrases, or for
// "who" has it anywhere, ignoring case.
func hasWords(text string, phrases ...string) bool {
	low := strings.ToLower(text)
	for _, ph := range phrases {
		if strings.HasPrefix(low, ph+" ") || (ph == "who" && strings.Contains(low, " who ")) {
			return true
		}
	}
	return false
}

// concParser reads the forms renderUniversal and renderFact write, word
// by word.
type concParser struct {
	lx    *fragments.Lexicon
	words []string
	i     int
}

func (p *concParser) peek() string {
	if p.i < len(p.words) {
		return strings.ToLower(p.words[p.i])
	}
	return ""
}

// accept takes the next words if they are ws, ignoring case.
func (p *concParser) accept(ws ...string) bool {
	for k, w := range ws {
		if p.i+k >= len(p.words) || !strings.EqualFold(p.words[p.i+k], w) {
			return false
		}
	}
	p.i += len(ws)
	return true
}

func (p *concParser) fail(want string) error {
	if p.i >= len(p.words) {
		return fmt.Errorf("expected %s at the end", want)
	}
	return fmt.Errorf("expected %s at word %d %q", want, p.i+1, p.words[p.i])
}

func (p *concParser) conclusion() (fol.Formula, error) {
	switch {
	case p.accept("everyone", "is"), p.accept("no", "one", "is"):
		neg := strings.EqualFold(p.words[0], "no")
		n, err := p.article()
		return &fol.Forall{V: varX, Body: fol.Lit(!neg, fol.Unary(n, varX))}, err
	case p.accept("every"), p.accept("no"):
		return p.universal(strings.EqualFold(p.words[0], "no"))
	}
	var fs []fol.Formula
	for {
		f, err := p.fact()
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
		if !p.accept("and") {
			return fol.Conj(fs...), nil
		}
	}
}

// universal reads "[non-]p who is (not) a q and … is a h" after "Every"
// or "No".
func (p *concParser) universal(neg bool) (fol.Formula, error) {
	first, err := p.term()
	if err != nil {
		return nil, err
	}
	body := []fol.Formula{first}
	if !p.accept("who") {
		return nil, p.fail(`"who"`)
	}
	for {
		if !p.accept("is") {
			return nil, p.fail(`"is"`)
		}
		not := p.accept("not")
		n, err := p.article()
		if err != nil {
			return nil, err
		}
		body = append(body, fol.Lit(!not, fol.Unary(n, varX)))
		if !p.accept("and") {
			break
		}
	}
	if !p.accept("is") {
		return nil, p.fail(`"is"`)
	}
	h, err := p.article()
	if err != nil {
		return nil, err
	}
	return &fol.Forall{V: varX, Body: &fol.Implies{L: fol.Conj(body...), R: fol.Lit(!neg, fol.Unary(h, varX))}}, nil
}

// term reads "p" or "non-p" as a literal about x.
func (p *concParser) term() (fol.Formula, error) {
	w := p.peek()
	noun, non := strings.CutPrefix(w, "non-")
	if _, ok := p.lx.Noun(noun); !ok {
		return nil, p.fail("a noun")
	}
	p.i++
	return fol.Lit(!non, fol.Unary(noun, varX)), nil
}

// article reads "a p" or "an p", p a noun of the lexicon.
func (p *concParser) article() (string, error) {
	if !p.accept("a") && !p.accept("an") {
		return "", p.fail(`"a" or "an"`)
	}
	n := p.peek()
	if _, ok := p.lx.Noun(n); !ok {
		return "", p.fail("a noun")
	}
	p.i++
	return n, nil
}

// individual reads "#k".
func (p *concParser) individual() (fol.Var, bool) {
	s, ok := strings.CutPrefix(p.peek(), "#")
	k, err := strconv.Atoi(s)
	if !ok || err != nil || k < 1 || strconv.Itoa(k) != s {
		return "", false
	}
	p.i++
	return individual(k), true
}

// fact reads one of the facts renderFact writes.
func (p *concParser) fact() (fol.Formula, error) {
	c, ok := p.individual()
	if !ok {
		return nil, p.fail("#1, #2, …")
	}
	if p.accept("is") {
		not := p.accept("not")
		n, err := p.article()
		return fol.Lit(!not, fol.Unary(n, c)), err
	}
	not := p.accept("does", "not")
	verb, ok := p.verb(not)
	if !ok {
		return nil, p.fail("a verb")
	}
	if d, ok := p.individual(); ok {
		return fol.Lit(!not, fol.Binary(verb, c, d)), nil
	}
	var univ bool
	switch {
	case !not && p.accept("every"), not && p.accept("any"):
		univ = true
	case !not && p.accept("some"), not && p.accept("every"):
	default:
		return nil, p.fail(`"every", "some", "any" or #k`)
	}
	restr, err := p.object(c)
	if err != nil {
		return nil, err
	}
	r := fol.Lit(!not, fol.Binary(verb, c, varY))
	if univ {
		return &fol.Forall{V: varY, Body: &fol.Implies{L: fol.Conj(restr...), R: r}}, nil
	}
	return &fol.Exists{V: varY, Body: fol.Conj(append(restr, r)...)}, nil
}

// verb reads a verb of the lexicon: its base form after "does not", its
// third-person form otherwise.
func (p *concParser) verb(base bool) (string, bool) {
	w := p.peek()
	if base {
		if _, ok := p.lx.Verb(w); !ok {
			return "", false
		}
		p.i++
		return w, true
	}
	v, ok := p.lx.VerbByThird(w)
	if ok {
		p.i++
	}
	return v.Base, ok
}

// object reads "[non-]p", then in A "who s's him" or "who does not s
// him", as the restriction on y of a fact about c.
func (p *concParser) object(c fol.Var) ([]fol.Formula, error) {
	t, err := p.term()
	if err != nil {
		return nil, err
	}
	restr := []fol.Formula{subst(t, varX, varY)}
	if !p.accept("who") {
		return restr, nil
	}
	not := p.accept("does", "not")
	s, ok := p.verb(not)
	if !ok {
		return nil, p.fail("a verb")
	}
	if !p.accept("him") {
		return nil, p.fail(`"him"`)
	}
	return append(restr, fol.Lit(!not, fol.Binary(s, varY, c))), nil
}
