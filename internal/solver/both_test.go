package solver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

// scripted is a backend that returns a fixed result.
type scripted struct {
	name string
	res  Result
}

func (s scripted) Name() string { return s.name }
func (s scripted) Solve(context.Context, *Problem) (Result, error) {
	return s.res, nil
}

func TestBoth(t *testing.T) {
	model := fol.NewStructure(1, nil)
	sat := Result{Status: Sat, Model: model}
	unsat := Result{Status: Unsat, Core: []int{0, 1, 2}}
	small := Result{Status: Unsat, Core: []int{1}}
	timeout := Result{Reason: Timeout, Detail: "timeout"}
	tests := []struct {
		name     string
		a, b     Result
		want     Status
		reason   Reason
		core     []int
		disagree bool
	}{
		{"both sat", sat, sat, Sat, NoReason, nil, false},
		{"both unsat keeps the smaller core", unsat, small, Unsat, NoReason, []int{1}, false},
		{"second unknown", sat, timeout, Unknown, Timeout, nil, false},
		{"first unknown", timeout, unsat, Unknown, Timeout, nil, false},
		{"contradiction", sat, unsat, Unknown, NoReason, nil, true},
	}
	p := &Problem{}
	for _, tt := range tests {
		b := &Both{First: scripted{"a", tt.a}, Second: scripted{"b", tt.b}}
		got, err := b.Solve(context.Background(), p)
		var d *Disagreement
		if tt.disagree {
			if !errors.As(err, &d) || !strings.Contains(err.Error(), "a says sat, b says unsat") {
				t.Errorf("%s: got %v, want a disagreement", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got.Status != tt.want || got.Reason != tt.reason {
			t.Errorf("%s: got %v/%v, want %v/%v", tt.name, got.Status, got.Reason, tt.want, tt.reason)
		}
		if tt.core != nil && len(got.Core) != len(tt.core) {
			t.Errorf("%s: core %v, want %v", tt.name, got.Core, tt.core)
		}
	}
	if got := (&Both{First: scripted{name: "a"}, Second: scripted{name: "b"}}).Name(); got != "a+b" {
		t.Errorf("name %q", got)
	}
}

// counting is a backend that counts its resets.
type counting struct {
	scripted
	resets int
}

func (c *counting) Reset() error { c.resets++; return nil }

func TestResetReachesBothBackends(t *testing.T) {
	a, b := &counting{}, &counting{}
	if err := Reset(&Both{First: a, Second: b}); err != nil || a.resets != 1 || b.resets != 1 {
		t.Errorf("got %v, resets %d and %d; want one each", err, a.resets, b.resets)
	}
	if err := Reset(scripted{}); err != nil {
		t.Errorf("a backend without Reset: %v", err)
	}
}
