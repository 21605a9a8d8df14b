package fol

import "fmt"

// maxDepth bounds the nesting of parentheses, negations and quantifiers
// that Parse accepts, so that hostile input cannot exhaust the stack.
const maxDepth = 1000

// Parse reads a formula in the toolkit's text syntax. It accepts the
// Unicode and the ASCII forms, mixed freely, with any white space between
// tokens: ∀ or forall, ∃ or exists, ¬ or ~, ∧ or &, ∨ or |, → or ->.
// Precedence is as the printers assume (¬ tightest, then ∧, ∨, and a
// right-associative →); a quantifier takes the smallest formula that
// follows it (an atom, a negation, a quantification or a parenthesised
// formula), which the printers always parenthesise. Conjunctions and
// disjunctions come out flattened, as Conj and Disj build them. Parse
// accepts open formulas and does not check arities; a *SyntaxError names
// the position of the first problem.
func Parse(s string) (Formula, error) {
	p := &parser{src: s}
	if err := p.next(); err != nil {
		return nil, err
	}
	f, err := p.formula()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		return nil, p.errorf("expected a connective or end of input, found %s", p.tok.describe())
	}
	return f, nil
}

// ParseSentence is Parse for sentences: it also requires f to be closed,
// every predicate to be used with one arity only, and every arity to be 1
// or 2, as the rest of the toolkit assumes.
func ParseSentence(s string) (Formula, error) {
	f, err := Parse(s)
	if err != nil {
		return nil, err
	}
	if free := FreeVars(f); len(free) > 0 {
		return nil, fmt.Errorf("free variable %s in a sentence", free[0])
	}
	sig, err := SignatureOf(f)
	if err != nil {
		return nil, fmt.Errorf("inconsistent signature: %w", err)
	}
	for _, name := range sortedNames(sig) {
		if k := sig[name]; k != 1 && k != 2 {
			return nil, fmt.Errorf("predicate %s has arity %d; only 1 and 2 are supported", name, k)
		}
	}
	return f, nil
}

type parser struct {
	src   string
	tok   token
	depth int
}

func (p *parser) next() error {
	t, err := lex(p.src, p.tok.off+len(p.tok.text))
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

func (p *parser) errorf(format string, args ...any) error {
	return newSyntaxError(p.src, p.tok.off, format, args...)
}

// formula parses an implication chain, associating to the right.
func (p *parser) formula() (Formula, error) {
	l, err := p.nary(tokOr)
	if err != nil || p.tok.kind != tokImp {
		return l, err
	}
	if err := p.next(); err != nil {
		return nil, err
	}
	r, err := p.formula()
	if err != nil {
		return nil, err
	}
	return &Implies{L: l, R: r}, nil
}

// nary parses operands separated by op (tokOr or tokAnd) and combines them
// as Disj or Conj do.
func (p *parser) nary(op tokKind) (Formula, error) {
	var fs []Formula
	for {
		var f Formula
		var err error
		if op == tokOr {
			f, err = p.nary(tokAnd)
		} else {
			f, err = p.unary()
		}
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
		if p.tok.kind != op {
			break
		}
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	if op == tokOr {
		return Disj(fs...), nil
	}
	return Conj(fs...), nil
}

// unary parses an atom, a negation, a quantification or a parenthesised
// formula.
func (p *parser) unary() (Formula, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, p.errorf("formula nested more than %d deep", maxDepth)
	}
	defer func() { p.depth-- }()
	switch t := p.tok; t.kind {
	case tokNot:
		if err := p.next(); err != nil {
			return nil, err
		}
		f, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &Not{F: f}, nil
	case tokForall, tokExists:
		return p.quant(t)
	case tokLParen:
		return p.group()
	case tokIdent:
		return p.atom()
	}
	return nil, p.errorf("expected a formula, found %s", p.tok.describe())
}

func (p *parser) quant(q token) (Formula, error) {
	if err := p.next(); err != nil {
		return nil, err
	}
	if p.tok.kind != tokIdent {
		return nil, p.errorf("expected a variable after %q, found %s", q.text, p.tok.describe())
	}
	v := Var(p.tok.text)
	if err := p.next(); err != nil {
		return nil, err
	}
	body, err := p.unary()
	if err != nil {
		return nil, err
	}
	if q.kind == tokForall {
		return &Forall{V: v, Body: body}, nil
	}
	return &Exists{V: v, Body: body}, nil
}

func (p *parser) group() (Formula, error) {
	open := p.tok
	if err := p.next(); err != nil {
		return nil, err
	}
	f, err := p.formula()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokRParen {
		return nil, p.errorf("expected \")\" to close \"(\" at column %d, found %s",
			newSyntaxError(p.src, open.off, "").Column, p.tok.describe())
	}
	return f, p.next()
}

func (p *parser) atom() (Formula, error) {
	name := p.tok.text
	if err := p.next(); err != nil {
		return nil, err
	}
	if p.tok.kind != tokLParen {
		return nil, p.errorf("expected \"(\" after predicate %s, found %s", name, p.tok.describe())
	}
	a := &Atom{Pred: name}
	for {
		if err := p.next(); err != nil {
			return nil, err
		}
		if p.tok.kind != tokIdent {
			return nil, p.errorf("expected a variable in the arguments of %s, found %s", name, p.tok.describe())
		}
		a.Args = append(a.Args, Var(p.tok.text))
		if err := p.next(); err != nil {
			return nil, err
		}
		switch p.tok.kind {
		case tokComma:
			continue
		case tokRParen:
			return a, p.next()
		}
		return nil, p.errorf("expected \")\" after arguments of %s, found %s", name, p.tok.describe())
	}
}
