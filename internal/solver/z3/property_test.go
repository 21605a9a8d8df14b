package z3

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// randLit returns ±p(v) for a random unary predicate p of {p, q}.
func randLit(rng *rand.Rand, v fol.Var) fol.Formula {
	return fol.Lit(rng.IntN(2) == 0, fol.Unary([]string{"p", "q"}[rng.IntN(2)], v))
}

// randRel returns ±r(x, y) or, for the anaphora shape, ±r(y, x).
func randRel(rng *rand.Rand) fol.Formula {
	if rng.IntN(3) == 0 {
		return fol.Lit(rng.IntN(2) == 0, fol.Binary("r", "y", "x"))
	}
	return fol.Lit(rng.IntN(2) == 0, fol.Binary("r", "x", "y"))
}

// randInner returns ∀y(L(y) → R) or ∃y(L(y) ∧ R): the object of a
// V, Z or A sentence.
func randInner(rng *rand.Rand) fol.Formula {
	if rng.IntN(2) == 0 {
		return all("y", imp(randLit(rng, "y"), randRel(rng)))
	}
	return ex("y", and(randLit(rng, "y"), randRel(rng)))
}

// randSentence draws a sentence shaped like the fragments' templates over
// the signature p, q (unary) and r (binary).
func randSentence(rng *rand.Rand) fol.Formula {
	switch rng.IntN(5) {
	case 0:
		return all("x", imp(randLit(rng, "x"), randLit(rng, "x")))
	case 1:
		return ex("x", and(randLit(rng, "x"), randLit(rng, "x")))
	case 2:
		return all("x", imp(randLit(rng, "x"), randInner(rng)))
	case 3:
		return ex("x", and(randLit(rng, "x"), randInner(rng)))
	default:
		return all("x", imp(and(randLit(rng, "x"), randInner(rng)), randLit(rng, "x")))
	}
}

// randProblem draws 2 to 7 sentences.
func randProblem(rng *rand.Rand) []fol.Formula {
	fs := make([]fol.Formula, 2+rng.IntN(6))
	for i := range fs {
		fs[i] = randSentence(rng)
	}
	return fs
}

// smallModel searches every structure of size 1 to 3 over p, q, r for a
// model of fs: an independent check of unsat answers (it cannot confirm
// them, only refute them).
func smallModel(fs []fol.Formula) *fol.Structure {
	sig := fol.Signature{"p": 1, "q": 1, "r": 2}
	p := &solver.Problem{Sentences: fs}
	for n := 1; n <= 3; n++ {
		bits := 2*n + n*n
		s := fol.NewStructure(n, sig)
		for code := 0; code < 1<<bits; code++ {
			k := 0
			next := func() bool { k++; return code>>(k-1)&1 == 1 }
			for i := range n {
				s.Unary["p"][i], s.Unary["q"][i] = next(), next()
				for j := range n {
					s.Binary["r"][i][j] = next()
				}
			}
			if solver.CheckModel(p, s) == nil {
				return s
			}
		}
	}
	return nil
}

// checkAgainstSearch solves fs and checks the answer against the
// small-model search and, for unsat, re-solves the core.
func checkAgainstSearch(t *testing.T, be *Backend, fs []fol.Formula) solver.Status {
	t.Helper()
	res, err := be.Solve(context.Background(), &solver.Problem{Sentences: fs, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	switch {
	case res.Status == solver.Unknown:
		t.Fatalf("unknown (%v %q, stats %v) on a small problem:%s", res.Reason, res.Detail, res.Stats, showAll(fs))
	case res.Status == solver.Unsat:
		if small := smallModel(fs); small != nil {
			t.Fatalf("z3 says unsat but a model of size %d exists:%s", small.Size, showAll(fs))
		}
		sub := make([]fol.Formula, 0, len(res.Core))
		for _, i := range res.Core {
			sub = append(sub, fs[i])
		}
		if r := solve(t, be, sub...); r.Status != solver.Unsat {
			t.Fatalf("core %v alone: got %v, want unsat", res.Core, r.Status)
		}
	}
	return res.Status
}

func TestAgainstSmallModelSearch(t *testing.T) {
	be := newBackend(t, Options{})
	rng := rand.New(rand.NewPCG(2026, 11))
	n, seen := 100, map[solver.Status]int{}
	if testing.Short() {
		n = 30
	}
	for range n {
		seen[checkAgainstSearch(t, be, randProblem(rng))]++
	}
	if seen[solver.Sat] == 0 || seen[solver.Unsat] == 0 {
		t.Errorf("answers %v: want both sat and unsat among random problems", seen)
	}
}

func FuzzSolve(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42} {
		f.Add(binary.LittleEndian.AppendUint64(nil, s))
	}
	be := newBackend(f, Options{})
	f.Fuzz(func(t *testing.T, data []byte) {
		seed := make([]byte, 16)
		copy(seed, data)
		rng := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed), binary.LittleEndian.Uint64(seed[8:])))
		fs := randProblem(rng)
		if slices.ContainsFunc(fs, func(f fol.Formula) bool { return f == nil }) {
			t.Fatal("generator made a nil sentence")
		}
		checkAgainstSearch(t, be, fs)
	})
}
