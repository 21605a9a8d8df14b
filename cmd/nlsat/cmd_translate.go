package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

type translateOptions struct {
	format   *enumFlag
	fragment *enumFlag
	file     string
	out      string
	vocab    vocabFlag
}

func (o *translateOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Var(o.format, "format", "output syntax: text (Unicode), ascii (readable back by nlsat), latex, smtlib (one problem, every sentence :named), tptp (one FOF problem)")
	f.Var(o.fragment, "fragment", "also check that every sentence belongs to this fragment (S, W, V, Z or A)")
	f.StringVarP(&o.file, "file", "f", "", "read sentences from this file, running text (default: arguments, else stdin)")
	f.StringVarP(&o.out, "out", "o", "-", "output file (- for stdout); written atomically")
	o.vocab.addFlag(cmd)
}

func newTranslateCmd(s streams) *cobra.Command {
	o := &translateOptions{
		format:   newEnum("text", "text", "ascii", "latex", "smtlib", "tptp"),
		fragment: newFragmentEnum("", false),
	}
	cmd := &cobra.Command{
		Use:   "translate [sentence...]",
		Short: "Print the first-order formulas of English sentences",
		Long: `Translate parses sentences of the five fragments (arguments, --file, or
stdin; running text, split after each full stop) strictly (any word or
construction outside the grammar is an error naming the sentence and the
word) and prints their formulas. text, ascii and latex print one formula per
line; smtlib and tptp print the sentences as one problem, ready for a solver
or prover.

` + exitCodesHelp,
		Example: `  nlsat translate "Every scholar is a poet." "Some scholar does not love any musician."
  nlsat translate --format smtlib --file instance.txt | z3 -in
  echo "Every artist who admires some baker is a carpenter." | nlsat translate --fragment Z`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTranslate(o, args, s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

func runTranslate(o *translateOptions, args []string, s streams) error {
	lines, err := fragments.ReadInput(args, o.file, s.In)
	if err != nil {
		return usageError{err}
	}
	var frag *fragments.Fragment
	if o.fragment.value != "" {
		f, err := fragments.ParseFragment(o.fragment.value)
		if err != nil {
			return usageError{err}
		}
		frag = &f
	}
	lx, err := o.vocab.words()
	if err != nil {
		return err
	}
	sents, err := lx.ParseInput(lines, frag)
	if err != nil {
		return usageError{err}
	}
	fs := fragments.Formulas(sents)
	out, err := atomicfile.Create(o.out, s.Out)
	if err != nil {
		return usageError{err}
	}
	defer out.Abort()
	if err := printFormulas(out, o.format.value, fs); err != nil {
		return err
	}
	return out.Commit()
}

func printFormulas(w io.Writer, format string, fs []fol.Formula) error {
	switch format {
	case "smtlib":
		return fol.SMTLIBConfig{CheckSat: true}.FprintProblem(w, fs)
	case "tptp":
		return fol.TPTPConfig{}.FprintProblem(w, fs)
	}
	for _, f := range fs {
		var err error
		switch format {
		case "ascii":
			err = fol.TextConfig{ASCII: true}.Fprint(w, f)
		case "latex":
			err = fol.LaTeXConfig{}.Fprint(w, f)
		default:
			err = fol.Fprint(w, f)
		}
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}
