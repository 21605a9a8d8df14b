package fol

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRoundTrip is the property Parse(String(f)) = f = Parse(ASCII(f)) on
// random formulas built with Conj and Disj, open and closed.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		c := genConfig{depth: 1 + i%5}
		if i%3 == 0 {
			c.free = 0.2
		}
		f := c.randSentence(r)
		for _, s := range []string{String(f), ASCII(f)} {
			g, err := Parse(s)
			if err != nil {
				t.Fatalf("Parse(%s): %v", s, err)
			}
			if !Equal(f, g) {
				t.Fatalf("Parse(%s) = %s, want the same tree", s, String(g))
			}
		}
	}
}

func TestRoundTripCases(t *testing.T) {
	for _, c := range allCases() {
		if strings.HasPrefix(c.name, "raw-") {
			continue // not flattened, so Parse cannot give the same tree
		}
		for _, s := range []string{String(c.f), ASCII(c.f)} {
			g, err := Parse(s)
			if err != nil {
				t.Errorf("%s: Parse(%s): %v", c.name, s, err)
			} else if !Equal(c.f, g) {
				t.Errorf("%s: Parse(%s) = %s", c.name, s, String(g))
			}
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Formula
	}{
		{"p(x)", px("p")},
		{"  ∀ x ( p ( x ) )  ", all("x", px("p"))},
		{"forall x (p(x) → ~q(x))", every(px("p"), not(px("q")))},
		{"∀x∃y r(x,y)", all("x", some("y", rxy("r")))},
		{"p(x) & q(x) ∧ o(x)", and(px("p"), px("q"), px("o"))},
		{"(p(x) & q(x)) & o(x)", and(px("p"), px("q"), px("o"))},
		{"p(x) | (q(x) ∨ o(x))", or(px("p"), px("q"), px("o"))},
		{"p(x) | q(x) & o(x)", or(px("p"), and(px("q"), px("o")))},
		{"p(x) -> q(x) -> o(x)", imp(px("p"), imp(px("q"), px("o")))},
		{"(p(x) -> q(x)) -> o(x)", imp(imp(px("p"), px("q")), px("o"))},
		{"~p(x) & q(x)", and(not(px("p")), px("q"))},
		{"¬(p(x) ∧ q(x))", not(and(px("p"), px("q")))},
		{"∀x(p(x)) ∧ q(x)", and(all("x", px("p")), px("q"))},
		{"∀x ¬p(x) → q(x)", imp(all("x", not(px("p"))), px("q"))},
		{"((p(x)))", px("p")},
		{"t(x,y,z)", &Atom{Pred: "t", Args: []Var{"x", "y", "z"}}},
		{"p(x)\n& q(x)", and(px("p"), px("q"))},
		{"existsy(x)", u("existsy", "x")},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
		} else if !Equal(got, tt.want) {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, String(got), String(tt.want))
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"∀x(p(x) → q(x)", `column 15: expected ")" to close "(" at column 3, found end of input`},
		{"exists x(r(x,y & p(x))", `column 16: expected ")" after arguments of r, found "&"`},
		{"", "column 1: expected a formula, found end of input"},
		{"p", `column 2: expected "(" after predicate p, found end of input`},
		{"p()", `column 3: expected a variable in the arguments of p, found ")"`},
		{"p(x) q(x)", `column 6: expected a connective or end of input, found "q"`},
		{"∀(p(x))", `column 2: expected a variable after "∀", found "("`},
		{"forall forall(p(x))", `column 8: expected a variable after "forall", found "forall"`},
		{"P(x)", `column 1: unexpected 'P': names are lower-case`},
		{"p(x) - q(x)", `column 6: unexpected character '-'`},
		{"p(x) ∧ ∧ q(x)", `column 8: expected a formula, found "∧"`},
		{"p(x) &\n  ! q(x)", `line 2, column 3: unexpected character '!'`},
		{"p(x\xff)", "column 4: invalid UTF-8 byte 0xff"},
		{strings.Repeat("~", maxDepth+1) + "p(x)", "column 1001: formula nested more than 1000 deep"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q): got error %v, want %s", tt.in, err, tt.want)
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset > len(tt.in) {
			t.Errorf("Parse(%q): error %#v is not a *SyntaxError with a valid offset", tt.in, err)
		}
	}
}

func TestParseSentence(t *testing.T) {
	tests := []struct {
		in      string
		wantErr string
	}{
		{"∀x(p(x) → ∃y(r(x,y)))", ""},
		{"∀x(p(x) ∧ ∃x(q(x)))", ""},
		{"∀x(p(x) → q(y))", "free variable y in a sentence"},
		{"∃x(r(x,y)) ∧ ∀y(p(y))", "free variable y in a sentence"},
		{"∀x(p(x) → p(x,x))", `inconsistent signature: predicate "p" used with arities 1 and 2`},
		{"∀x(t(x,x,x))", "predicate t has arity 3; only 1 and 2 are supported"},
		{"∀x(p(x", `column 7: expected ")" after arguments of p, found end of input`},
	}
	for _, tt := range tests {
		_, err := ParseSentence(tt.in)
		var got string
		if err != nil {
			got = err.Error()
		}
		if got != tt.wantErr {
			t.Errorf("ParseSentence(%q): got error %q, want %q", tt.in, got, tt.wantErr)
		}
	}
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// prints, in both forms, to text that parses back to the same tree.
func FuzzParse(f *testing.F) {
	for _, c := range allCases() {
		f.Add(String(c.f))
		f.Add(ASCII(c.f))
	}
	f.Add("p(x) | q(x) & o(x) -> ~r(x,y)")
	f.Add("∀x(p(x")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := Parse(s)
		if err != nil {
			var se *SyntaxError
			if errors.As(err, &se) && (se.Offset < 0 || se.Offset > len(s)) {
				t.Fatalf("offset %d out of range", se.Offset)
			}
			return
		}
		if err := Validate(g); err != nil {
			t.Fatalf("Parse(%q) gave a malformed tree: %v", s, err)
		}
		for _, out := range []string{String(g), ASCII(g)} {
			h, err := Parse(out)
			if err != nil {
				t.Fatalf("Parse(%q) re-printed as %q, which fails: %v", s, out, err)
			}
			if !Equal(g, h) {
				t.Fatalf("Parse(%q) re-printed as %q, which parses differently", s, out)
			}
		}
	})
}
