package fol

import (
	"slices"
	"strings"
	"testing"
)

func TestIsIdent(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"x", true}, {"artist", true}, {"p_2", true}, {"a1_b", true},
		{"", false}, {"X", false}, {"1x", false}, {"_x", false},
		{"non-artist", false}, {"forall", false}, {"exists", false},
		{"foralls", true}, {"café", false}, {"a b", false},
	}
	for _, tt := range tests {
		if got := IsIdent(tt.s); got != tt.want {
			t.Errorf("IsIdent(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		f    Formula
		want string // "" for a well-formed tree
	}{
		{every(px("p"), px("q")), ""},
		{nil, "nil formula"},
		{not(nil), "nil formula"},
		{(*Not)(nil), "nil negation"},
		{&And{Fs: []Formula{px("p")}}, "conjunction with 1 operands"},
		{&Or{}, "disjunction with 0 operands"},
		{all("x", &Atom{Pred: "p"}), "atom p has no arguments"},
		{u("Artist", "x"), `invalid predicate name "Artist"`},
		{u("forall", "x"), `invalid predicate name "forall"`},
		{u("p", "X"), `invalid variable name "X"`},
		{all("x y", px("p")), `invalid bound variable name "x y"`},
		{imp(px("p"), rawOr(px("q"), nil)), "nil formula"},
	}
	for _, tt := range tests {
		err := Validate(tt.f)
		var got string
		if err != nil {
			got = err.Error()
		}
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("Validate(%s) = %q, want %q", String(tt.f), got, tt.want)
		}
	}
}

func TestFreeVars(t *testing.T) {
	tests := []struct {
		in   string
		want []Var
	}{
		{"∀x(p(x) → q(x))", []Var{}},
		{"r(y,x) ∧ p(z)", []Var{"x", "y", "z"}},
		{"∃x(r(x,y)) ∧ p(x)", []Var{"x", "y"}},
		{"∀x(∃x(p(x)) ∧ q(x))", []Var{}},
		{"∀y(∃x(r(x,y)) → ∀x(r(x,w)))", []Var{"w"}},
	}
	for _, tt := range tests {
		f, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := FreeVars(f); !slices.Equal(got, tt.want) {
			t.Errorf("FreeVars(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestStringMalformed checks that String never fails, while Fprint refuses
// a tree it could not print faithfully.
func TestStringMalformed(t *testing.T) {
	f := and(px("p"), not(nil))
	if got, want := String(f), "p(x) ∧ ¬<nil>"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	var b strings.Builder
	if err := Fprint(&b, f); err == nil || b.Len() != 0 {
		t.Errorf("Fprint of a malformed tree: err %v, wrote %q", err, b.String())
	}
}
