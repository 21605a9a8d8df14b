package phase

import (
	"context"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// estimates sweeps cfg in memory with the native solver on workers
// workers and fails the test on error.
func estimates(t *testing.T, cfg Config, workers int) []Estimate {
	t.Helper()
	cfg.Params = fragments.DefaultParams()
	if cfg.Band == (Band{}) {
		cfg.Band = PaperBand()
	}
	es, err := Estimates(context.Background(), cfg, RunOptions{Workers: workers,
		NewBackend: func() (solver.Backend, error) { return native.New(native.Options{}), nil }})
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
