package main

import (
	"context"
	"fmt"
	"io"

	"github.com/nlsat/nlsat/internal/cli"
	"github.com/spf13/cobra"
)

// streams are the standard streams a command uses, injected so that tests
// run commands in-process.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
}

// Exit codes and usage errors are internal/cli's, the same for every
// command.
const (
	exitOK, exitFailure, exitUsage, exitInterrupted = cli.ExitOK, cli.ExitFailure, cli.ExitUsage, cli.ExitInterrupted
	exitCodesHelp                                   = cli.ExitCodesHelp
)

// usageError marks an error caused by how the command was called or by bad
// input (cli.Usage); it exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }
func (usageError) Usage()          {}

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func newRootCmd(s streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "nlsat",
		Short: "Build natural-language satisfiability datasets",
		Long: `nlsat samples sets of controlled-English sentences from five fragments of
English (S ⊂ W ⊂ V ⊂ Z ⊂ A), decides whether each set is satisfiable with a
sound and complete procedure, and writes the labelled instances as JSONL.

` + exitCodesHelp,
		Version:          cli.Version(),
		SilenceUsage:     true,
		SilenceErrors:    true,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) { cli.WarnDeprecated(cmd, s.Err) },
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
	cli.AddQuiet(root)
	cli.Complete(root)
	return root
}

// run executes the command line and maps the outcome to an exit code.
func run(ctx context.Context, args []string, s streams) int {
	root := newRootCmd(s)
	root.SetArgs(args)
	return cli.Exit(ctx, s.Err, root.ExecuteContext(ctx))
}
