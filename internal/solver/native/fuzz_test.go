package native

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/solver"
)

// byteSource is a rand.Source that reads the fuzzer's bytes, one per
// draw spread over the word, and a splitmix sequence once they run out
// (a constant source would make rand's rejection sampling loop forever).
type byteSource struct {
	b []byte
	s uint64
}

func (s *byteSource) Uint64() uint64 {
	s.s += 0x9e3779b97f4a7c15
	z := s.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	if len(s.b) > 0 {
		z = uint64(s.b[0])<<56 | z>>8
		s.b = s.b[1:]
	}
	return z
}

// FuzzNative decodes bytes into a small fragment-shaped instance (at most
// 3 nouns, 2 verbs, 7 sentences) and checks the certificate: Solve checks a
// Sat model itself; an Unsat answer must leave brute force without a model
// of up to 3 elements (within 14 bits of atoms).
func FuzzNative(f *testing.F) {
	f.Add([]byte{4, 2, 1, 5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{2, 2, 0, 3, 255, 254, 17, 42, 99, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5})
	f.Add([]byte{3, 1, 1, 6, 7, 7, 7, 7, 7, 7, 7, 7, 200, 100, 50, 25})
	b := New(Options{})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		frag, n1, n2, m := int(data[0]%5), 1+int(data[1]%3), 1+int(data[2]%2), 1+int(data[3]%7)
		g := newGen(rand.New(&byteSource{b: data[4:]}), n1, n2, data[1]&0x80 != 0)
		fs := g.instance(frag, m)
		res, err := b.Solve(context.Background(), &solver.Problem{Sentences: fs})
		if err != nil {
			t.Fatal(err)
		}
		switch res.Status {
		case solver.Unknown:
			t.Fatalf("unknown on a tiny instance: %s", res.Detail)
		case solver.Unsat:
			if st, ok := bruteModel(fs, 3, 14); ok {
				t.Fatalf("native unsat, brute force model of size %d", st.Size)
			}
		}
	})
}
