package learn

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestColumns: a Columns gives back every value appended to it bit for
// bit, whole and through Subset, whatever the mix of forms in a column
// (it widens a column as values stop fitting, at any row).
func TestColumns(t *testing.T) {
	kinds := []func(r *rand.Rand) float64{
		func(r *rand.Rand) float64 { return float64(r.IntN(256)) },
		func(r *rand.Rand) float64 { return float64(r.IntN(100000)) },
		func(r *rand.Rand) float64 { return float64(float32(r.NormFloat64())) },
		func(r *rand.Rand) float64 { return r.NormFloat64() },
		func(r *rand.Rand) float64 {
			return []float64{math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), -3, 0.5, 1e300}[r.IntN(7)]
		},
	}
	tests := []struct {
		name  string
		kinds []int // per column, the kinds its values are drawn from
	}{
		{"bytes", []int{0}},
		{"bytes then floats", []int{0, 0, 0, 2}},
		{"bytes then doubles", []int{0, 3}},
		{"wide integers", []int{1}},
		{"float32s", []int{2}},
		{"odd values", []int{0, 4}},
		{"every kind", []int{0, 1, 2, 3, 4}},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const dim, n = 3, 500
			c := NewColumns(dim)
			var rows Rows
			for i := range n {
				row := make([]float64, dim)
				for j := range row {
					k := tt.kinds[0]
					if i > n/3 { // the column widens part-way
						k = tt.kinds[r.IntN(len(tt.kinds))]
					}
					row[j] = kinds[k](r)
				}
				c.Append(row)
				rows = append(rows, row)
			}
			pick := []int{n - 1, 0, 7, 7, n / 2}
			for j := range dim {
				same(t, c.Column(j, []float64{1}), rows.Column(j, []float64{1}))
				var want []float64
				for _, i := range pick {
					want = append(want, rows[i][j])
				}
				same(t, c.Subset(pick).Column(j, nil), want)
			}
			if c.Len() != n || c.Dim() != dim || c.Subset(pick).Len() != len(pick) {
				t.Errorf("%d rows of %d, subset %d", c.Len(), c.Dim(), c.Subset(pick).Len())
			}
		})
	}
}

func same(t *testing.T, got, want []float64) {
	t.Helper()
	eq := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	if !slices.EqualFunc(got, want, eq) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestBoostedFromColumns: trees fitted to a Columns, whole or a subset of
// its rows, are the trees fitted to the same rows held as rows.
func TestBoostedFromColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 2000
	c := NewColumns(4)
	var rows Rows
	y := make([]int8, n)
	off := make([]float64, n)
	for i := range n {
		row := []float64{float64(r.IntN(6)), float64(r.IntN(300)), r.NormFloat64(), float64(float32(r.Float64()))}
		c.Append(row)
		rows = append(rows, row)
		if row[0]+row[2] > 2.5 || r.IntN(5) == 0 {
			y[i] = 1
		}
		off[i] = r.NormFloat64() / 4
	}
	var sub []int
	var subRows Rows
	var subY []int8
	var subOff []float64
	for i := range n {
		if i%5 != 2 {
			sub, subRows, subY, subOff = append(sub, i), append(subRows, rows[i]), append(subY, y[i]), append(subOff, off[i])
		}
	}
	for _, tt := range []struct {
		name      string
		got, want *Boosted
	}{
		{"whole", FitBoostedMatrix(c, y, off, BoostOptions{}), FitBoostedFrom(rows, y, off, BoostOptions{})},
		{"subset", FitBoostedMatrix(c.Subset(sub), subY, subOff, BoostOptions{}), FitBoostedFrom(subRows, subY, subOff, BoostOptions{})},
	} {
		g, _ := json.Marshal(tt.got)
		w, _ := json.Marshal(tt.want)
		if string(g) != string(w) || len(tt.want.Trees) == 0 {
			t.Errorf("%s: the trees differ (%d and %d bytes of JSON)", tt.name, len(g), len(w))
		}
	}
}
