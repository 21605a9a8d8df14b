package fol

import (
	"io"
	"strings"
)

// LaTeXConfig prints formulas as LaTeX math-mode source, e.g.
// \forall x\,(\mathit{artist}(x) \rightarrow \mathit{beekeeper}(x)), with
// \neg, \land, \lor and \exists, under the same precedence and
// parenthesisation rules as the text syntax. Predicate names, and variable
// names longer than one letter, are set in \mathit with underscores escaped.
// The output is meant for reading, not for parsing back.
type LaTeXConfig struct{}

var latexSyntax = &infixSyntax{
	forall: `\forall `, exists: `\exists `, bodyOpen: `\,(`,
	not: `\neg `, and: ` \land `, or: ` \lor `, imp: ` \rightarrow `,
	pred: latexName, variable: latexVar,
}

func latexName(s string) string {
	return `\mathit{` + strings.ReplaceAll(s, "_", `\_`) + "}"
}

func latexVar(s string) string {
	if len(s) == 1 {
		return s
	}
	return latexName(s)
}

// Fprint writes f to w as LaTeX. It returns an error, and writes nothing,
// if f is not well formed (see Validate).
func (LaTeXConfig) Fprint(w io.Writer, f Formula) error {
	return latexSyntax.fprint(w, f)
}

// FprintLaTeX writes f to w as LaTeX with the default configuration.
func FprintLaTeX(w io.Writer, f Formula) error {
	return LaTeXConfig{}.Fprint(w, f)
}
