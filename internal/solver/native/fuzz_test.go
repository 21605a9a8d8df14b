package native

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/z3"
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

// FuzzNativeAgainstZ3 decodes bytes into an instance of the sampler's
// shapes at up to the paper's sizes (n1 ≤ 8, n2 ≤ 4, m ≤ 24) and requires
// the native answer to equal Z3's wherever Z3 decides. It skips where Z3
// is not built in.
func FuzzNativeAgainstZ3(f *testing.F) {
	if !z3.Available() {
		f.Skip("z3 support not built in")
	}
	f.Add([]byte{4, 5, 3, 20, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{2, 7, 2, 12, 9, 9, 9, 9, 200, 100})
	f.Add([]byte{0, 3, 0, 9, 0, 0, 0})
	nb := New(Options{})
	zb, err := z3.New(z3.Options{Timeout: time.Second})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { zb.Close() })
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		frag, n1, n2, m := int(data[0]%5), 2+int(data[1]%7), 1+int(data[2]%4), 1+int(data[3]%24)
		g := newGen(rand.New(&byteSource{b: data[4:]}), n1, n2, data[1]&0x80 != 0)
		p := &solver.Problem{Sentences: g.instance(frag, m)}
		nr, err := nb.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if err := zb.Reset(); err != nil {
			t.Fatal(err)
		}
		zr, err := zb.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if nr.Status == solver.Unknown {
			t.Fatalf("native unknown: %s", nr.Detail)
		}
		if zr.Status != solver.Unknown && zr.Status != nr.Status {
			t.Fatalf("native says %v, z3 says %v", nr.Status, zr.Status)
		}
	})
}
