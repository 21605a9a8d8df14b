package phase

import (
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

func TestGridPoints(t *testing.T) {
	tests := []struct {
		name string
		f    fragments.Fragment
		g    Grid
		want []Point
	}{
		{"m with step", fragments.S, Grid{N1: Range{6, 6}, M: &Range{4, 10}, MStep: 3},
			[]Point{{4, 6, 0}, {7, 6, 0}, {10, 6, 0}}},
		{"alpha rounds and drops repeats", fragments.S, Grid{N1: Range{3, 3}, Alpha: &Ratios{1, 2, 0.1}},
			[]Point{{3, 3, 0}, {4, 3, 0}, {5, 3, 0}, {6, 3, 0}}},
		{"beta uses n2", fragments.V, Grid{N1: Range{3, 3}, N2: Range{2, 3}, Beta: &Ratios{2, 3, 1}},
			[]Point{{4, 3, 2}, {6, 3, 2}, {6, 3, 3}, {9, 3, 3}}},
		{"n1 and n2 with steps", fragments.V, Grid{N1: Range{3, 7}, N1Step: 2, N2: Range{3, 6}, N2Step: 3, M: &Range{5, 5}},
			[]Point{{5, 3, 3}, {5, 3, 6}, {5, 5, 3}, {5, 5, 6}, {5, 7, 3}, {5, 7, 6}}},
		{"order n1, n2, m", fragments.Z, Grid{N1: Range{3, 4}, N2: Range{3, 4}, M: &Range{5, 5}},
			[]Point{{5, 3, 3}, {5, 3, 4}, {5, 4, 3}, {5, 4, 4}}},
	}
	for _, tt := range tests {
		got, skipped, err := tt.g.Points(tt.f, fragments.DefaultParams())
		if err != nil || len(skipped) > 0 || !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v (skipped %v, %v), want %v", tt.name, got, skipped, err, tt.want)
		}
	}
}

func TestGridSkipsUndrawable(t *testing.T) {
	g := Grid{N1: Range{2, 2}, M: &Range{1, 100}}
	pts, skipped, err := g.Points(fragments.S, fragments.DefaultParams())
	if err != nil || len(pts) == 0 || len(skipped) == 0 || len(pts)+len(skipped) != 100 {
		t.Fatalf("got %d points, %d skipped, %v; want both non-empty, 100 in all", len(pts), len(skipped), err)
	}
	if pts[len(pts)-1].M >= skipped[0].M {
		t.Errorf("drawable m up to %d but m = %d skipped", pts[len(pts)-1].M, skipped[0].M)
	}
}

func TestGridNeedsOneOf(t *testing.T) {
	for _, g := range []Grid{{N1: Range{3, 3}}, {N1: Range{3, 3}, M: &Range{1, 2}, Alpha: &Ratios{1, 2, 1}}} {
		if _, _, err := g.Points(fragments.S, fragments.DefaultParams()); err == nil {
			t.Errorf("grid %+v: no error", g)
		}
	}
}

func TestDefaultGridsAreDrawable(t *testing.T) {
	for _, f := range fragments.All() {
		pts, skipped, err := DefaultGrid(f).Points(f, fragments.DefaultParams())
		if err != nil || len(pts) < 50 || len(skipped) > 0 {
			t.Errorf("%s: %d points, %d skipped, %v", f, len(pts), len(skipped), err)
		}
	}
}
