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
		nn := 10 + rng.IntN(50)
		var forbid []guard[p1]
		for range 3*nn + rng.IntN(2*nn) {
			g := guard[p1]{c: -1}
			for g.size() < 3 {
				bit := uint64(1) << rng.IntN(nn)
				g.mask[0] |= bit
				if rng.IntN(2) == 0 {
					g.val[0] |= bit
				}
			}
			forbid = append(forbid, g)
		}
		sets = append(sets, forbid)
	}
	var d dpllState[p1]
	i := 0
	for b.Loop() {
		d.solve(sets[i%len(sets)])
		i++
	}
}
