package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/nlsat/nlsat/internal/cli"
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
	// Flag descriptions wrapped to the terminal, not one line each.
	tmpl := strings.ReplaceAll(root.UsageTemplate(), ".LocalFlags.FlagUsages", "wrappedFlags .LocalFlags")
	root.SetUsageTemplate(strings.ReplaceAll(tmpl, ".InheritedFlags.FlagUsages", "wrappedFlags .InheritedFlags"))
	return root
}

func init() {
	cobra.AddTemplateFunc("wrappedFlags", wrappedFlags)
}

// wrappedFlags is the help of fs's flags wrapped to helpWidth, without
// the padding pflag leaves at the end of lines.
func wrappedFlags(fs *pflag.FlagSet) string {
	lines := strings.Split(fs.FlagUsagesWrapped(helpWidth()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// helpWidth is the width flag help is wrapped to: the terminal's, if
// standard output is one, else 80 columns.
var helpWidth = func() int {
	if cols, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && cols >= 40 {
		return cols
	}
	return 80
}

// run executes the command line and maps the outcome to an exit code.
func run(ctx context.Context, args []string, s streams) int {
	root := newRootCmd(s)
	root.SetArgs(args)
	return cli.Exit(ctx, s.Err, root.ExecuteContext(ctx))
}
