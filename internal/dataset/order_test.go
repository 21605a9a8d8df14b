package dataset

import (
	"math"
	"testing"
)

// TestLagDeviation checks the farthest lag's distance from chance on
// sequences whose agreement is known.
func TestLagDeviation(t *testing.T) {
	alternate := make([]int8, 40) // 0 1 0 1 …: lag 1 never agrees
	for i := range alternate {
		alternate[i] = int8(i % 2)
	}
	cycle3 := make([]int8, 60) // 0 1 2 0 1 2 …: lag 3 always agrees
	for i := range cycle3 {
		cycle3[i] = int8(i % 3)
	}
	tests := []struct {
		name   string
		y      []int8
		labels int
		want   float64
	}{
		{"alternating", alternate, 2, 0.5},
		{"cycle of three", cycle3, 3, 2.0 / 3},
		{"one label", []int8{1, 1, 1, 1}, 2, 0},
		{"single record", []int8{0}, 2, 0},
		{"empty", nil, 2, 0},
	}
	for _, tt := range tests {
		if got := LagDeviation(tt.y, tt.labels); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: %.4f, want %.4f", tt.name, got, tt.want)
		}
	}
}
