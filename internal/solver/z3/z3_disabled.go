//go:build !cgo || noz3

package z3

import (
	"context"
	"errors"

	"github.com/nlsat/nlsat/internal/solver"
)

// errNotBuilt is what every entry point returns in a build without Z3.
var errNotBuilt = errors.New("z3 support not built in (built with -tags noz3 or without cgo)")

// Backend is a Z3 decision procedure. In this build Z3 is not linked in and
// no Backend can be made.
type Backend struct{}

var _ solver.Backend = (*Backend)(nil)

// New reports that Z3 support is not built in.
func New(o Options) (*Backend, error) { return nil, errNotBuilt }

// Close does nothing in a build without Z3.
func (b *Backend) Close() error { return nil }

// Name returns "z3" without a version, since no library is linked in.
func (b *Backend) Name() string { return "z3" }

// Solve reports that Z3 support is not built in.
func (b *Backend) Solve(ctx context.Context, p *solver.Problem) (solver.Result, error) {
	return solver.Result{}, errNotBuilt
}

// Reset reports that Z3 support is not built in.
func (b *Backend) Reset() error { return errNotBuilt }

// Version returns the empty string: no Z3 library is linked in.
func Version() string { return "" }

// Available reports whether Z3 support is built in; here it is not.
func Available() bool { return false }
