package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/backends"
)

// defaultTimeout is every command's default --timeout.
const defaultTimeout = 10 * time.Second

// solverOptions are the flags every labelling command shares.
type solverOptions struct {
	solver    *enumFlag
	timeout   time.Duration
	maxMemory backends.Memory
	maxNodes  int
	jobs      int
	quiet     bool
	records   outputFlags // of the commands that write records
}

func newSolverOptions(def string, allowNone bool) *solverOptions {
	return &solverOptions{solver: newEnum(def, backends.Names(allowNone)...), maxMemory: backends.DefaultMaxMemory}
}

func (o *solverOptions) addFlags(cmd *cobra.Command) {
	help := "decision procedure: native (nlsat's own, complete; the default), z3 (libz3; may answer unknown), both (label only where native and z3 agree; stop on a disagreement)"
	if slices.Contains(o.solver.allowed, "none") {
		help += ", none (write label -1, no solver)"
	}
	cmd.Flags().Var(o.solver, "solver", help)
	cmd.Flags().DurationVar(&o.timeout, "timeout", defaultTimeout, "wall-clock limit per instance for z3 (native needs none); an instance that runs out is counted as unknown, never labelled")
	cmd.Flags().Var(&o.maxMemory, "max-memory", "memory budget of the native decider per instance and worker (e.g. 512MB, 4GiB); an instance that needs more is an error naming it, never a crash")
	cmd.Flags().IntVar(&o.maxNodes, "max-nodes", 0, "node budget of the native decider's search before its one-shot encoding takes over (0: the default, 20000); for testing every path")
	cmd.Flags().MarkHidden("max-nodes")
	cmd.Flags().IntVarP(&o.jobs, "jobs", "j", 0, "parallel workers (0 = all cores); output is identical for any value")
	cmd.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "no progress or summary on stderr")
}

// backends returns the factory of the workers' backends (nil for
// --solver none) and the name their labels carry ("none" without one).
func (o *solverOptions) backends() (func() (solver.Backend, error), string, error) {
	return backends.Factory(o.solver.value, backends.Options{Timeout: o.timeout, MaxMemory: o.maxMemory, MaxNodes: o.maxNodes})
}

// logf returns a printer of "nlsat: " messages on stderr, silent with -q.
func (o *solverOptions) logf(s streams) func(format string, a ...any) {
	return func(format string, a ...any) {
		if !o.quiet {
			fmt.Fprintf(s.Err, "nlsat: "+format+"\n", a...)
		}
	}
}
