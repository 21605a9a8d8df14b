package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// solverOptions are the flags every labelling command shares.
type solverOptions struct {
	solver  *enumFlag
	timeout time.Duration
	jobs    int
	quiet   bool
}

func newSolverOptions(def string, allowNone bool) *solverOptions {
	names := []string{"native", "z3", "both"}
	if allowNone {
		names = append(names, "none")
	}
	return &solverOptions{solver: newEnum(def, names...)}
}

func (o *solverOptions) addFlags(cmd *cobra.Command) {
	help := "decision procedure: native (nlsat's own, complete; the default), z3 (libz3; may answer unknown), both (label only where native and z3 agree; stop on a disagreement)"
	if slices.Contains(o.solver.allowed, "none") {
		help += ", none (write label -1, no solver)"
	}
	cmd.Flags().Var(o.solver, "solver", help)
	cmd.Flags().DurationVar(&o.timeout, "timeout", 10*time.Second, "wall-clock limit per instance for z3 (native needs none); an instance that runs out is counted as unknown, never labelled")
	cmd.Flags().IntVarP(&o.jobs, "jobs", "j", 0, "parallel workers (0 = all cores); output is identical for any value")
	cmd.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "no progress or summary on stderr")
}

// backendFactory returns a constructor for one worker's backend (each z3
// worker owns its own context) and the name labels will carry.
func (o *solverOptions) backendFactory() (func() (solver.Backend, error), error) {
	mkZ3 := func() (solver.Backend, error) {
		b, err := z3.New(z3.Options{Timeout: o.timeout})
		if err != nil {
			return nil, fmt.Errorf("z3 backend: %w", err)
		}
		return b, nil
	}
	switch o.solver.value {
	case "native":
		return func() (solver.Backend, error) { return native.New(native.Options{}), nil }, nil
	case "z3":
		if !z3.Available() {
			return nil, usagef("--solver z3: this nlsat was built without Z3 (install libz3-dev and rebuild with make)")
		}
		return mkZ3, nil
	case "both":
		if !z3.Available() {
			return nil, usagef("--solver both: this nlsat was built without Z3 (install libz3-dev and rebuild with make)")
		}
		return func() (solver.Backend, error) {
			z, err := mkZ3()
			if err != nil {
				return nil, err
			}
			return &solver.Both{First: native.New(native.Options{}), Second: z}, nil
		}, nil
	}
	return nil, nil // "none"
}

// backends returns the factory of the workers' backends (nil for
// --solver none) and the name their labels carry ("none" without one).
func (o *solverOptions) backends() (func() (solver.Backend, error), string, error) {
	newBackend, err := o.backendFactory()
	if err != nil {
		return nil, "", err
	}
	if newBackend == nil {
		return nil, "none", nil
	}
	b, err := newBackend()
	if err != nil {
		return nil, "", err
	}
	defer solver.Close(b)
	return newBackend, b.Name(), nil
}

// logf returns a printer of "nlsat: " messages on stderr, silent with -q.
func (o *solverOptions) logf(s streams) func(format string, a ...any) {
	return func(format string, a ...any) {
		if !o.quiet {
			fmt.Fprintf(s.Err, "nlsat: "+format+"\n", a...)
		}
	}
}
