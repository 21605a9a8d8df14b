package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/ground"
	"github.com/nlsat/nlsat/internal/sat"
)

func some(fs ...fol.Formula) fol.Formula {
	return &fol.Exists{V: "x", Body: fol.Conj(fs...)}
}

func unary(pos bool, p string) fol.Formula { return fol.Lit(pos, fol.Unary(p, "x")) }

// patterns returns a model with one element per pattern, each a map from
// noun to value.
func patterns(ps ...map[string]bool) *fol.Structure {
	m := &fol.Structure{Size: len(ps), Unary: map[string][]bool{}, Binary: map[string][][]bool{}}
	for a, p := range ps {
		for n, v := range p {
			if m.Unary[n] == nil {
				m.Unary[n] = make([]bool, len(ps))
			}
			m.Unary[n][a] = v
		}
	}
	return m
}

// TestShrink checks sizes worked out by hand: the least size where it is
// at most MaxGround, and above it the greedy removal's, in which every
// element is needed.
func TestShrink(t *testing.T) {
	pq := func(p, q bool) map[string]bool { return map[string]bool{"p": p, "q": q, "r": false} }
	pqr := func(p, q, r bool) map[string]bool { return map[string]bool{"p": p, "q": q, "r": r} }
	two := []fol.Formula{some(unary(true, "p")), some(unary(false, "p"))}
	// Five existentials with pairwise contradictory patterns need five
	// elements, one more than MaxGround.
	five := []fol.Formula{
		some(unary(true, "p"), unary(true, "q"), unary(true, "r")),
		some(unary(true, "p"), unary(true, "q"), unary(false, "r")),
		some(unary(true, "p"), unary(false, "q")),
		some(unary(false, "p"), unary(true, "q")),
		some(unary(false, "p"), unary(false, "q")),
	}
	r := func(a, b fol.Var) *fol.Atom { return fol.Binary("r", a, b) }
	// ∀x∃y r(x,y) and ∀x ¬r(x,x): at least two elements.
	loopless := []fol.Formula{
		&fol.Forall{V: "x", Body: &fol.Exists{V: "y", Body: r("x", "y")}},
		&fol.Forall{V: "x", Body: &fol.Not{F: r("x", "x")}},
	}
	cycle := &fol.Structure{Size: 4, Unary: map[string][]bool{}, Binary: map[string][][]bool{"r": make([][]bool, 4)}}
	for a := range 4 {
		cycle.Binary["r"][a] = make([]bool, 4)
		cycle.Binary["r"][a][(a+1)%4] = true
	}
	tests := []struct {
		name string
		fs   []fol.Formula
		m    *fol.Structure
		want int
	}{
		{"one element stays", two[:1], patterns(pq(true, true)), 1},
		{"two of six", two, patterns(pq(true, true), pq(false, true), pq(true, false), pq(false, false), pq(true, true), pq(false, true)), 2},
		{"five, greedy", five, patterns(pqr(true, true, true), pqr(true, true, false), pqr(true, false, true), pqr(false, true, true),
			pqr(false, false, true), pqr(true, true, true), pqr(false, false, false)), 5},
		{"a cycle of four", loopless, cycle, 2},
	}
	for _, tc := range tests {
		p := &Problem{Sentences: tc.fs}
		if err := CheckModel(p, tc.m); err != nil {
			t.Fatalf("%s: the input is not a model: %v", tc.name, err)
		}
		got, err := Shrink(context.Background(), p, tc.m)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := CheckModel(p, got); err != nil || got.Size != tc.want {
			t.Errorf("%s: got a model of size %d (%v), want %d", tc.name, got.Size, err, tc.want)
		}
	}
}

// TestShrinkLeast checks on sampled instances of every fragment that
// Shrink, starting from a model of 6 elements, returns a model of the least
// size an ascending grounded search finds (sizes 1..MaxGround), whatever
// order Shrink searches the sizes in.
func TestShrinkLeast(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var s sat.Solver
	n := 150
	if testing.Short() {
		n = 40
	}
	sizes := map[int]int{}
	for i := range n {
		f := fragments.All()[i%5]
		n1, n2 := 3+rng.IntN(4), 0
		if f.HasVerbs() {
			n2 = 2 + rng.IntN(2)
		}
		in, err := fragments.Sample(rng, f, fragments.DefaultParams(), n1+rng.IntN(2*n1), n1, n2)
		if err != nil {
			t.Fatal(err)
		}
		p := &Problem{Sentences: in.Formulas()}
		big, err := ground.Model(&s, p.Sentences, 6)
		if err != nil {
			t.Fatal(err)
		}
		if big == nil {
			continue // unsat, or no model of 6 elements: nothing to shrink
		}
		least := 0
		for k := 1; k <= MaxGround && least == 0; k++ {
			if m, err := ground.Model(&s, p.Sentences, k); err != nil {
				t.Fatal(err)
			} else if m != nil {
				least = k
			}
		}
		got, err := Shrink(context.Background(), p, big)
		if err != nil {
			t.Fatal(err)
		}
		sizes[got.Size]++
		if err := CheckModel(p, got); err != nil {
			t.Errorf("instance %d: %v", i, err)
		}
		if least > 0 && got.Size != least || least == 0 && got.Size <= MaxGround {
			t.Errorf("instance %d: size %d, least up to %d is %d\n%v", i, got.Size, MaxGround, least, in.English())
		}
	}
	t.Logf("sizes after shrinking: %v", sizes)
}
