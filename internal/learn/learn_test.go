package learn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMutualInfo checks values worked out by hand on 8 records. A copy of
// a balanced label carries 1 bit; a feature independent of it in the
// sample carries 0. Miller–Madow adds (cells−1)/(2N) nats to each of the
// three entropies, so MI moves by (Kx + Ky − Kxy − 1)/(2·8·ln 2) bits:
// +1/(16 ln 2) for the copy (2 + 2 − 2 − 1), −1/(16 ln 2) for the
// independent feature (2 + 2 − 4 − 1), 0 for a constant (1 + 2 − 2 − 1).
func TestMutualInfo(t *testing.T) {
	labels := []int8{0, 0, 0, 0, 1, 1, 1, 1}
	tests := []struct {
		name       string
		bins       []int
		mi, mm     float64
		cells, nbs int
	}{
		{"copy of the label", []int{0, 0, 0, 0, 1, 1, 1, 1}, 1, 1 + 1/(16*math.Ln2), 2, 2},
		{"independent", []int{0, 0, 1, 1, 0, 0, 1, 1}, 0, -1 / (16 * math.Ln2), 4, 2},
		{"constant", []int{3, 3, 3, 3, 3, 3, 3, 3}, 0, 0, 2, 1},
	}
	for _, tt := range tests {
		mi, cells, nb := PluginMI(tt.bins, labels)
		mm := mi - float64(cells-nb-2+1)/(2*8*math.Ln2)
		if math.Abs(mi-tt.mi) > 1e-12 || math.Abs(mm-tt.mm) > 1e-12 || cells != tt.cells || nb != tt.nbs {
			t.Errorf("%s: MI %v (MM %v), %d cells, %d bins; want %v (%v), %d, %d", tt.name, mi, mm, cells, nb, tt.mi, tt.mm, tt.cells, tt.nbs)
		}
	}
}

// TestFitSparse compares with the closed form of an unpenalised logistic
// model on one binary feature: the intercept is the log-odds of the group
// x = 0 and the weight the log odds ratio of the two groups.
func TestFitSparse(t *testing.T) {
	tests := []struct {
		name         string
		sat0, unsat0 int // records with x = 0
		sat1, unsat1 int // records with x = 1
	}{
		{"balanced", 50, 50, 50, 50},
		{"skewed", 30, 70, 80, 20},
		{"rare", 5, 95, 60, 40},
	}
	for _, tt := range tests {
		d := NewDesign(1)
		var y []int8
		for _, g := range []struct {
			x         float32
			sat, unst int
		}{{0, tt.sat0, tt.unsat0}, {1, tt.sat1, tt.unsat1}} {
			for i := range g.sat + g.unst {
				d.Add([]int32{0}, []float32{g.x})
				y = append(y, int8(min(1, max(0, g.sat-i))))
			}
		}
		m := FitSparse(d, y, Settings{Lambda: 1e-12, Iterations: 500})
		logOdds := func(s, u int) float64 { return math.Log(float64(s) / float64(u)) }
		b, w := logOdds(tt.sat0, tt.unsat0), logOdds(tt.sat1, tt.unsat1)-logOdds(tt.sat0, tt.unsat0)
		if math.Abs(m.B-b) > 1e-4 || math.Abs(m.W[0]-w) > 1e-4 {
			t.Errorf("%s: b = %.6f, w = %.6f; want %.6f, %.6f", tt.name, m.B, m.W[0], b, w)
		}
	}
}

// TestPresenceDesignSameFit: a design of presences (AddPresent) takes the
// loops without multiplications; its fit must be bit for bit the one of
// the general loops.
func TestPresenceDesignSameFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name           string
		rows, dim, nnz int
	}{
		{"small", 200, 30, 4},
		{"wide", 3000, 2000, 25},
		{"several blocks", 9000, 500, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fast, general := NewDesign(tc.dim), NewDesign(tc.dim)
			y := make([]int8, tc.rows)
			for i := range tc.rows {
				var cols []int32
				for range 1 + rng.IntN(tc.nnz) {
					cols = append(cols, int32(rng.IntN(tc.dim)))
				}
				cols, vals := presences(cols)
				fast.AddPresent(cols)
				general.Add(cols, vals)
				y[i] = int8(rng.IntN(2))
				if cols[0]%3 == 0 {
					y[i] = 1
				}
			}
			general.valued = true
			if fast.valued {
				t.Fatal("a design of ones is marked valued")
			}
			s := Settings{Lambda: 1e-3, Iterations: 50}
			a, b := FitSparse(fast, y, s), FitSparse(general, y, s)
			if a.B != b.B || a.Iterations != b.Iterations || !slices.Equal(a.W, b.W) {
				t.Fatalf("fits differ: B %v / %v, iterations %d / %d", a.B, b.B, a.Iterations, b.Iterations)
			}
			for i := range tc.rows {
				if a.Score(fast, i) != a.Score(general, i) {
					t.Fatalf("row %d: scores differ", i)
				}
			}
		})
	}
}

// presences returns the distinct columns of cols in order, each with the
// value 1: a row of a design of presences.
func presences(cols []int32) ([]int32, []float32) {
	slices.Sort(cols)
	cols = slices.Compact(cols)
	vals := make([]float32, len(cols))
	for k := range vals {
		vals[k] = 1
	}
	return cols, vals
}
