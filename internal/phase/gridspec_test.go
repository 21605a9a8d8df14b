package phase

import (
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

func TestParseRatios(t *testing.T) {
	tests := []struct {
		in   string
		want Ratios
		err  string
	}{
		{"0.5-3:0.25", Ratios{0.5, 3, 0.25}, ""},
		{"2", Ratios{2, 2, 1}, ""},
		{" 1-4 ", Ratios{1, 4, 1}, ""},
		{"3-1", Ratios{}, "needs low <= high"},
		{"1-2:0", Ratios{}, "positive step"},
		{"a-b", Ratios{}, "is not a ratio"},
		{"-1", Ratios{}, "is not a ratio"},
	}
	for _, tt := range tests {
		got, err := ParseRatios(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: got %v, %v; want an error with %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q: got %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// FuzzParseRatios: what the parser accepts, written back, reads the same.
func FuzzParseRatios(f *testing.F) {
	for _, s := range []string{"0.5-3:0.25", "2", "1-10:0.5", "x", "1e2-3e2:7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRatios(s)
		if err != nil {
			return
		}
		again, err := ParseRatios(r.String())
		if err != nil || again != r {
			t.Fatalf("%q read as %v, written %q, read again as %v, %v", s, r, r.String(), again, err)
		}
	})
}

func TestGridSpec(t *testing.T) {
	m, a := &Range{4, 8}, &Ratios{1, 2, 0.5}
	tests := []struct {
		name string
		f    fragments.Fragment
		spec GridSpec
		err  string
		n2   Range
	}{
		{"defaults", fragments.V, GridSpec{MStep: 1}, "", DefaultGrid(fragments.V).N2},
		{"n2 ignored without verbs", fragments.S, GridSpec{N2: &Range{3, 4}, MStep: 1}, "", DefaultGrid(fragments.S).N2},
		{"two of m, alpha, beta", fragments.V, GridSpec{M: m, Alpha: a, MStep: 1}, "alternatives", Range{}},
		{"beta without verbs", fragments.W, GridSpec{Beta: a, MStep: 1}, "--beta needs verbs", Range{}},
		{"m step", fragments.V, GridSpec{M: m}, "--m-step must be at least 1", Range{}},
	}
	for _, tt := range tests {
		g, err := tt.spec.Grid(tt.f)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: got %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || g.N2 != tt.n2 {
			t.Errorf("%s: got %+v, %v", tt.name, g, err)
		}
	}
}
