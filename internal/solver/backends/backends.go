// Package backends makes the decision procedures a command can label
// with, by name: native, z3, both (native and z3 must agree) or none.
package backends

import (
	"fmt"
	"time"

	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// Names lists the procedures, with "none" (no labels) when none is set.
func Names(none bool) []string {
	names := []string{"native", "z3", "both"}
	if none {
		names = append(names, "none")
	}
	return names
}

// Options are the procedures' settings.
type Options struct {
	// Timeout is z3's wall-clock limit per problem; native needs none.
	Timeout time.Duration
	// MaxMemory bounds the native decider's memory per problem (0: its
	// default); past it a problem is an error naming the budget.
	MaxMemory Memory
	// MaxNodes bounds the native decider's lazy search, past which it
	// decides by its one-shot encoding (0: its default).
	MaxNodes int
}

// Factory returns a constructor of one worker's backend of the named
// procedure (each z3 worker owns its own context), and the name its
// labels carry; "none" gives a nil constructor and the name "none". A
// procedure this build lacks (z3 without libz3) is an inputerr.Error.
func Factory(name string, o Options) (func() (solver.Backend, error), string, error) {
	newBackend, err := factory(name, o)
	if err != nil || newBackend == nil {
		return nil, "none", err
	}
	b, err := newBackend()
	if err != nil {
		return nil, "", err
	}
	defer solver.Close(b)
	return newBackend, b.Name(), nil
}

func factory(name string, o Options) (func() (solver.Backend, error), error) {
	nopts := native.Options{MaxMemory: int64(o.MaxMemory), MaxNodes: o.MaxNodes}
	newNative := func() (solver.Backend, error) { return native.New(nopts), nil }
	newZ3 := func() (solver.Backend, error) {
		b, err := z3.New(z3.Options{Timeout: o.Timeout})
		if err != nil {
			return nil, fmt.Errorf("z3 backend: %w", err)
		}
		return b, nil
	}
	if (name == "z3" || name == "both") && !z3.Available() {
		return nil, inputerr.Errorf("--solver %s: this nlsat was built without Z3 (install libz3-dev and rebuild with make)", name)
	}
	switch name {
	case "native":
		return newNative, nil
	case "z3":
		return newZ3, nil
	case "both":
		return func() (solver.Backend, error) {
			z, err := newZ3()
			if err != nil {
				return nil, err
			}
			return &solver.Both{First: native.New(nopts), Second: z}, nil
		}, nil
	case "none":
		return nil, nil
	}
	return nil, inputerr.Errorf("--solver %q is not one of native, z3, both, none", name)
}
