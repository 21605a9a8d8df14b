package fol

import (
	"io"
	"strings"
)

// infixSyntax is the table of symbols that distinguishes the infix
// printers (Unicode and ASCII text, LaTeX); the precedence rules are shared.
type infixSyntax struct {
	forall, exists string // quantifier symbol, written before the variable
	bodyOpen       string // written between the variable and the body
	not            string
	and, or, imp   string // binary connectives with their spacing
	pred, variable func(string) string
}

// Precedence levels: a sub-formula whose level is below what its position
// needs is parenthesised. Quantifiers bracket their own body, so they sit
// with atoms and negations at the top level.
const (
	precImp = iota + 1
	precOr
	precAnd
	precUnary
)

func infixPrec(f Formula) int {
	switch f.(type) {
	case *Implies:
		return precImp
	case *Or:
		return precOr
	case *And:
		return precAnd
	}
	return precUnary
}

// fprint validates f and writes it in one Write call.
func (s *infixSyntax) fprint(w io.Writer, f Formula) error {
	if err := Validate(f); err != nil {
		return err
	}
	_, err := io.WriteString(w, s.string(f))
	return err
}

// string renders f without validating it, so that malformed trees still
// print as something a reader can debug.
func (s *infixSyntax) string(f Formula) string {
	var b strings.Builder
	s.write(&b, f, precImp)
	return b.String()
}

func (s *infixSyntax) write(b *strings.Builder, f Formula, need int) {
	if infixPrec(f) < need {
		b.WriteString("(")
		defer b.WriteString(")")
	}
	switch g := f.(type) {
	case *Atom:
		s.writeAtom(b, g)
	case *Not:
		b.WriteString(s.not)
		s.write(b, g.F, precUnary)
	case *And:
		s.writeNary(b, g.Fs, s.and, precUnary)
	case *Or:
		s.writeNary(b, g.Fs, s.or, precAnd)
	case *Implies:
		s.write(b, g.L, precOr)
		b.WriteString(s.imp)
		s.write(b, g.R, precImp)
	case *Forall:
		s.writeQuant(b, s.forall, g.V, g.Body)
	case *Exists:
		s.writeQuant(b, s.exists, g.V, g.Body)
	default:
		b.WriteString("<nil>")
	}
}

func (s *infixSyntax) writeAtom(b *strings.Builder, a *Atom) {
	b.WriteString(s.pred(a.Pred))
	b.WriteString("(")
	for i, v := range a.Args {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(s.variable(string(v)))
	}
	b.WriteString(")")
}

func (s *infixSyntax) writeNary(b *strings.Builder, fs []Formula, op string, need int) {
	for i, h := range fs {
		if i > 0 {
			b.WriteString(op)
		}
		s.write(b, h, need)
	}
}

func (s *infixSyntax) writeQuant(b *strings.Builder, q string, v Var, body Formula) {
	b.WriteString(q)
	b.WriteString(s.variable(string(v)))
	b.WriteString(s.bodyOpen)
	s.write(b, body, precImp)
	b.WriteString(")")
}
