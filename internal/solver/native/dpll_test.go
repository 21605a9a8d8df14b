package native

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// dpllWhole is dpll as it was, scanning every clause at every level: the
// reference for the pattern dpll must find.
func dpllWhole(forbid []guard[p1], set, val uint64) (uint64, bool) {
	for {
		unit := false
		for _, g := range forbid {
			if set&g.mask[0]&(val^g.val[0]) != 0 {
				continue
			}
			free := g.mask[0] &^ set
			switch {
			case free == 0:
				return 0, false
			case free&(free-1) == 0:
				set |= free
				val |= free &^ g.val[0]
				unit = true
			}
		}
		if !unit {
			break
		}
	}
	for _, g := range forbid {
		if set&g.mask[0]&(val^g.val[0]) != 0 {
			continue
		}
		free := g.mask[0] &^ set
		b := free & -free
		if u, ok := dpllWhole(forbid, set|b, val|(b&^g.val[0])); ok {
			return u, true
		}
		return dpllWhole(forbid, set|b, val|(b&g.val[0]))
	}
	return val, true
}

// spreadPattern maps noun i of a one-word pattern to noun 3i+5 of four
// words.
func spreadPattern(u uint64) [4]uint64 {
	var out [4]uint64
	for ; u != 0; u &= u - 1 {
		j := 3*bits.TrailingZeros64(u) + 5
		out[j/64] |= 1 << (j % 64)
	}
	return out
}

// spread maps the regions forbid by spreadPattern into *buf.
func spread(forbid []guard[p1], buf *[]guard[[4]uint64]) []guard[[4]uint64] {
	out := (*buf)[:0]
	for _, g := range forbid {
		out = append(out, guard[[4]uint64]{mask: spreadPattern(g.mask[0]), val: spreadPattern(g.val[0]), c: g.c})
	}
	*buf = out
	return out
}

// TestDpllSamePattern checks that dpll, which propagates through
// occurrence lists, backjumps and reuses its scratch, finds the very
// pattern of the whole-list search on random regions (the lazy search's
// choices, and so its models, depend on it), with one word and, spread
// past the first word, with four: regions of one to four
// literals, and regions of three literals, about 3 to 5 per noun, near
// the threshold of random 3-SAT, where dpll backjumps over many
// subtrees, each of which must hold no pattern.
func TestDpllSamePattern(t *testing.T) {
	tests := []struct {
		name   string
		seed   uint64
		count  int
		region func(rng *rand.Rand) []guard[p1]
	}{
		{"mixed", 27, 3000, func(rng *rand.Rand) []guard[p1] {
			nn := 3 + rng.IntN(40)
			var forbid []guard[p1]
			for range rng.IntN(6 * nn) {
				var g guard[p1]
				for range 1 + rng.IntN(4) {
					b := uint64(1) << rng.IntN(nn)
					g.mask[0] |= b
					if rng.IntN(2) == 0 {
						g.val[0] |= b
					}
				}
				g.c = -1
				forbid = append(forbid, g)
			}
			return forbid
		}},
		{"3-SAT threshold", 28, 2000, threeSATRegions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tt.seed, 5))
			var d dpllState[p1]
			var wd dpllState[[4]uint64]
			var wforbid []guard[[4]uint64]
			sat, unsat := 0, 0
			for range tt.count {
				forbid := tt.region(rng)
				wu, wok := dpllWhole(forbid, 0, 0)
				gu, gok := d.solve(forbid)
				if gu[0] != wu || gok != wok {
					t.Fatalf("dpll gives %x %v, the whole-list search %x %v, on %v", gu, gok, wu, wok, forbid)
				}
				// The same regions over four words, noun i at 3i+5 (an
				// order-preserving spread over the words), give the same
				// pattern spread the same way.
				xu, xok := wd.solve(spread(forbid, &wforbid))
				if xok != wok || xu != spreadPattern(wu) {
					t.Fatalf("dpll over four words gives %x %v, want %x %v, on %v", xu, xok, spreadPattern(wu), wok, forbid)
				}
				if wok {
					sat++
				} else {
					unsat++
				}
			}
			if sat < 300 || unsat < 300 {
				t.Errorf("only %d sat and %d unsat region sets", sat, unsat)
			}
		})
	}
}

// threeSATRegions returns a random region set near the threshold of
// random 3-SAT: 10 to 59 nouns, three to five times as many guards of
// three nouns each.
func threeSATRegions(rng *rand.Rand) []guard[p1] {
	nn := 10 + rng.IntN(50)
	var forbid []guard[p1]
	for range 3*nn + rng.IntN(2*nn) {
		g := guard[p1]{c: -1}
		for g.size() < 3 {
			b := uint64(1) << rng.IntN(nn)
			g.mask[0] |= b
			if rng.IntN(2) == 0 {
				g.val[0] |= b
			}
		}
		forbid = append(forbid, g)
	}
	return forbid
}
