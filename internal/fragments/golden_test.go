package fragments

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/golden"
)

// TestTemplatesGolden writes every shape's id, English and formula (in
// fol's text syntax) side by side, in canonical shape order, and compares
// with testdata/templates.golden. Regenerate with go test -update.
func TestTemplatesGolden(t *testing.T) {
	byID := map[string]templateCase{}
	for _, tc := range templateCases {
		byID[tc.id] = tc
	}
	var b strings.Builder
	for _, sh := range A.Shapes() {
		tc, ok := byID[sh.ID()]
		if !ok {
			t.Fatalf("no template case for %s", sh.ID())
		}
		s := sen(t, tc.id, tc.o, tc.p, tc.q, tc.r, tc.s)
		fmt.Fprintf(&b, "%s | %s | %s\n", s.ID(), s.English(), fol.String(s.Formula()))
	}
	compareGolden(t, "templates.golden", b.String())
}

func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), []byte(got))
}

// TestFormulaText: a sentence's formula written from its shape's recipe
// is the text of its formula, for every shape, every polarity of its
// nouns, and words of any letters, the same word in two roles included.
func TestFormulaText(t *testing.T) {
	wordSets := [][5]string{
		{"artist", "baker", "carpenter", "admires", "loves"},
		{"artist", "artist", "artist", "admires", "admires"},
		{"café-owner", "x(y)", "∀", "a b", "0"},
	}
	for _, sh := range A.Shapes() {
		for negs := range 8 {
			for _, w := range wordSets {
				s := Sentence{Shape: sh, O: Term{Noun: w[0], Neg: negs&1 != 0}, P: Term{Noun: w[1], Neg: negs&2 != 0},
					Q: Term{Noun: w[2], Neg: negs&4 != 0}, R: w[3], S: w[4]}
				if got, want := s.FormulaText(), fol.String(s.Formula()); got != want {
					t.Fatalf("%s, polarities %03b, words %q: %q, want %q", sh.ID(), negs, w, got, want)
				}
			}
		}
	}
}
