package learn

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestBoostedSeesInteractions: the label is the exclusive or of two
// thresholds, which no linear model predicts and two-level trees do.
func TestBoostedSeesInteractions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(n int) ([][]float64, []int8) {
		var x [][]float64
		var y []int8
		for range n {
			a, b, c := rng.Float64(), rng.Float64(), rng.Float64()
			l := int8(0)
			if (a > 0.5) != (b > 0.5) {
				l = 1
			}
			if rng.Float64() < 0.1 { // noise
				l = 1 - l
			}
			x, y = append(x, []float64{a, b, c}), append(y, l)
		}
		return x, y
	}
	xt, yt := draw(4000)
	xs, ys := draw(2000)
	m := FitBoosted(xt, yt, BoostOptions{})
	lin := FitLogistic(xt, yt, 1e-3, 100)
	acc := func(p func([]float64) float64) float64 {
		ok := 0
		for i, row := range xs {
			if (p(row) >= 0.5) == (ys[i] == 1) {
				ok++
			}
		}
		return float64(ok) / float64(len(xs))
	}
	if a, l := acc(m.Prob), acc(lin.Prob); a < 0.85 || l > 0.6 {
		t.Errorf("boosted %.3f, linear %.3f on an exclusive or; want above 0.85 and near 0.5", a, l)
	}
	// The JSON form predicts the same.
	data, _ := json.Marshal(m)
	var back Boosted
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(&back, m) {
		t.Fatalf("round trip: %v", err)
	}
	if again := FitBoosted(xt, yt, BoostOptions{}); !reflect.DeepEqual(again, m) {
		t.Error("two fits differ")
	}
}

// BenchmarkFitBoosted fits the default model to 20,000 rows of 200
// count-like features.
func BenchmarkFitBoosted(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([][]float64, 20000)
	y := make([]int8, len(x))
	for i := range x {
		x[i] = make([]float64, 200)
		for j := range x[i] {
			x[i][j] = float64(rng.IntN(8))
		}
		if x[i][0]+x[i][1] > 7 != (rng.Float64() < 0.2) {
			y[i] = 1
		}
	}
	for b.Loop() {
		FitBoosted(x, y, BoostOptions{})
	}
}

// BenchmarkFitSparse fits a logistic model to 40,000 rows of 80 present
// patterns each among 20,000, the shape of the balance's pair models.
func BenchmarkFitSparse(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, dim, nnz = 40000, 20000, 80
	d := NewDesign(dim)
	y := make([]int8, rows)
	w := make([]float64, dim)
	for j := range w {
		w[j] = rng.NormFloat64() / 4
	}
	for i := range rows {
		cols := make([]int32, nnz)
		z := 0.0
		for k := range cols {
			cols[k] = int32(rng.IntN(dim))
			z += w[cols[k]]
		}
		d.Add(presences(cols))
		if rng.Float64() < sigmoid(z) {
			y[i] = 1
		}
	}
	b.ResetTimer()
	for range b.N {
		FitSparse(d, y, Settings{Lambda: 1e-3, Iterations: 100})
	}
}

// BenchmarkFitLogistic fits a logistic model to 40,000 dense rows of 60
// count-like features, the shape of the balance's logistic models.
func BenchmarkFitLogistic(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := make([][]float64, 40000)
	y := make([]int8, len(x))
	for i := range x {
		x[i] = make([]float64, 60)
		z := 0.0
		for j := range x[i] {
			x[i][j] = float64(rng.IntN(4) * rng.IntN(2))
			z += x[i][j] * float64(j%7-3) / 20
		}
		if rng.Float64() < sigmoid(z) {
			y[i] = 1
		}
	}
	for b.Loop() {
		FitLogistic(x, y, 0.01, 200)
	}
}
