package distract

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// sampleAt draws an instance at the paper's training sizes (n1 ∈ [6,16]
// and m/n1 ∈ [1.2,2] for S and W; n1, n2 ∈ [3,8] and m/n1 ∈ [2,3] for V,
// Z and A), the region the native package's cross-checks use.
func sampleAt(t testing.TB, rng *rand.Rand, f fragments.Fragment) fragments.Instance {
	t.Helper()
	var m, n1, n2 int
	if f == fragments.S || f == fragments.W {
		n1 = 6 + rng.IntN(11)
		m = int(float64(n1) * (1.2 + 0.8*rng.Float64()))
	} else {
		n1, n2 = 3+rng.IntN(6), 3+rng.IntN(6)
		m = int(float64(n1) * (2 + rng.Float64()))
	}
	in, err := fragments.Sample(rng, f, fragments.DefaultParams(), m, n1, n2)
	if err != nil {
		t.Fatalf("sample %s m=%d n1=%d n2=%d: %v", f, m, n1, n2, err)
	}
	return in
}

// solveWith decides fs with b and checks a Sat model; an error fails the
// test.
func solveWith(t testing.TB, b solver.Backend, fs []fol.Formula) solver.Status {
	t.Helper()
	if err := solver.Reset(b); err != nil {
		t.Fatal(err)
	}
	p := &solver.Problem{Sentences: fs}
	res, err := b.Solve(context.Background(), p)
	if err != nil {
		t.Fatalf("%s: %v", b.Name(), err)
	}
	if res.Status == solver.Sat {
		if err := solver.CheckModel(p, res.Model); err != nil {
			t.Fatalf("%s: %v", b.Name(), err)
		}
	}
	return res.Status
}

// independent returns a native backend that Add never saw.
func independent() solver.Backend { return native.New(native.Options{}) }

// pick returns the sentences of ss at idx.
func pick(ss []fragments.Sentence, idx []int) []fragments.Sentence {
	out := make([]fragments.Sentence, len(idx))
	for i, j := range idx {
		out[i] = ss[j]
	}
	return out
}
