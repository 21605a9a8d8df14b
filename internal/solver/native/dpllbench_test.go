package native

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDpll runs DPLL on fixed random region sets near the threshold
// of random 3-SAT (10 to 59 nouns); ns/op is per region set.
func BenchmarkDpll(b *testing.B) {
	rng := rand.New(rand.NewPCG(28, 5))
	var sets [][]guard[p1]
	for range 200 {
		sets = append(sets, threeSATRegions(rng))
	}
	var d dpllState[p1]
	i := 0
	for b.Loop() {
		d.solve(sets[i%len(sets)])
		i++
	}
}
