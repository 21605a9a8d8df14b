package phase

import (
	"math"
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

func TestFitHardM(t *testing.T) {
	var cs []Crossing
	for n1 := 3; n1 <= 8; n1++ {
		for n2 := 3; n2 <= 8; n2++ {
			cs = append(cs, Crossing{Fragment: "V", N1: n1, N2: n2, M: 2.5*float64(n1) + 0.2*float64(n2) + 1})
		}
	}
	coef, dev, err := FitHardM(cs)
	if err != nil || math.Abs(coef[0]-2.5) > 1e-9 || math.Abs(coef[1]-0.2) > 1e-9 || math.Abs(coef[2]-1) > 1e-9 || dev > 1e-9 {
		t.Errorf("fit %v, deviation %v, %v", coef, dev, err)
	}
	var b strings.Builder
	WriteCrossings(&b, cs)
	back, err := ReadCrossings(strings.NewReader(b.String()))
	if err != nil || len(back) != len(cs) || back[5] != cs[5] {
		t.Errorf("crossings round trip: %v, %v", back, err)
	}
	if _, _, err := FitHardM(cs[:1]); err == nil {
		t.Error("one crossing fits three coefficients")
	}
}
