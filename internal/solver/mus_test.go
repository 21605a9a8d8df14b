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
			return Result{Status: Unsat}, nil
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
