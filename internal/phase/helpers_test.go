package phase

import (
	"context"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// sweep runs a sweep with the native solver and fails the test on error.
func sweep(t *testing.T, cfg Config) []Estimate {
	t.Helper()
	cfg.Params = fragments.DefaultParams()
	if cfg.Band == (Band{}) {
		cfg.Band = PaperBand()
	}
	cfg.NewBackend = func() (solver.Backend, error) { return native.New(native.Options{}), nil }
	es, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// points returns the grid's points and fails the test on error.
func points(t *testing.T, f fragments.Fragment, g Grid) []Point {
	t.Helper()
	pts, _, err := g.Points(f, fragments.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	return pts
}
