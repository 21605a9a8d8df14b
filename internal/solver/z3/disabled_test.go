//go:build !cgo || noz3

package z3

import (
	"context"
	"testing"

	"github.com/nlsat/nlsat/internal/solver"
)

func TestDisabled(t *testing.T) {
	if Available() {
		t.Fatal("Available: got true in a build without Z3")
	}
	be, err := New(Options{})
	want := "z3 support not built in (built with -tags noz3 or without cgo)"
	if be != nil || err == nil || err.Error() != want {
		t.Fatalf("New: got %v, %v; want nil, %q", be, err, want)
	}
	var b *Backend
	if _, err := b.Solve(context.Background(), &solver.Problem{}); err == nil {
		t.Errorf("Solve: got no error")
	}
}
