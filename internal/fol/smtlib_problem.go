package fol

import (
	"fmt"
	"io"
	"strings"
)

// FprintProblem writes the sentences fs as a complete SMT-LIB script:
// the options that the requested commands need, (set-logic …),
// (declare-sort U 0), a declare-fun per predicate in name order, every
// sentence as (assert (! term :named name)), then (check-sat),
// (get-model) and (get-unsat-core) as configured. It returns an error,
// and writes nothing, if a sentence is malformed or open, a predicate has
// two arities, the names are wrong in number or repeated, or a predicate
// shares its name with a bound variable or an assertion name (SMT-LIB has
// one name space for all of them).
func (c SMTLIBConfig) FprintProblem(w io.Writer, fs []Formula) error {
	sig, err := checkProblem(fs)
	if err != nil {
		return err
	}
	sort, err := c.sort()
	if err != nil {
		return err
	}
	names, err := c.assertionNames(fs, sig)
	if err != nil {
		return err
	}
	if err := checkSMTVars(fs, sig); err != nil {
		return err
	}
	var b strings.Builder
	c.writeHeader(&b, sort, sig)
	for i, f := range fs {
		b.WriteString("(assert (! ")
		writeSMT(&b, f, sort)
		b.WriteString(" :named " + names[i] + "))\n")
	}
	c.writeCommands(&b)
	_, err = io.WriteString(w, b.String())
	return err
}

func (c SMTLIBConfig) writeHeader(b *strings.Builder, sort string, sig Signature) {
	if c.GetUnsatCore {
		b.WriteString("(set-option :produce-unsat-cores true)\n")
	}
	if c.GetModel {
		b.WriteString("(set-option :produce-models true)\n")
	}
	logic := c.Logic
	if logic == "" {
		logic = "UF"
	}
	fmt.Fprintf(b, "(set-logic %s)\n(declare-sort %s 0)\n", logic, sort)
	for _, p := range sortedNames(sig) {
		args := strings.TrimSpace(strings.Repeat(sort+" ", sig[p]))
		fmt.Fprintf(b, "(declare-fun %s (%s) Bool)\n", smtSymbol(p), args)
	}
}

func (c SMTLIBConfig) writeCommands(b *strings.Builder) {
	if c.CheckSat || c.GetModel || c.GetUnsatCore {
		b.WriteString("(check-sat)\n")
	}
	if c.GetModel {
		b.WriteString("(get-model)\n")
	}
	if c.GetUnsatCore {
		b.WriteString("(get-unsat-core)\n")
	}
}

// assertionNames returns the :named labels as SMT-LIB symbols.
func (c SMTLIBConfig) assertionNames(fs []Formula, sig Signature) ([]string, error) {
	names, err := problemNames(c.Names, len(fs))
	if err != nil {
		return nil, err
	}
	preds := map[string]bool{}
	for p := range sig {
		preds[smtSymbol(p)] = true
	}
	out := make([]string, len(names))
	for i, n := range names {
		if out[i], err = smtUserSymbol(n); err != nil {
			return nil, fmt.Errorf("assertion name: %w", err)
		}
		if preds[out[i]] {
			return nil, fmt.Errorf("assertion name %q is also a predicate", n)
		}
	}
	return out, nil
}

// checkSMTVars rejects a bound variable named like a predicate, which
// SMT-LIB would read as the predicate's name being shadowed.
func checkSMTVars(fs []Formula, sig Signature) error {
	var err error
	for _, f := range fs {
		Walk(f, func(g Formula) bool {
			var v Var
			switch q := g.(type) {
			case *Forall:
				v = q.V
			case *Exists:
				v = q.V
			}
			if _, clash := sig[string(v)]; clash && v != "" && err == nil {
				err = fmt.Errorf("variable %s is also a predicate name", v)
			}
			return err == nil
		})
	}
	return err
}
