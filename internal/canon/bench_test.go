package canon

import (
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

// BenchmarkKey canonises sampled instances of each fragment at the sizes
// of the paper's phase-change region (sizes) and of its generalisation
// test (S, W n1 = 24, m = 30; V, Z, A n1 = 12, n2 = 24, m = 60).
func BenchmarkKey(b *testing.B) {
	for _, region := range []string{"phase", "general"} {
		for _, f := range fragments.All() {
			b.Run(region+"/"+f.String(), func(b *testing.B) {
				ins := benchInstances(b, f, region == "general")
				i := 0
				for b.Loop() {
					Key(ins[i%len(ins)])
					i++
				}
			})
		}
	}
}

func BenchmarkExactKey(b *testing.B) {
	for _, f := range fragments.All() {
		b.Run(f.String(), func(b *testing.B) {
			ins := benchInstances(b, f, false)
			i := 0
			for b.Loop() {
				ExactKey(ins[i%len(ins)])
				i++
			}
		})
	}
}

func benchInstances(b *testing.B, f fragments.Fragment, general bool) []fragments.Instance {
	rng := rand.New(rand.NewPCG(3, uint64(f)))
	ins := make([]fragments.Instance, 256)
	for i := range ins {
		m, n1, n2 := sizes(rng, f)
		if general {
			m, n1, n2 = 30, 24, 0
			if f >= fragments.V {
				m, n1, n2 = 60, 12, 24
			}
		}
		ins[i] = mustSample(b, rng, f, fragments.DefaultParams(), m, n1, n2)
	}
	return ins
}
