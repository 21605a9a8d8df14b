package fol

import (
	"fmt"
	"io"
	"strings"
)

// TPTPConfig prints formulas and problems in TPTP's first-order form (FOF),
// as E and Vampire read them: fof(s1, axiom, ! [X] : (artist(X) =>
// beekeeper(X))). Variables are upper-cased (x becomes X); the connectives
// are ~, &, |, => and the quantifiers ! [X] : and ? [X] :. TPTP does not
// let binary connectives mix without brackets, so every binary formula
// that is an operand of another connective or a quantifier body is
// parenthesised, and so is a quantified formula that is an operand of a
// binary connective other than the last. Names that are not TPTP lower words are single-quoted.
type TPTPConfig struct {
	// Names are the annotated-formula names, one per sentence; nil means
	// s1, …, sm.
	Names []string
	// Role is the role of every formula; empty means "axiom".
	Role string
}

var tptpRoles = map[string]bool{
	"axiom": true, "hypothesis": true, "definition": true, "assumption": true,
	"lemma": true, "theorem": true, "corollary": true, "conjecture": true,
	"negated_conjecture": true, "plain": true, "unknown": true,
}

// tptpWord writes s as a TPTP atomic word: as it is when it is a lower
// word ([a-z][A-Za-z0-9_]*), single-quoted otherwise.
func tptpWord(s string) string {
	lower := s != "" && s[0] >= 'a' && s[0] <= 'z'
	for i := 1; lower && i < len(s); i++ {
		c := s[i]
		lower = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
	}
	if lower {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	return "'" + r.Replace(s) + "'"
}

// Fprint writes f to w as a TPTP FOF formula (without the fof(…)
// wrapper); f must be well formed (see Validate).
func (TPTPConfig) Fprint(w io.Writer, f Formula) error {
	if err := Validate(f); err != nil {
		return err
	}
	var b strings.Builder
	writeTPTP(&b, f)
	_, err := io.WriteString(w, b.String())
	return err
}

// FprintProblem writes every sentence of fs as one fof(name, role,
// formula). line. It returns an error, and writes nothing, if a sentence
// is malformed or open, a predicate has two arities, the names are wrong
// in number or repeated, or the role is not a TPTP role.
func (c TPTPConfig) FprintProblem(w io.Writer, fs []Formula) error {
	if _, err := checkProblem(fs); err != nil {
		return err
	}
	role := c.Role
	if role == "" {
		role = "axiom"
	}
	if !tptpRoles[role] {
		return fmt.Errorf("unknown TPTP role %q", role)
	}
	names, err := problemNames(c.Names, len(fs))
	if err != nil {
		return err
	}
	var b strings.Builder
	for i, f := range fs {
		fmt.Fprintf(&b, "fof(%s, %s, ", tptpWord(names[i]), role)
		writeTPTP(&b, f)
		b.WriteString(").\n")
	}
	_, err = io.WriteString(w, b.String())
	return err
}

func writeTPTP(b *strings.Builder, f Formula) {
	switch g := f.(type) {
	case *Atom:
		b.WriteString(tptpWord(g.Pred) + "(")
		for i, v := range g.Args {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(strings.ToUpper(string(v)))
		}
		b.WriteString(")")
	case *Not:
		b.WriteString("~ ")
		writeTPTPUnit(b, g.F)
	case *And:
		writeTPTPBinary(b, " & ", g.Fs...)
	case *Or:
		writeTPTPBinary(b, " | ", g.Fs...)
	case *Implies:
		writeTPTPBinary(b, " => ", g.L, g.R)
	case *Forall:
		b.WriteString("! [" + strings.ToUpper(string(g.V)) + "] : ")
		writeTPTPUnit(b, g.Body)
	case *Exists:
		b.WriteString("? [" + strings.ToUpper(string(g.V)) + "] : ")
		writeTPTPUnit(b, g.Body)
	}
}

func writeTPTPBinary(b *strings.Builder, op string, fs ...Formula) {
	for i, h := range fs {
		if i > 0 {
			b.WriteString(op)
		}
		switch h.(type) {
		case *Forall, *Exists:
			if i == len(fs)-1 {
				writeTPTP(b, h)
				break
			}
			// Not needed by the grammar, where a quantifier takes the
			// smallest unit after it, but a reader may think it reaches
			// to the end.
			b.WriteString("(")
			writeTPTP(b, h)
			b.WriteString(")")
		default:
			writeTPTPUnit(b, h)
		}
	}
}

// writeTPTPUnit writes f as a TPTP unit formula, bracketing it when it is
// binary.
func writeTPTPUnit(b *strings.Builder, f Formula) {
	switch f.(type) {
	case *And, *Or, *Implies:
		b.WriteString("(")
		writeTPTP(b, f)
		b.WriteString(")")
	default:
		writeTPTP(b, f)
	}
}
