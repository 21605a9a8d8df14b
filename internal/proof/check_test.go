package proof

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// breakings are the ways a proof is broken; each must be rejected.
var breakings = []struct {
	name  string
	apply func(p Proof, i int) (Proof, bool)
}{
	{"drop a premise", func(p Proof, i int) (Proof, bool) {
		if len(p.Steps[i].Premises) == 0 {
			return p, false
		}
		p.Steps[i].Premises = p.Steps[i].Premises[1:]
		return p, true
	}},
	{"swap the rule", func(p Proof, i int) (Proof, bool) {
		k := slices.Index(rules, p.Steps[i].Rule)
		p.Steps[i].Rule = rules[(k+1)%len(rules)]
		return p, true
	}},
	{"negate the conclusion", func(p Proof, i int) (Proof, bool) {
		f := p.Steps[i].Formula
		if f == nil {
			return p, false
		}
		p.Steps[i].Formula = &fol.Not{F: f}
		if n := negate(f); n != nil {
			p.Steps[i].Formula = n
		} else if body, head, ok := monadicUniversal(f); ok {
			c := []mlit{}
			for _, t := range body {
				c = append(c, mlit{t.Noun, !t.Neg})
			}
			h := mlit{head.Noun, !head.Neg}
			p.Steps[i].Formula = universalFormula(append(c, h), h)
		}
		if e, err := Render(fragments.Default(), p.Steps[i].Formula); err == nil {
			p.Steps[i].English = e // a consistent lie: only the logic can catch it
		}
		return p, true
	}},
	{"cite a later step", func(p Proof, i int) (Proof, bool) {
		if len(p.Steps[i].Premises) == 0 {
			return p, false
		}
		p.Steps[i].Premises = []int{i}
		return p, true
	}},
}

// clone copies a proof deeply enough for breakings to edit it.
func clone(p Proof) Proof {
	q := Proof{Steps: slices.Clone(p.Steps)}
	for i := range q.Steps {
		q.Steps[i].Premises = slices.Clone(q.Steps[i].Premises)
	}
	return q
}

// TestCheckRejectsBrokenProofs breaks every step of proofs of random
// instances in each way and checks that Check rejects every result.
func TestCheckRejectsBrokenProofs(t *testing.T) {
	b := native.New(native.Options{})
	ctx := context.Background()
	lx := fragments.Default()
	for _, f := range fragments.All() {
		tried := 0
		for _, c := range unsatCases(t, f, 6, 3) {
			p, err := Find(ctx, b, lx, c.sents, c.mus, DefaultBudget)
			if err != nil {
				continue
			}
			for i := range p.Steps {
				for _, br := range breakings {
					q, ok := br.apply(clone(p), i)
					if !ok {
						continue
					}
					tried++
					if err := Check(ctx, b, lx, c.sents, q); err == nil {
						t.Errorf("%s: %s at step %d is accepted:\n%s", f, br.name, i+1, text(q))
					}
				}
			}
		}
		if tried == 0 {
			t.Errorf("%s: nothing was broken", f)
		}
	}
}

// TestCheckRejectsTruncated checks that a proof without its contradiction,
// or with an English that says something else, is rejected.
func TestCheckRejectsTruncated(t *testing.T) {
	b := native.New(native.Options{})
	ctx := context.Background()
	lx := fragments.Default()
	c := unsatCases(t, fragments.S, 1, 9)[0]
	p, err := Find(ctx, b, lx, c.sents, c.mus, DefaultBudget)
	if err != nil {
		t.Fatal(err)
	}
	q := clone(p)
	q.Steps = q.Steps[:len(q.Steps)-1]
	if Check(ctx, b, lx, c.sents, q) == nil {
		t.Error("a proof without its contradiction is accepted")
	}
	q = clone(p)
	q.Steps[0].English = "Every scholar is a poet."
	if Check(ctx, b, lx, c.sents, q) == nil {
		t.Error("a given sentence with other English is accepted")
	}
}

func text(p Proof) string {
	var s strings.Builder
	Fprint(&s, p)
	return s.String()
}
