package fol

import (
	"math/rand/v2"
	"testing"
)

// sparseStructure returns a structure of the given size over genSig in
// which each atom holds with probability dens; with probability 1/4 a
// predicate is left out (and so is empty).
func sparseStructure(r *rand.Rand, size int, dens float64) *Structure {
	s := &Structure{Size: size, Unary: map[string][]bool{}, Binary: map[string][][]bool{}}
	for _, p := range genUnary {
		if r.IntN(4) == 0 {
			continue
		}
		ext := make([]bool, size)
		for a := range ext {
			ext[a] = r.Float64() < dens
		}
		s.Unary[p] = ext
	}
	for _, p := range genBinary {
		if r.IntN(4) == 0 {
			continue
		}
		m := make([][]bool, size)
		for a := range m {
			m[a] = make([]bool, size)
			for b := range m[a] {
				m[a][b] = r.Float64() < dens
			}
		}
		s.Binary[p] = m
	}
	return s
}

// TestEvalBitsAgrees compares the bit evaluator with the tree-walking one
// on random problems (nested quantifiers, shadowed and free variables)
// and random structures of 1 to 70 elements (above 64 the bit evaluator
// must decline).
func TestEvalBitsAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	declined := 0
	for i := range n {
		c := genConfig{depth: 1 + r.IntN(4)}
		if i%5 == 0 {
			c.free = 0.1
		}
		fs := c.randProblem(r, 4)
		size := 1 + r.IntN(9)
		if i%50 == 0 {
			size = 1 + r.IntN(70)
		}
		s := sparseStructure(r, size, r.Float64())
		want, wantErr := evalAllTree(fs, s)
		got, ok := evalAllBits(fs, s)
		if !ok {
			declined++
			if wantErr == nil && size <= maxBitSize && c.free == 0 {
				t.Fatalf("bit evaluator declined a closed problem of size %d: %v", size, fs)
			}
			continue
		}
		if wantErr != nil || got != want {
			t.Fatalf("problem %d (size %d): bits say %d, tree says %d, %v\n%v", i, size, got, want, wantErr, fs)
		}
		// EvalEach agrees with Eval formula by formula.
		each, err := EvalEach(fs, s)
		for j, f := range fs {
			v, err1 := Eval(f, s)
			if err != nil || err1 != nil || each[j] != v {
				t.Fatalf("problem %d, formula %d: EvalEach %v (%v), Eval %v (%v)", i, j, each, err, v, err1)
			}
		}
	}
	if declined == n {
		t.Fatal("the bit evaluator declined every problem")
	}
}

// TestEvalBitsDeclines checks that the bit evaluator leaves every error
// to the tree-walking evaluator.
func TestEvalBitsDeclines(t *testing.T) {
	s := NewStructure(2, Signature{"p": 1, "r": 2})
	for _, f := range []Formula{
		Unary("p", "x"), // free variable
		&Forall{V: "x", Body: &Atom{Pred: "t", Args: []Var{"x", "x", "x"}}},
		&Forall{V: "x", Body: &And{Fs: []Formula{Unary("p", "x"), nil}}},
		&Exists{V: "x", Body: (*Atom)(nil)},
	} {
		if _, ok := evalAllBits([]Formula{f}, s); ok {
			t.Errorf("bit evaluator accepted %#v", f)
		}
	}
	if _, ok := evalAllBits([]Formula{&Exists{V: "x", Body: Unary("p", "x")}}, NewStructure(65, nil)); ok {
		t.Error("bit evaluator accepted a structure of 65 elements")
	}
}
