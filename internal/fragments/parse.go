package fragments

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Parse reads one sentence of any fragment with the built-in vocabulary;
// see Lexicon.Parse.
func Parse(sentence string) (Sentence, error) { return Default().Parse(sentence) }

// Parse reads one sentence of any fragment back into its template,
// variant, polarities and words. It is strict: only the exact surface form
// English renders is accepted (capitalised determiner, single spaces, full
// stop, matching articles, words of lx). An error names the sentence, the
// word (counting from 1) where it went wrong, and what was expected there.
func (lx *Lexicon) Parse(sentence string) (Sentence, error) {
	body, ok := strings.CutSuffix(sentence, ".")
	if !ok {
		return Sentence{}, fmt.Errorf("%q: missing full stop at the end", sentence)
	}
	p := &parser{lx: lx, src: sentence, toks: strings.Split(body, " ")}
	for i, t := range p.toks {
		if t == "" {
			p.i = i
			return Sentence{}, p.fail("a word (words are separated by single spaces)")
		}
	}
	s, err := p.sentence()
	if err != nil {
		return Sentence{}, err
	}
	if p.i < len(p.toks) {
		return Sentence{}, p.fail("the end of the sentence")
	}
	return s, nil
}

// ParseLines reads one sentence per line from r, skipping empty lines. An
// error names the line.
func ParseLines(r io.Reader) ([]Sentence, error) { return Default().ParseLines(r) }

// ParseLines reads one sentence per line from r with lx, skipping empty
// lines. An error names the line.
func (lx *Lexicon) ParseLines(r io.Reader) ([]Sentence, error) {
	var out []Sentence
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		if sc.Text() == "" {
			continue
		}
		s, err := lx.Parse(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading sentences: %w", err)
	}
	return out, nil
}

// ParseText reads an instance's text (sentences joined by single spaces,
// as Instance.Text writes it) with the built-in vocabulary.
func ParseText(text string) ([]Sentence, error) { return Default().ParseText(text) }

// ParseText reads an instance's text (sentences joined by single spaces)
// with lx. An error names the sentence's position in the text.
func (lx *Lexicon) ParseText(text string) ([]Sentence, error) {
	var out []Sentence
	for i, part := range strings.SplitAfter(text, ". ") {
		s, err := lx.Parse(strings.TrimSuffix(part, " "))
		if err != nil {
			return nil, fmt.Errorf("sentence %d: %w", i+1, err)
		}
		out = append(out, s)
	}
	return out, nil
}

type parser struct {
	lx   *Lexicon
	src  string
	toks []string
	i    int
}

// fail reports that the current word is not what was expected.
func (p *parser) fail(expected string) error {
	if p.i >= len(p.toks) {
		return fmt.Errorf("%q: word %d: sentence ends early: expected %s", p.src, p.i+1, expected)
	}
	return fmt.Errorf("%q: word %d %q: expected %s", p.src, p.i+1, p.toks[p.i], expected)
}

func (p *parser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

// accept consumes the current word if it is one of ws and returns it.
func (p *parser) accept(ws ...string) (string, bool) {
	t := p.peek()
	for _, w := range ws {
		if t == w && t != "" {
			p.i++
			return t, true
		}
	}
	return "", false
}

// expect consumes one of ws or fails listing them.
func (p *parser) expect(ws ...string) (string, error) {
	if w, ok := p.accept(ws...); ok {
		return w, nil
	}
	return "", p.fail(quoteAlternatives(ws))
}

func quoteAlternatives(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, " or ")
}
