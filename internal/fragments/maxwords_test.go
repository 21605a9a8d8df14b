package fragments

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMaxSentenceWords checks the bound against sampled sentences: none
// may be longer, and the longest shapes are reached. The expected values
// are the longest sentences counted by hand: "Some non-artist is not a
// baker." (S, 6), "Some non-artist who is not a baker is not a
// carpenter." (W and V, 11), "Some non-artist who does not admire any
// baker is not a carpenter." (Z, 12) and "Some non-artist does not admire
// any non-baker who does not hate him." (A, 12).
func TestMaxSentenceWords(t *testing.T) {
	want := map[Fragment]int{S: 6, W: 11, V: 11, Z: 12, A: 12}
	for _, f := range All() {
		most := MaxSentenceWords(f)
		if most != want[f] {
			t.Errorf("%s: got %d, want %d", f, most, want[f])
		}
		rng := rand.New(rand.NewPCG(1, uint64(f)))
		seen := 0
		for range 200 {
			n2 := 4
			if f == S || f == W {
				n2 = 0
			}
			inst, err := Sample(rng, f, DefaultParams(), 6, 6, n2)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range inst.Sentences {
				n := len(strings.Fields(s.English()))
				if n > most {
					t.Errorf("%s: %q has %d words, more than the bound %d", f, s.English(), n, most)
				}
				seen = max(seen, n)
			}
		}
		if seen != most {
			t.Errorf("%s: the longest of 1,200 sampled sentences has %d words, the bound %d", f, seen, most)
		}
	}
}
