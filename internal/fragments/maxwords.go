package fragments

import (
	"slices"
	"strings"
)

// MaxSentenceWords returns the most words, counted as the text split at
// spaces (the paper's Table 5), that one sentence of fragment f can have.
// Every noun and verb is a single word (NewLexicon checks it), so the
// count depends only on the sentence's shape and polarities, which are
// all tried. An instance of m sentences of f therefore never has more
// than m·MaxSentenceWords(f) words.
func MaxSentenceWords(f Fragment) int {
	most := 0
	nouns := []string{"artist", "baker", "carpenter"}
	for _, sh := range f.Shapes() {
		l := layoutOf(sh.Template)
		for neg := range 1 << len(l.nouns) {
			s := Sentence{Shape: sh}
			for i, r := range l.nouns {
				*s.term(r) = Term{Noun: nouns[i], Neg: neg&(1<<i) != 0 && slices.Contains(l.neg, r)}
			}
			if l.verbs > 0 {
				s.R = "admire"
			}
			if l.verbs > 1 {
				s.S = "hate"
			}
			most = max(most, len(strings.Fields(s.English())))
		}
	}
	return most
}
