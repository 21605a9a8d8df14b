package fragments

import (
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Every artist admire some beekeeper.", `"Every artist admire some beekeeper.": word 3 "admire": expected a verb in the third person (admires) or "is" or "who"`},
		{"Every artist is a poet", `missing full stop`},
		{"every artist is a poet.", `word 1 "every": expected "Every" or "No" or "Some"`},
		{"Every artist is a  poet.", `word 5 "": expected a word`},
		{" Every artist is a poet.", `word 1 "": expected a word`},
		{"Every artist is a poet .", `word 6 "": expected a word`},
		{"Every artist is an poet.", `word 4 "an": expected "a" before "poet"`},
		{"Every poet is a artist.", `word 4 "a": expected "an" before "artist"`},
		{"Every poet is a non-artist.", `word 5 "non-artist": expected a noun of the vocabulary`},
		{"Every unicorn is a poet.", `word 2 "unicorn": expected a noun`},
		{"Every poet is not a scholar.", `word 4 "not": expected "a" or "an"`},
		{"Every poet is a.", `word 5: sentence ends early: expected a noun`},
		{"Every poet is a scholar who is a singer.", `word 6 "who": expected the end of the sentence`},
		{"Every poet does not love any scholar.", `word 3 "does": expected a verb in the third person or "is" or "who"`},
		{"Some poet does not loves any scholar.", `word 5 "loves": expected a verb in the base form (love)`},
		{"Some poet does love any scholar.", `word 4 "love": expected "not"`},
		{"Some poet does not love some scholar.", `word 6 "some": expected "any" or "every"`},
		{"Every poet loves any scholar.", `word 4 "any": expected "every" or "some"`},
		{"No poet loves some scholar.", `word 4 "some": expected "any" or "every"`},
		{"Every poet loves every scholar who.", `word 7: sentence ends early: expected a verb in the third person`},
		{"Every poet loves every scholar who hates.", `word 8: sentence ends early: expected "him"`},
		{"Every poet loves every scholar who hates them.", `word 8 "them": expected "him"`},
		{"Every poet loves every scholar and.", `word 6 "and": expected "who" or the end of the sentence`},
		{"Every poet who loves any scholar is a singer.", `word 5 "any": expected "some" or "every"`},
		{"Every poet who does not love some scholar is a singer.", `word 7 "some": expected "any" or "every"`},
		{"Every poet who love some scholar is a singer.", `word 4 "love": expected "is" or "does" or a verb in the third person (loves)`},
		{"Every poet who is a scholar is not a singer.", `word 8 "not": expected "a" or "an"`},
		{"No poet is not a singer.", `word 4 "not": expected "a" or "an"`},
		{"Every poet who is a non-scholar is a singer.", `word 6 "non-scholar": expected a noun`},
		{"Every loves is a poet.", `word 2 "loves": expected a noun`},
		{"Every poet loves every non-loves.", `word 5 "non-loves": expected a noun`},
		{"Every non- is a poet.", `word 2 "non-": expected a noun`},
		{".", `word 1 "": expected a word`},
		{"", `missing full stop`},
	}
	for _, tc := range tests {
		_, err := Parse(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q): got error %v, want one containing %q", tc.in, err, tc.want)
		}
	}
}

// TestFigure1 parses the paper's Figure 1 style example and checks its
// formulas. The set is unsatisfiable: the scholar who loves no musician is
// a poet, and every poet loves some musician.
func TestFigure1(t *testing.T) {
	text := "Every scholar is a poet. Every poet loves some musician. Some scholar does not love any musician."
	ss, err := ParseText(text)
	if err != nil {
		t.Fatal(err)
	}
	sch, poet, mus, love := u("scholar", x), u("poet", x), u("musician", y), bin("love", x, y)
	want := []struct {
		id string
		f  fol.Formula
	}{
		{"S1", all(x, imp(sch, poet))},
		{"V1.every-some", all(x, imp(poet, ex(y, and(mus, love))))},
		{"V3.any", ex(x, and(sch, all(y, imp(mus, not(love)))))},
	}
	if len(ss) != len(want) {
		t.Fatalf("got %d sentences, want %d", len(ss), len(want))
	}
	for i, s := range ss {
		if s.ID() != want[i].id || !fol.Equal(s.Formula(), want[i].f) {
			t.Errorf("sentence %d: id %s, formula differs or id is not %s", i+1, s.ID(), want[i].id)
		}
		if s.Fragment() > V {
			t.Errorf("sentence %d: fragment %v, want at most V", i+1, s.Fragment())
		}
	}
	in := Instance{Fragment: V, Sentences: ss}
	if in.Text() != text {
		t.Errorf("Text() = %q, want %q", in.Text(), text)
	}
	fs := in.Formulas()
	if !unsatBySearch(t, fs, 2) {
		t.Error("Figure 1 set has a model of size <= 2; it should be unsatisfiable")
	}
	for i := range fs {
		rest := append(append([]fol.Formula(nil), fs[:i]...), fs[i+1:]...)
		if unsatBySearch(t, rest, 2) {
			t.Errorf("Figure 1 without sentence %d has no small model; each sentence is needed", i+1)
		}
	}
}

func TestParseLines(t *testing.T) {
	ss, err := ParseLines(strings.NewReader("Every poet is a scholar.\n\nNo scholar is a singer.\n"))
	if err != nil || len(ss) != 2 {
		t.Fatalf("ParseLines = %v, %v", ss, err)
	}
	_, err = ParseLines(strings.NewReader("Every poet is a scholar.\nNo scholar is a singers.\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "line 2: ") {
		t.Errorf("ParseLines error = %v, want one naming line 2", err)
	}
	if _, err := ParseText("Every poet is a scholar.  No scholar is a singer."); err == nil {
		t.Error("ParseText accepted a double space")
	}
}

func FuzzParse(f *testing.F) {
	for _, tc := range templateCases {
		f.Add(tc.english)
	}
	f.Add("Every artist admire some beekeeper.")
	f.Add("Some non-poet who is not a scholar is not an engineer.")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("Parse(%q) gave an ill-formed sentence: %v", in, err)
		}
		if out := s.English(); out != in {
			t.Fatalf("Parse(%q) renders back as %q", in, out)
		}
	})
}
