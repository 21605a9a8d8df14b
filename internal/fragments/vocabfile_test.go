package fragments

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func sameLexicon(a, b *Lexicon) bool {
	return slices.Equal(a.nouns, b.nouns) && slices.Equal(a.verbs, b.verbs)
}

// The built-in vocabulary and a small one survive the file form and the
// JSON form unchanged, order included, and keep their digest.
func TestLexiconRoundTrips(t *testing.T) {
	small, err := NewLexicon([]Noun{{"owl", "an"}, {"poet", "a"}}, []Verb{{"fix", "fixes"}})
	if err != nil {
		t.Fatal(err)
	}
	for name, lx := range map[string]*Lexicon{"default": Default(), "small": small} {
		var b bytes.Buffer
		if err := lx.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		back, err := ReadLexicon(&b, "v.txt")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !sameLexicon(lx, back) || back.Digest() != lx.Digest() {
			t.Errorf("%s: the file form did not round-trip", name)
		}
		data, err := json.Marshal(lx)
		if err != nil {
			t.Fatal(err)
		}
		var fromJSON Lexicon
		if err := json.Unmarshal(data, &fromJSON); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !sameLexicon(lx, &fromJSON) {
			t.Errorf("%s: the JSON form did not round-trip", name)
		}
	}
	if small.Digest() == Default().Digest() {
		t.Error("two different lexicons share a digest")
	}
}

func TestReadLexiconErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"noun a poet\nnoun poet a\n", `v.txt: invalid lexicon: noun: word "a" is reserved`},
		{"noun a poet\nadjective red\n", `v.txt:2: "adjective red": expected "noun ARTICLE WORD" or "verb BASE THIRD"`},
		{"noun a poet extra\n", `v.txt:1: "noun a poet extra": expected`},
		{"# only a comment\n", `v.txt: no nouns`},
		{"verb fix fixes\n", `v.txt: no nouns`},
		{"noun a poet\nnoun a poet\n", `noun "poet" is also a noun`},
		{"noun the poet\n", `article "the" is not a or an`},
		{"noun a Poet\n", `"Poet" is not lower-case letters only`},
		{"noun a poet\nverb poet poets\n", `verb "poet" is also a noun`},
		{"noun a poet\nverb fix fix\n", `third person equals the base form`},
		{"noun a every\n", `"every" is reserved`},
	} {
		_, err := ReadLexicon(strings.NewReader(tc.in), "v.txt")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadLexicon(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
}

// Comments, blank lines and extra spaces are ignored.
func TestReadLexiconLayout(t *testing.T) {
	lx, err := ReadLexicon(strings.NewReader("# words\n\n  noun  an   owl # a bird\nverb fix fixes\n"), "v.txt")
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := lx.Noun("owl"); !ok || n.Article != "an" || len(lx.Verbs()) != 1 {
		t.Errorf("got %+v", lx)
	}
}

// Whatever ReadLexicon accepts writes back to text it reads to the same
// lexicon, and parses the sentences it renders.
func FuzzReadLexicon(f *testing.F) {
	f.Add("noun an owl\nnoun a poet\nverb fix fixes\n")
	f.Add("noun a poet # x\n\nverb see sees")
	f.Add("verb\n")
	f.Fuzz(func(t *testing.T, in string) {
		lx, err := ReadLexicon(strings.NewReader(in), "f")
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := lx.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		back, err := ReadLexicon(&b, "f")
		if err != nil || !sameLexicon(lx, back) {
			t.Fatalf("round trip of %q failed: %v", in, err)
		}
		p := DefaultParams()
		p.Lexicon = lx
		if Validate(S, p, 1, 2, 0) != nil {
			return
		}
		inst, err := Sample(rand.New(rand.NewPCG(1, 2)), S, p, 1, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range inst.English() {
			if _, err := lx.Parse(e); err != nil {
				t.Fatalf("%q: %v", e, err)
			}
		}
	})
}
