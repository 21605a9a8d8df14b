package solver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

// TestSubsetKey: a subset and its copy with predicates renamed one-to-one
// share a key; subsets that differ in structure, in which predicates the
// two sentences share, in variables or in order do not.
func TestSubsetKey(t *testing.T) {
	parse := func(ss ...string) []*sentenceShape {
		var out []*sentenceShape
		for _, s := range ss {
			f, err := fol.ParseSentence(s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, shapeOf(f))
		}
		return out
	}
	base := parse("∀x(artist(x) → baker(x))", "∃x(artist(x) ∧ ¬baker(x))")
	tests := []struct {
		name  string
		other []*sentenceShape
		same  bool
	}{
		{"renamed", parse("∀x(cook(x) → dancer(x))", "∃x(cook(x) ∧ ¬dancer(x))"), true},
		{"renamed, names swapped", parse("∀x(baker(x) → artist(x))", "∃x(baker(x) ∧ ¬artist(x))"), true},
		{"one predicate not shared", parse("∀x(artist(x) → baker(x))", "∃x(artist(x) ∧ ¬cook(x))"), false},
		{"the shared ones crossed", parse("∀x(artist(x) → baker(x))", "∃x(baker(x) ∧ ¬artist(x))"), false},
		{"a negation moved", parse("∀x(artist(x) → baker(x))", "∃x(¬artist(x) ∧ baker(x))"), false},
		{"a connective changed", parse("∀x(artist(x) → baker(x))", "∃x(artist(x) ∨ ¬baker(x))"), false},
		{"a quantifier changed", parse("∃x(artist(x) → baker(x))", "∃x(artist(x) ∧ ¬baker(x))"), false},
		{"another variable", parse("∀y(artist(y) → baker(y))", "∃x(artist(x) ∧ ¬baker(x))"), false},
		{"the order swapped", parse("∃x(artist(x) ∧ ¬baker(x))", "∀x(artist(x) → baker(x))"), false},
		{"a binary predicate", parse("∀x(artist(x) → ∀y(baker(y) → r(x,y)))", "∃x(artist(x) ∧ ¬baker(x))"), false},
	}
	key := func(name string, shapes []*sentenceShape, idx ...int) shapeKey {
		backend, ok := memoBackend(name)
		if !ok {
			t.Fatalf("no number for backend %s", name)
		}
		k, ok := subsetKey(backend, shapes, idx)
		if !ok {
			t.Fatalf("no key for %v", idx)
		}
		return k
	}
	want := key("b", base, 0, 1)
	for _, tt := range tests {
		got := key("b", tt.other, 0, 1)
		if (got == want) != tt.same {
			t.Errorf("%s: same key %v, want %v (%v, %v)", tt.name, got == want, tt.same, got, want)
		}
	}
	if key("b", base, 0) == key("c", base, 0) {
		t.Error("two backends share a key")
	}
	if key("b", base, 0) == want {
		t.Error("a single sentence has its pair's key")
	}
	if key("b", base, 1) == key("b", base, 0) {
		t.Error("two single sentences of different shapes share a key")
	}
	// A second sentence of more predicates than the key holds places for
	// is not memoised.
	var atoms []string
	for i := range 17 {
		atoms = append(atoms, fmt.Sprintf("p%d(x)", i))
	}
	wide := parse("∀x(artist(x) → baker(x))", "∃x("+strings.Join(atoms, " ∧ ")+")")
	if _, ok := subsetKey(0, wide, []int{0, 1}); ok {
		t.Error("a pair whose second sentence has 17 predicates has a key")
	}
}

// TestSubsetKeyPacking: keys packed into two words stay distinct at the
// ends of every field's range (shape numbers up to the memo's cap, the
// second sentence's number plus one, backends), so that no two subsets
// share a key by overflowing one field into the next.
func TestSubsetKeyPacking(t *testing.T) {
	shape := func(id int32) *sentenceShape { return &sentenceShape{id: id, numbered: true} }
	ids := []int32{0, 1, 2, shapeMemoMax/2 - 1, shapeMemoMax / 2, shapeMemoMax - 2, shapeMemoMax - 1}
	backends := []uint64{0, 1, 1<<(64-2*shapeBits) - 1}
	seen := map[shapeKey]string{}
	for _, backend := range backends {
		for _, a := range ids {
			for _, b := range append([]int32{-1}, ids...) {
				shapes, idx := []*sentenceShape{shape(a), shape(b)}, []int{0, 1}
				if b < 0 {
					idx = idx[:1]
				}
				key, ok := subsetKey(backend, shapes, idx)
				if !ok {
					t.Fatalf("backend %d, shapes %d and %d: no key", backend, a, b)
				}
				what := fmt.Sprintf("backend %d, shapes %d and %d", backend, a, b)
				if other, dup := seen[key]; dup {
					t.Errorf("%s and %s share a key", what, other)
				}
				seen[key] = what
			}
		}
	}
}
