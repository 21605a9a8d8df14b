package fragments

import (
	"slices"
	"strings"
	"testing"
)

// articleExceptions are nouns whose article is not given by their first
// letter: a vowel letter sounded as a consonant, or a silent h.
var articleExceptions = map[string]string{
	"urologist": "a", "unicyclist": "a", "ufologist": "a", "eulogist": "a", // "you-" sound
	"heir": "an", "honoree": "an", "hostler": "an", // silent h
}

// thirdExceptions are verbs whose third person is not the regular one.
var thirdExceptions = map[string]string{"have": "has", "do": "does", "go": "goes", "be": "is"}

func regularThird(base string) string {
	if t, ok := thirdExceptions[base]; ok {
		return t
	}
	for _, suf := range []string{"s", "x", "z", "ch", "sh", "o"} {
		if strings.HasSuffix(base, suf) {
			return base + "es"
		}
	}
	if n := len(base); n > 1 && base[n-1] == 'y' && !strings.ContainsRune("aeiou", rune(base[n-2])) {
		return base[:n-1] + "ies"
	}
	return base + "s"
}

func TestVocabularyInvariants(t *testing.T) {
	nouns, verbs := Nouns(), Verbs()
	if len(nouns) < 156 {
		t.Errorf("got %d nouns, want at least 156 (the paper's count)", len(nouns))
	}
	if len(verbs) < 70 {
		t.Errorf("got %d verbs, want at least 70 (the paper's count)", len(verbs))
	}
	if _, err := NewLexicon(nouns, verbs); err != nil {
		t.Errorf("built-in lexicon: %v", err)
	}
	for _, n := range nouns {
		want := "a"
		if strings.ContainsRune("aeiou", rune(n.Word[0])) {
			want = "an"
		}
		if e, ok := articleExceptions[n.Word]; ok {
			want = e
		}
		if n.Article != want {
			t.Errorf("noun %q: article %q, want %q", n.Word, n.Article, want)
		}
	}
	for _, v := range verbs {
		if want := regularThird(v.Base); v.Third != want {
			t.Errorf("verb %q: third person %q, want %q", v.Base, v.Third, want)
		}
		if v.Base == "have" || v.Base == "be" || v.Base == "do" {
			t.Errorf("verb %q is not wanted: it does not take a person as object", v.Base)
		}
	}
	if !slices.IsSortedFunc(nouns, func(a, b Noun) int { return strings.Compare(a.Word, b.Word) }) {
		t.Error("nouns are not in alphabetical order")
	}
	if !slices.IsSortedFunc(verbs, func(a, b Verb) int { return strings.Compare(a.Base, b.Base) }) {
		t.Error("verbs are not in alphabetical order")
	}
}

// TestFigure1Words checks that the words of the paper's Figure 1 example
// and of the spec's examples are in the vocabulary.
func TestFigure1Words(t *testing.T) {
	for _, w := range []string{"scholar", "poet", "musician", "artist", "beekeeper", "engineer"} {
		if _, ok := LookupNoun(w); !ok {
			t.Errorf("noun %q missing", w)
		}
	}
	for _, w := range []string{"love", "admire", "hate", "envy", "fear", "trust", "teach", "obey"} {
		if _, ok := LookupVerb(w); !ok {
			t.Errorf("verb %q missing", w)
		}
	}
}

func TestNewLexiconErrors(t *testing.T) {
	ok := []Noun{{"artist", "an"}}
	okV := []Verb{{"admire", "admires"}}
	tests := []struct {
		name  string
		nouns []Noun
		verbs []Verb
		want  string
	}{
		{"duplicate noun", []Noun{{"artist", "an"}, {"artist", "an"}}, okV, `noun "artist" is also a noun`},
		{"noun and verb", []Noun{{"admire", "an"}}, okV, `verb "admire" is also a noun`},
		{"upper case", []Noun{{"Artist", "an"}}, okV, "not lower-case letters only"},
		{"hyphen", []Noun{{"bee-keeper", "a"}}, okV, "not lower-case letters only"},
		{"two words", []Noun{{"bee keeper", "a"}}, okV, "not lower-case letters only"},
		{"reserved", []Noun{{"some", "a"}}, okV, `"some" is reserved`},
		{"smtlib reserved", ok, []Verb{{"assert", "asserts"}}, `"assert" is reserved`},
		{"bad article", []Noun{{"artist", "the"}}, okV, `article "the"`},
		{"empty", []Noun{{"", "a"}}, okV, "empty word"},
		{"third equals base", ok, []Verb{{"hit", "hit"}}, "equals the base"},
		{"third is a noun", []Noun{{"admires", "an"}}, okV, `verb form "admires" is also a noun`},
	}
	for _, tc := range tests {
		_, err := NewLexicon(tc.nouns, tc.verbs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestLookups(t *testing.T) {
	lx := Default()
	if n, ok := lx.Noun("urologist"); !ok || n.Article != "a" {
		t.Errorf("Noun(urologist) = %v, %v", n, ok)
	}
	if v, ok := lx.VerbByThird("envies"); !ok || v.Base != "envy" {
		t.Errorf("VerbByThird(envies) = %v, %v", v, ok)
	}
	if _, ok := lx.Verb("envies"); ok {
		t.Error("Verb(envies) found a third-person form as a base")
	}
	if _, ok := lx.Noun("admire"); ok {
		t.Error("Noun(admire) found a verb")
	}
}
