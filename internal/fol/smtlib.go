package fol

import (
	"fmt"
	"io"
	"strings"
)

// SMTLIBConfig prints formulas and whole problems in SMT-LIB 2, as z3 and
// cvc5 read them: one uninterpreted sort, a Boolean function per
// predicate, quantifiers as (forall ((x U)) …) and implication as =>.
//
// A name that is an SMT-LIB reserved word or a theory symbol (and, not,
// let, true, distinct, …) cannot be declared even when quoted (cvc5 then
// reports that |and| shadows a theory symbol, and z3 reads |let| as let),
// so such a predicate or variable name n is written |n'|: the apostrophe
// cannot occur in a toolkit name, so the renaming is injective. Other names
// are written as they are.
type SMTLIBConfig struct {
	// Sort names the domain sort; empty means "U".
	Sort string
	// Logic is the argument of set-logic; empty means "UF", which both
	// z3 and cvc5 accept for quantified formulas over uninterpreted
	// functions.
	Logic string
	// Names are the assertion names, one per sentence; nil means s1, …, sm.
	Names []string
	// CheckSat appends (check-sat); GetModel and GetUnsatCore imply it.
	CheckSat bool
	// GetModel sets :produce-models and appends (get-model).
	GetModel bool
	// GetUnsatCore sets :produce-unsat-cores and appends (get-unsat-core).
	GetUnsatCore bool
}

// smtReserved holds the toolkit-valid names that SMT-LIB solvers refuse
// as user symbols: reserved words, command names, Core theory symbols and
// a few arithmetic and array symbols that clash under logics wider than UF.
var smtReserved = map[string]bool{
	"as": true, "let": true, "match": true, "par": true, "lambda": true,
	"assert": true, "echo": true, "exit": true, "pop": true, "push": true, "reset": true,
	"true": true, "false": true, "not": true, "and": true, "or": true, "xor": true,
	"distinct": true, "ite": true, "div": true, "mod": true, "abs": true,
	"to_real": true, "to_int": true, "is_int": true, "select": true, "store": true,
}

// SMTLIBSymbol returns the symbol under which SMTLIBConfig writes the
// predicate or variable name s: s itself, or |s'| when s is reserved in
// SMT-LIB. A backend that reads a model or core back from a solver uses
// it to map the solver's names to the toolkit's (the quotes are not part
// of the name a solver API reports, which is s').
func SMTLIBSymbol(s string) string { return smtSymbol(s) }

// smtSymbol writes a toolkit name (see IsIdent) as an SMT-LIB symbol.
func smtSymbol(s string) string {
	if smtReserved[s] {
		return "|" + s + "'|"
	}
	return s
}

// smtUserSymbol checks a name the caller chose (sort, assertion name) and
// returns it as an SMT-LIB symbol, quoted if it is not a simple symbol.
func smtUserSymbol(s string) (string, error) {
	switch {
	case s == "" || strings.ContainsAny(s, `|\`):
		return "", fmt.Errorf("%q cannot be an SMT-LIB symbol", s)
	case smtReserved[s] || s == "forall" || s == "exists" || s == "!" || s == "_":
		return "", fmt.Errorf("%q is reserved in SMT-LIB", s)
	case isSimpleSymbol(s):
		return s, nil
	}
	return "|" + s + "|", nil
}

func isSimpleSymbol(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.ContainsRune("~!@$%^&*_-+=<>.?/", c)
		if !ok {
			return false
		}
	}
	return true
}

func (c SMTLIBConfig) sort() (string, error) {
	switch c.Sort {
	case "":
		return "U", nil
	case "Bool", "Int", "Real", "String", "Array", "BitVec", "RegLan":
		return "", fmt.Errorf("sort %q is a built-in SMT-LIB sort", c.Sort)
	}
	return smtUserSymbol(c.Sort)
}

// Fprint writes f to w as one SMT-LIB term. Free variables are written as
// plain symbols; f must be well formed (see Validate).
func (c SMTLIBConfig) Fprint(w io.Writer, f Formula) error {
	if err := Validate(f); err != nil {
		return err
	}
	sort, err := c.sort()
	if err != nil {
		return err
	}
	var b strings.Builder
	writeSMT(&b, f, sort)
	_, err = io.WriteString(w, b.String())
	return err
}

func writeSMT(b *strings.Builder, f Formula, sort string) {
	switch g := f.(type) {
	case *Atom:
		b.WriteString("(" + smtSymbol(g.Pred))
		for _, v := range g.Args {
			b.WriteString(" " + smtSymbol(string(v)))
		}
		b.WriteString(")")
	case *Not:
		writeSMTApp(b, "not", sort, g.F)
	case *And:
		writeSMTApp(b, "and", sort, g.Fs...)
	case *Or:
		writeSMTApp(b, "or", sort, g.Fs...)
	case *Implies:
		writeSMTApp(b, "=>", sort, g.L, g.R)
	case *Forall:
		writeSMTQuant(b, "forall", g.V, sort, g.Body)
	case *Exists:
		writeSMTQuant(b, "exists", g.V, sort, g.Body)
	}
}

func writeSMTApp(b *strings.Builder, op, sort string, fs ...Formula) {
	b.WriteString("(" + op)
	for _, h := range fs {
		b.WriteString(" ")
		writeSMT(b, h, sort)
	}
	b.WriteString(")")
}

func writeSMTQuant(b *strings.Builder, q string, v Var, sort string, body Formula) {
	fmt.Fprintf(b, "(%s ((%s %s)) ", q, smtSymbol(string(v)), sort)
	writeSMT(b, body, sort)
	b.WriteString(")")
}
