package fol

import (
	"strings"
	"testing"
)

// st builds a structure of the given size from the elements of each unary
// predicate and the pairs of each binary one.
func st(size int, unary map[string][]int, binary map[string][][2]int) *Structure {
	s := &Structure{Size: size, Unary: map[string][]bool{}, Binary: map[string][][]bool{}}
	for p, xs := range unary {
		s.Unary[p] = make([]bool, size)
		for _, x := range xs {
			s.Unary[p][x] = true
		}
	}
	for r, ps := range binary {
		m := make([][]bool, size)
		for i := range m {
			m[i] = make([]bool, size)
		}
		for _, p := range ps {
			m[p[0]][p[1]] = true
		}
		s.Binary[r] = m
	}
	return s
}

func mustParse(t *testing.T, s string) Formula {
	t.Helper()
	f, err := ParseSentence(s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestEval(t *testing.T) {
	type U = map[string][]int
	type B = map[string][][2]int
	tests := []struct {
		f    string
		s    *Structure
		want bool
	}{
		// The only artist, 0, is a beekeeper.
		{"∀x(artist(x) → beekeeper(x))", st(2, U{"artist": {0}, "beekeeper": {0}}, nil), true},
		// Artist 0 is not a beekeeper.
		{"∀x(artist(x) → beekeeper(x))", st(2, U{"artist": {0}, "beekeeper": {1}}, nil), false},
		// No artists at all: universals have no existential import.
		{"∀x(artist(x) → beekeeper(x))", st(1, nil, nil), true},
		// 0 is p and 1 is q, so nobody is neither.
		{"∃x(¬p(x) ∧ ¬q(x))", st(2, U{"p": {0}, "q": {1}}, nil), false},
		// Element 2 is neither p nor q.
		{"∃x(¬p(x) ∧ ¬q(x))", st(3, U{"p": {0}, "q": {1}}, nil), true},
		// Both p's, 0 and 1, r the q 1.
		{"∀x(p(x) → ∃y(q(y) ∧ r(x,y)))", st(2, U{"p": {0, 1}, "q": {1}}, B{"r": {{0, 1}, {1, 1}}}), true},
		// The p 1 r's nothing, so it r's no q; the argument order matters.
		{"∀x(p(x) → ∃y(q(y) ∧ r(x,y)))", st(2, U{"p": {0, 1}, "q": {1}}, B{"r": {{0, 1}, {1, 0}}}), false},
		// The only artist, 0, hates the beekeeper 1, who admires 0.
		{"∃x(artist(x) ∧ ∀y(beekeeper(y) ∧ admire(y,x) → ¬hate(x,y)))",
			st(2, U{"artist": {0}, "beekeeper": {1}}, B{"admire": {{1, 0}}, "hate": {{0, 1}}}), false},
		// Same, but 1 admires itself rather than 0, so 0 qualifies.
		{"∃x(artist(x) ∧ ∀y(beekeeper(y) ∧ admire(y,x) → ¬hate(x,y)))",
			st(2, U{"artist": {0}, "beekeeper": {1}}, B{"admire": {{1, 1}}, "hate": {{0, 1}}}), true},
		// x = 1 is not p, so the inner ∃x (which finds 1) does not save it.
		{"∀x(p(x) ∧ ∃x(¬p(x)))", st(2, U{"p": {0}}, nil), false},
		// Outer x = 1 is not p; the inner ∃x binds 0 and must not leak out.
		{"∃x(∃x(p(x)) ∧ ¬p(x))", st(2, U{"p": {0}}, nil), true},
		// q is not in the structure, so it is empty.
		{"∃x(q(x))", st(3, U{"p": {0, 1, 2}}, nil), false},
		// r has no loops.
		{"¬∃x(r(x,x))", st(2, nil, B{"r": {{0, 1}, {1, 0}}}), true},
		// Everyone is p or q, nobody both.
		{"∀x(p(x) ∨ q(x)) ∧ ¬∃x(p(x) ∧ q(x))", st(2, U{"p": {0}, "q": {1}}, nil), true},
		// → associates right: p → (q → o); 0 is p and q but not o.
		{"∀x(p(x) → q(x) → o(x))", st(1, U{"p": {0}, "q": {0}}, nil), false},
		// (p → q) → o: p → q fails at 0, so the implication holds.
		{"∀x((p(x) → q(x)) → o(x))", st(1, U{"p": {0}}, nil), true},
	}
	for _, tt := range tests {
		got, err := Eval(mustParse(t, tt.f), tt.s)
		if err != nil {
			t.Errorf("Eval(%s): %v", tt.f, err)
		} else if got != tt.want {
			t.Errorf("Eval(%s) = %v, want %v", tt.f, got, tt.want)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	short := st(2, nil, nil)
	short.Unary["p"] = []bool{true}
	ragged := st(2, nil, B2{"r": nil})
	ragged.Binary["r"][1] = []bool{true}
	tests := []struct {
		f    Formula
		s    *Structure
		want string
	}{
		{all("x", px("p")), st(0, nil, nil), "empty domain"},
		{all("x", px("p")), nil, "nil structure"},
		{all("x", py("p")), st(1, nil, nil), "free variable y"},
		{all("x", px("p")), short, "predicate p has 1 entries, domain has 2"},
		{all("x", all("y", rxy("r"))), ragged, "relation r does not match the domain size 2"},
		{all("x", &Atom{Pred: "t", Args: []Var{"x", "x", "x"}}), st(1, nil, nil), "arity 3"},
	}
	for _, tt := range tests {
		_, err := Eval(tt.f, tt.s)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Eval(%s): got error %v, want one containing %q", String(tt.f), err, tt.want)
		}
	}
}

// B2 names the binary-relation table type of st outside TestEval.
type B2 = map[string][][2]int
