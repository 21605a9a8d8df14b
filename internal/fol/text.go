package fol

import "io"

// TextConfig selects the form of the toolkit's plain-text syntax.
//
// The Unicode form is the one the records' formulas field holds, e.g.
// ∀x(¬o(x) ∧ p(x) → ¬q(x)); the ASCII form has the same layout with
// forall/exists, ~, &, | and ->. Quantifier bodies are always parenthesised
// right after the variable. ¬ binds tightest, then ∧, then ∨, then →, which
// associates to the right; parentheses appear only where the tree needs
// them, so an → that is an operand of ∧, ∨ or ¬, or the left side of
// another →, is always parenthesised, and so is a conjunction nested
// directly in a conjunction (likewise for ∨), which Conj and Disj never
// build.
type TextConfig struct {
	// ASCII selects the ASCII form instead of the Unicode one.
	ASCII bool
}

var unicodeSyntax = &infixSyntax{
	forall: "∀", exists: "∃", bodyOpen: "(",
	not: "¬", and: " ∧ ", or: " ∨ ", imp: " → ",
	pred: identity, variable: identity,
}

var asciiSyntax = &infixSyntax{
	forall: "forall ", exists: "exists ", bodyOpen: "(",
	not: "~", and: " & ", or: " | ", imp: " -> ",
	pred: identity, variable: identity,
}

func identity(s string) string { return s }

func (c TextConfig) syntax() *infixSyntax {
	if c.ASCII {
		return asciiSyntax
	}
	return unicodeSyntax
}

// Fprint writes f to w. It returns an error, and writes nothing, if f is
// not well formed (see Validate).
func (c TextConfig) Fprint(w io.Writer, f Formula) error {
	return c.syntax().fprint(w, f)
}

// Fprint writes f to w in the Unicode text syntax.
func Fprint(w io.Writer, f Formula) error {
	return TextConfig{}.Fprint(w, f)
}

// String returns f in the Unicode text syntax. It does not validate f: a
// malformed tree prints as a best effort (nil nodes as <nil>) that Parse
// rejects.
func String(f Formula) string {
	return unicodeSyntax.string(f)
}

// ASCII returns f in the ASCII text syntax, without validating it, as
// String does.
func ASCII(f Formula) string {
	return asciiSyntax.string(f)
}
