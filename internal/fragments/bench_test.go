package fragments

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkSample(b *testing.B) {
	for _, f := range All() {
		n2 := 0
		if f >= V {
			n2 = 6
		}
		for _, equivalent := range []bool{false, true} {
			p := DefaultParams()
			p.Equivalent = equivalent
			name := f.String() + "/propositions"
			if equivalent {
				name = f.String() + "/sentences"
			}
			b.Run(name, func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 1))
				for b.Loop() {
					if _, err := Sample(rng, f, p, 20, 8, n2); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkParse(b *testing.B) {
	const s = "Some non-artist does not admire every non-beekeeper who does not hate him."
	for b.Loop() {
		if _, err := Parse(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEnglish(b *testing.B) {
	s, err := Parse("Some non-artist does not admire every non-beekeeper who does not hate him.")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = s.English()
	}
}
