package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/version"
	"github.com/spf13/cobra"
)

// streams are the standard streams a command uses, injected so that tests
// run commands in-process.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
}

// Exit codes, the same for every command.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130
)

const exitCodesHelp = `Exit status: 0 success, 1 failure, 2 usage error (bad flag, argument or
input), 130 interrupted.`

// usageError marks an error caused by how the command was called or by bad
// input; it exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func newRootCmd(s streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "nlsat",
		Short: "Build natural-language satisfiability datasets",
		Long: `nlsat samples sets of controlled-English sentences from five fragments of
English (S ⊂ W ⊂ V ⊂ Z ⊂ A), decides whether each set is satisfiable with a
sound and complete procedure, and writes the labelled instances as JSONL.

` + exitCodesHelp,
		Version:       version.Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newGenerateCmd(s),
		newTranslateCmd(s),
		newSolveCmd(s),
		newLabelCmd(s),
		newCrosscheckCmd(s),
		newPhaseSweepCmd(s),
		newPlotCmd(s),
		newSplitCmd(s),
		newStatsCmd(s),
		newPromptCmd(s),
		newEvalCmd(s),
		newMergeCmd(s),
		newPairsCmd(s),
		newDistractCmd(s),
		newAuditCmd(s),
		newVocabCmd(s),
	)
	return root
}

// run executes the command line and maps the outcome to an exit code.
func run(ctx context.Context, args []string, s streams) int {
	root := newRootCmd(s)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ue usageError
	var ie *dataset.InputError
	switch {
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		fmt.Fprintln(s.Err, "nlsat: interrupted; no finished output was written")
		return exitInterrupted
	case errors.As(err, &ue) || errors.As(err, &ie) || isCobraUsage(err):
		fmt.Fprintf(s.Err, "nlsat: %v\n", err)
		return exitUsage
	default:
		fmt.Fprintf(s.Err, "nlsat: %v\n", err)
		return exitFailure
	}
}

// isCobraUsage recognises cobra's own argument errors, which it does not
// type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "invalid argument", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
