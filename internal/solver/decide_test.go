package solver

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

// resetCounter is a fakeBackend that counts its resets.
type resetCounter struct {
	fakeBackend
	resets int
}

func (r *resetCounter) Reset() error { r.resets++; return nil }

// unsatFirst answers its first problem Unsat and the others as
// fakeBackend does.
type unsatFirst struct {
	fakeBackend
}

func (u *unsatFirst) Solve(ctx context.Context, p *Problem) (Result, error) {
	if u.calls == 0 {
		u.calls++
		return Result{Status: Unsat}, nil
	}
	return u.fakeBackend.Solve(ctx, p)
}

func TestDecide(t *testing.T) {
	sat := []fol.Formula{lit(true, "p"), lit(false, "q")}
	unsat := []fol.Formula{lit(true, "q"), lit(true, "p"), lit(false, "p")}
	undecidedSubset := []fol.Formula{lit(true, "p"), lit(false, "p"), lit(true, "?")}
	tests := []struct {
		name    string
		b       Backend
		fs      []fol.Formula
		opt     DecideOptions
		status  Status
		reason  Reason
		mus     []int
		wantErr string
	}{
		{"sat", &fakeBackend{}, sat, DecideOptions{MUS: true}, Sat, NoReason, nil, ""},
		{"unsat with a MUS", &fakeBackend{cores: true}, unsat, DecideOptions{MUS: true}, Unsat, NoReason, []int{1, 2}, ""},
		{"unsat without a MUS", &fakeBackend{}, unsat, DecideOptions{}, Unsat, NoReason, nil, ""},
		{"unknown", &fakeBackend{}, []fol.Formula{lit(true, "?")}, DecideOptions{MUS: true}, Unknown, GaveUp, nil, ""},
		// The whole set is unsat, but the backend gives up on a subset
		// while shrinking it: no certificate, so no label.
		{"MUS undecided", &unsatFirst{}, undecidedSubset, DecideOptions{MUS: true}, Unknown, GaveUp, nil, ""},
		{"model that fails its check", &fakeBackend{liar: true}, sat, DecideOptions{}, Unknown, NoReason, nil, "does not satisfy sentence 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Decide(context.Background(), tt.b, tt.fs, tt.opt)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %+v, %v; want an error with %q", v, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.Status != tt.status || v.Reason != tt.reason || !slices.Equal(v.MUS, tt.mus) {
				t.Errorf("got %v (%v) MUS %v; want %v (%v) MUS %v", v.Status, v.Reason, v.MUS, tt.status, tt.reason, tt.mus)
			}
			if v.Status == Sat && CheckModel(&Problem{Sentences: tt.fs}, v.Model) != nil {
				t.Errorf("sat without a model that checks")
			}
		})
	}
}

func TestDecideResetsAndStopsOnCancel(t *testing.T) {
	b := &resetCounter{}
	for range 3 {
		if _, err := Decide(context.Background(), b, []fol.Formula{lit(true, "p")}, DecideOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if b.resets != 3 {
		t.Errorf("%d resets for 3 problems", b.resets)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v, err := Decide(ctx, &fakeBackend{}, []fol.Formula{lit(true, "p"), lit(false, "p")}, DecideOptions{MUS: true})
	if !errors.Is(err, context.Canceled) || v.Status != Unknown || v.Reason != Canceled {
		t.Errorf("canceled: got %+v, %v; want Unknown (canceled) and context.Canceled", v, err)
	}
}
