package fol

import (
	"math/rand/v2"
	"testing"
)

// TestModelsAnyTrue holds Models.AnyTrue to the loop it replaces (Eval
// over each structure, passing over errors) on random formulas (free
// variables among them) and random lists of structures of 1 to 70
// elements, malformed ones included, which Add must refuse.
func TestModelsAnyTrue(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 5000
	if testing.Short() {
		n = 500
	}
	trues := 0
	for i := range n {
		c := genConfig{depth: 1 + r.IntN(4)}
		if i%7 == 0 {
			c.free = 0.1
		}
		var ms Models
		var all []*Structure
		for range r.IntN(5) {
			size := 1 + r.IntN(6)
			if r.IntN(20) == 0 {
				size = 60 + r.IntN(10)
			}
			s := sparseStructure(r, size, r.Float64()/2)
			if r.IntN(15) == 0 {
				s.Unary["p_bad"] = make([]bool, size+1)
			}
			all = append(all, s)
			if err, bad := ms.Add(s), s.check() != nil; (err != nil) != bad {
				t.Fatalf("case %d: Add gave %v on a structure whose check gives %v", i, err, s.check())
			}
		}
		for _, f := range c.randProblem(r, 3) {
			want := false
			for _, s := range all {
				if ok, err := Eval(f, s); err == nil && ok {
					want = true
					break
				}
			}
			if got := ms.AnyTrue(f); got != want {
				t.Fatalf("case %d: AnyTrue %v, Eval over the structures %v: %v", i, got, want, f)
			}
			if want {
				trues++
			}
		}
	}
	if trues == 0 {
		t.Fatal("no formula was true anywhere: the test checks nothing")
	}
}
