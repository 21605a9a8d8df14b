package learn

import (
	"math"
	"testing"
)

// TestMeanSD: each column's mean and deviation over n (not n − 1), with
// row handing out one buffer it refills, as FitLogisticRows's callers do.
func TestMeanSD(t *testing.T) {
	tests := []struct {
		name     string
		rows     [][]float64
		mean, sd []float64
	}{
		{"one row", [][]float64{{3, -1}}, []float64{3, -1}, []float64{0, 0}},
		{"two columns", [][]float64{{1, 10}, {3, 10}, {5, 10}, {7, 10}}, []float64{4, 10}, []float64{math.Sqrt(5), 0}},
		{"signs", [][]float64{{-2}, {2}}, []float64{0}, []float64{2}},
	}
	for _, tt := range tests {
		buf := make([]float64, len(tt.rows[0]))
		row := func(i int) []float64 { return append(buf[:0], tt.rows[i]...) }
		mean, sd := MeanSD(len(tt.rows), len(buf), row)
		for j := range buf {
			if math.Abs(mean[j]-tt.mean[j]) > 1e-12 || math.Abs(sd[j]-tt.sd[j]) > 1e-12 {
				t.Errorf("%s: column %d: mean %g, sd %g; want %g, %g", tt.name, j, mean[j], sd[j], tt.mean[j], tt.sd[j])
			}
		}
	}
}
