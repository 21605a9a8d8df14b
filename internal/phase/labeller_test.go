package phase

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/solver/solvertest"
)

// partial answers as the native decider does, except that it gives up
// (solvertest.GiveUp) on every problem that quits says it should, as
// the paper's Z3 left instances undecided.
type partial struct {
	quits func([]string) bool
	sure  solver.Backend
}

func (p partial) Name() string { return "partial" }
func (p partial) Solve(ctx context.Context, pr *solver.Problem) (solver.Result, error) {
	if p.quits(texts(pr)) {
		return solvertest.GiveUp(false).Solve(ctx, pr)
	}
	return p.sure.Solve(ctx, pr)
}

func texts(pr *solver.Problem) []string {
	var s []string
	for _, f := range pr.Sentences {
		s = append(s, fol.String(f))
	}
	return s
}

// TestLabellerDropsUnknowns sweeps with labellers that give up on none,
// some and all instances: every undecided instance must be counted in
// unknown and left out of P(sat), which is then the share of sat among
// the decided ones, and region.json must carry the labeller and each
// point's unknown count.
func TestLabellerDropsUnknowns(t *testing.T) {
	pts := points(t, fragments.V, Grid{N1: Range{4, 4}, N2: Range{4, 4}, M: &Range{6, 14}, MStep: 8})
	plan := Plan{Fragment: "V", Points: pts, Samples: 24, Band: Band{Lo: 0, Hi: 1}, Seed: 5,
		Sampler: fragments.DefaultSampler(), Solver: "paper", SolverName: "partial", Labeller: "paper: test"}
	truth := estimates(t, plan.Config(), 1)
	for _, tt := range []struct {
		name  string
		quits func([]string) bool
	}{
		{"none", func([]string) bool { return false }},
		{"long first sentence", func(s []string) bool { return len(s[0])%2 == 0 }},
		{"all", func([]string) bool { return true }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			err := Run(context.Background(), dir, []Plan{plan}, RunOptions{Workers: 2, Version: "test",
				NewBackend: func() (solver.Backend, error) {
					return partial{tt.quits, native.New(native.Options{})}, nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			got := readPointsFile(t, filepath.Join(dir, "points.csv"))
			cfg := plan.Config()
			for i, e := range got {
				want := Estimate{N: plan.Samples}
				for s := range plan.Samples {
					inst, err := Draw(cfg.Fragment, cfg.Params, plan.Seed, e.Point, s)
					if err != nil {
						t.Fatal(err)
					}
					var ss []string
					for _, f := range inst.Formulas() {
						ss = append(ss, fol.String(f))
					}
					if tt.quits(ss) {
						want.Unknown++
					}
				}
				if e.N != want.N || e.Unknown != want.Unknown || e.Sat+e.Unsat+e.Unknown != e.N ||
					e.Sat > truth[i].Sat || e.Unsat > truth[i].Unsat || (want.Unknown == 0 && e.Sat != truth[i].Sat) {
					t.Errorf("m=%d: got n %d sat %d unsat %d unknown %d; want n %d, unknown %d, sat ≤ %d, unsat ≤ %d",
						e.M, e.N, e.Sat, e.Unsat, e.Unknown, want.N, want.Unknown, truth[i].Sat, truth[i].Unsat)
				}
				if d := e.Sat + e.Unsat; d > 0 && math.Abs(e.P-float64(e.Sat)/float64(d)) > 1e-4 {
					t.Errorf("m=%d: P(sat) %v, want sat/decided %v", e.M, e.P, float64(e.Sat)/float64(d))
				}
			}
			f, err := os.Open(filepath.Join(dir, "region.json"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := ReadRegion(f)
			if tt.name == "all" {
				if err == nil {
					t.Errorf("all unknown: region has %d points, want none", len(r.Points))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Labeller != plan.Labeller {
				t.Errorf("region labeller %q, want %q", r.Labeller, plan.Labeller)
			}
			for i, p := range r.Points {
				if p.Unknown != got[i].Unknown {
					t.Errorf("region m=%d: unknown %d, want %d", p.M, p.Unknown, got[i].Unknown)
				}
			}
		})
	}
}

func readPointsFile(t *testing.T, path string) []Estimate {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	es, err := ReadPoints(f)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestPaperRegions checks the shipped paper bands: V, Z and A come from
// a paper-labeller sweep (their labeller says so, their points lie in the
// band by that labeller and are drawable with the default sampler); S and
// W, which Z3 decides, are their true regions.
func TestPaperRegions(t *testing.T) {
	for _, f := range fragments.All() {
		r, err := PaperRegion(f)
		if err != nil {
			t.Fatal(err)
		}
		if paper := f != fragments.S && f != fragments.W; paper != strings.HasPrefix(r.Labeller, "paper: one plain Z3") {
			t.Errorf("%s: labeller %q", f, r.Labeller)
		}
		p := fragments.DefaultParams()
		if r.FragmentOf() != f || len(r.Points) == 0 || r.Params != p.SamplerParams {
			t.Errorf("%s: region of %s with %d points, sampler %+v", f, r.FragmentOf(), len(r.Points), r.Params)
		}
		for _, pt := range r.Points {
			if !r.Band.Contains(pt.PSat) || pt.Unknown > pt.N {
				t.Errorf("%s: point %+v", f, pt)
			}
			if err := fragments.Validate(f, p, pt.M, pt.N1, pt.N2); err != nil {
				t.Errorf("%s: point %+v: %v", f, pt.Point, err)
			}
		}
	}
}
