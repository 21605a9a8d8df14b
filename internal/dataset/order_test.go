package dataset

import (
	"math"
	"math/rand/v2"
	"slices"
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

// TestNearChanceOrder checks which of the orders drawn it takes: the
// first in the band, a later one when the first is not, the closest
// when none is, and the first drawn for a file below OrderMinRecords.
func TestNearChanceOrder(t *testing.T) {
	n := OrderMinRecords
	alternating := make([]int8, n) // lag 1 never agrees: 0.5 from chance
	for i := range alternating {
		alternating[i] = int8(i % 2)
	}
	// good: the first shuffle of it in the band; near: good with its
	// first 200 records alternating, out of the band but closer than
	// alternating.
	var good []int8
	for try := uint64(0); good == nil; try++ {
		y := slices.Clone(alternating)
		rand.New(rand.NewPCG(try, 9)).Shuffle(n, func(a, b int) { y[a], y[b] = y[b], y[a] })
		if LagDeviation(y, 2) <= OrderTolerance {
			good = y
		}
	}
	near := slices.Clone(good)
	copy(near, alternating[:200])
	if d := LagDeviation(near, 2); d <= OrderTolerance || d >= LagDeviation(alternating, 2) {
		t.Fatalf("near is %.4f from chance, not between the band and alternating", d)
	}
	small := []int8{0, 0, 0, 0}
	tests := []struct {
		name  string
		draws []int8 // which order each try draws: 0 alternating, 1 good, 2 near, 3 small
		want  []int8
		tries int // how many it draws
	}{
		{"first in the band", []int8{1}, good, 1},
		{"a later one", []int8{0, 2, 1}, good, 3},
		{"none in the band", []int8{0, 2, 0, 2}, near, OrderTries},
		{"small", []int8{3}, small, 1},
	}
	for _, tt := range tests {
		drawn := 0
		got := NearChanceOrder(2, func(l int8) int8 { return l }, func(try int) []int8 {
			drawn++
			which := tt.draws[min(try, len(tt.draws)-1)]
			if try >= len(tt.draws) {
				which = 0
			}
			return slices.Clone([][]int8{alternating, good, near, small}[which])
		})
		if !slices.Equal(got, tt.want) || drawn != tt.tries {
			t.Errorf("%s: %d draws, took an order %.4f from chance, want one %.4f from it after %d", tt.name, drawn, LagDeviation(got, 2), LagDeviation(tt.want, 2), tt.tries)
		}
	}
}
