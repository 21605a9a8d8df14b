package native

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// TestRecipesMatchGeneric checks that translating sentences through the
// shape cache gives exactly the generic translation (same nouns and verbs
// in the same order, same items in the same order, same signature) on
// sampled instances with and without repeated words and on the random
// generator's, whose repeated words make vacuous items. One cache serves
// every instance, so recipes are reused across instances as in Solve.
func TestRecipesMatchGeneric(t *testing.T) {
	sc := new(shapeCache)
	rng := rand.New(rand.NewPCG(11, 12))
	var problems [][]fol.Formula
	for _, f := range fragments.All() {
		for i := range 200 {
			problems = append(problems, sampleAt(t, rng, f, i%2 == 0).Formulas())
		}
	}
	for i := range 600 {
		g := newGen(rng, 1+rng.IntN(5), 1+rng.IntN(3), i%2 == 0)
		problems = append(problems, g.instance(i%5, 1+rng.IntN(10)))
	}
	extras := 0
	for i, fs := range problems {
		want, werr := normalizeIn(new(normal[p1]), fs, new(nodeSlab), nil)
		got, gerr := normalizeIn(new(normal[p1]), fs, new(nodeSlab), sc)
		if (werr != nil) != (gerr != nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("problem %d: errors differ: generic %v, recipes %v", i, werr, gerr)
		}
		if werr != nil {
			continue
		}
		if d := diffNormal(want, got); d != "" {
			t.Fatalf("problem %d: %s\n%v", i, d, fs)
		}
		if got.extras {
			extras++
		}
	}
	if extras == 0 {
		t.Error("no problem had a word in vacuous items only; the signature's slow path is untested")
	}
	if len(sc.recipes) == 0 {
		t.Fatal("no recipe was cached")
	}
}

// diffNormal describes the first difference between two translations.
func diffNormal(a, b *normal[p1]) string {
	sig := func(n *normal[p1]) map[string]int {
		m := map[string]int{}
		n.arities(func(p string, k, _ int) { m[p] = k })
		return m
	}
	switch {
	case !slices.Equal(a.nouns, b.nouns) || !slices.Equal(a.verbs, b.verbs):
		return fmt.Sprintf("words: %v %v vs %v %v", a.nouns, a.verbs, b.nouns, b.verbs)
	case !slices.Equal(a.csrc, b.csrc) || !slices.Equal(a.mono, b.mono) || !slices.Equal(a.msrc, b.msrc):
		return fmt.Sprintf("monadic items: %v %v %v vs %v %v %v", a.csrc, a.mono, a.msrc, b.csrc, b.mono, b.msrc)
	case !reflect.DeepEqual(normItems(a), normItems(b)):
		return fmt.Sprintf("binary items: %v vs %v", normItems(a), normItems(b))
	case !maps.Equal(sig(a), sig(b)):
		return fmt.Sprintf("signature: %v vs %v", sig(a), sig(b))
	}
	return ""
}

// normItems lists the C and Q items with nil and empty literal lists
// made equal.
func normItems(n *normal[p1]) []string {
	var out []string
	for _, c := range n.cs {
		out = append(out, fmt.Sprintf("C %v %v %v %d", c.x, c.y, []blit(c.d), c.src))
	}
	for _, q := range n.qs {
		out = append(out, fmt.Sprintf("Q %v %v %v %d", q.x, q.y, []blit(q.e), q.src))
	}
	return out
}

// TestRecipeArityClash checks that a word used as a noun in one sentence
// and as a verb in another is still an unsupported signature.
func TestRecipeArityClash(t *testing.T) {
	fs := []fol.Formula{
		every(ul(true, "p", vx), ul(true, "q", vx)),
		every(ul(true, "a", vx), obj(false, ul(true, "b", vy), true, "p")),
	}
	if _, err := normalize[p1](fs); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("got %v, want an unsupported-shape error", err)
	}
}
