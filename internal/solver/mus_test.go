package solver

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

// fakeBackend decides sets of "literal" sentences ∀x p(x) / ∀x ¬p(x): a set
// is unsat iff it holds both for some p. Sentences named "?" make it answer
// Unknown; liar makes it answer Sat with a model that does not check.
type fakeBackend struct {
	liar  bool
	calls int
	// cores makes Unsat answers carry the contradicting pair as a core;
	// badCore makes them carry the first sentence alone, which is sat.
	cores, badCore bool
}

func (f *fakeBackend) Name() string { return "fake" }

func (f *fakeBackend) Solve(_ context.Context, p *Problem) (Result, error) {
	f.calls++
	pos, neg := map[string]bool{}, map[string]bool{}
	for _, s := range p.Sentences {
		switch b := s.(*fol.Forall).Body.(type) {
		case *fol.Atom:
			if b.Pred == "?" {
				return Result{Status: Unknown, Reason: GaveUp}, nil
			}
			pos[b.Pred] = true
		case *fol.Not:
			neg[b.F.(*fol.Atom).Pred] = true
		}
	}
	for q := range pos {
		if neg[q] {
			res := Result{Status: Unsat}
			switch {
			case f.badCore:
				res.Core = []int{0}
			case f.cores:
				for i, s := range p.Sentences {
					if fol.String(s) == fol.String(lit(true, q)) || fol.String(s) == fol.String(lit(false, q)) {
						res.Core = append(res.Core, i)
					}
				}
			}
			return res, nil
		}
	}
	sig, _ := fol.SignatureOf(p.Sentences...)
	m := fol.NewStructure(1, sig)
	for q := range pos {
		m.Unary[q][0] = !f.liar
	}
	return Result{Status: Sat, Model: m}, nil
}

func lit(pos bool, p string) fol.Formula {
	return &fol.Forall{V: "x", Body: fol.Lit(pos, fol.Unary(p, "x"))}
}

func TestMinimalCore(t *testing.T) {
	// Sentences 1 and 3 (p, ¬p) are the only MUS: 4 and 5 are r, ¬q.
	fs := []fol.Formula{lit(true, "q"), lit(true, "p"), lit(true, "r"), lit(false, "p"), lit(false, "s")}
	tests := []struct {
		name    string
		b       Backend
		fs      []fol.Formula
		core    []int
		want    []int
		wantErr string
	}{
		{"from all", &fakeBackend{}, fs, nil, []int{1, 3}, ""},
		{"from a core", &fakeBackend{}, fs, []int{3, 1, 2}, []int{1, 3}, ""},
		{"sat core", &fakeBackend{}, fs, []int{0, 1}, nil, "not unsat"},
		{"unknown", &fakeBackend{}, append(slices.Clone(fs), lit(true, "?")), nil, nil, "unknown"},
		{"model fails", &fakeBackend{liar: true}, fs, nil, nil, "model"},
		{"with cores", &fakeBackend{cores: true}, fs, nil, []int{1, 3}, ""},
		{"wrong core", &fakeBackend{badCore: true}, fs, nil, nil, "not unsat"},
	}
	for _, tc := range tests {
		got, err := MinimalCore(context.Background(), tc.b, &Problem{Sentences: tc.fs}, tc.core)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: got %v, %v; want an error containing %q", tc.name, got, err, tc.wantErr)
			}
			if undecided := errors.Is(err, ErrUndecided); undecided != (tc.wantErr == "unknown") {
				t.Errorf("%s: errors.Is(err, ErrUndecided) = %v", tc.name, undecided)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestMinimalCoreCalls counts solver calls: certification reuses the models
// found while deleting, and a core cuts the deletion short.
func TestMinimalCoreCalls(t *testing.T) {
	fs := []fol.Formula{lit(true, "q"), lit(true, "p"), lit(true, "r"), lit(false, "p"), lit(false, "s"), lit(true, "t"), lit(false, "u")}
	for _, tc := range []struct {
		name string
		b    *fakeBackend
		max  int
	}{
		{"deletion", &fakeBackend{}, len(fs)},
		{"cores", &fakeBackend{cores: true}, 4},
	} {
		got, err := MinimalCore(context.Background(), tc.b, &Problem{Sentences: fs}, nil)
		if err != nil || !slices.Equal(got, []int{1, 3}) {
			t.Fatalf("%s: got %v, %v", tc.name, got, err)
		}
		if tc.b.calls > tc.max {
			t.Errorf("%s: %d solver calls, want at most %d", tc.name, tc.b.calls, tc.max)
		}
	}
}

// finder is a fakeBackend that is a CoreFinder returning a fixed core.
type finder struct {
	fakeBackend
	core []int
}

func (f *finder) FindCore(_ context.Context, _ *Problem, _ []int) ([]int, error) {
	return f.core, nil
}

// TestCoreFinder checks that MinimalCore starts from the backend's
// FindCore (so deletes within it) and still certifies what it returns.
func TestCoreFinder(t *testing.T) {
	fs := []fol.Formula{lit(true, "q"), lit(true, "p"), lit(true, "r"), lit(false, "p"), lit(false, "s"), lit(true, "t"), lit(false, "u")}
	good := &finder{core: []int{1, 3}}
	got, err := MinimalCore(context.Background(), good, &Problem{Sentences: fs}, nil)
	if err != nil || !slices.Equal(got, []int{1, 3}) || good.calls > 3 {
		t.Errorf("good core: got %v, %v after %d calls; want [1 3] after at most 3", got, err, good.calls)
	}
	bad := &finder{core: []int{0, 1}}
	if got, err := MinimalCore(context.Background(), bad, &Problem{Sentences: fs}, nil); err == nil || !strings.Contains(err.Error(), "not unsat") {
		t.Errorf("a satisfiable core: got %v, %v; want a certification error", got, err)
	}
}
