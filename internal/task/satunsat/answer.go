package satunsat

import (
	"fmt"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/eval"
)

// AnswerSet says which answer words a free-text answer is searched for.
type AnswerSet string

// The answer sets: both prompts' words, or only those of Appendix C's
// prompt (a) ("satisfiable"/"unsatisfiable") or prompt (b) ("True"/"False").
const (
	AnswersAny       AnswerSet = "any"
	AnswersSatUnsat  AnswerSet = "satunsat"
	AnswersTrueFalse AnswerSet = "truefalse"
)

// AnswerSets lists the answer sets, for flag help and errors.
func AnswerSets() []string {
	return []string{string(AnswersAny), string(AnswersSatUnsat), string(AnswersTrueFalse)}
}

// answerWords maps lower-case answer words to labels. Prompt (a)'s set
// also holds the short forms of the ClassLabel names and the plain-English
// "consistent"; prompt (b)'s only "true" and "false".
var answerWords = func() map[AnswerSet]map[string]int {
	sat, unsat := dataset.LabelSat, dataset.LabelUnsat
	a := map[string]int{"satisfiable": sat, "unsatisfiable": unsat, "sat": sat, "unsat": unsat,
		"consistent": sat, "inconsistent": unsat}
	b := map[string]int{"true": sat, "false": unsat}
	all := map[string]int{}
	for _, m := range []map[string]int{a, b} {
		for w, l := range m {
			all[w] = l
		}
	}
	return map[AnswerSet]map[string]int{AnswersSatUnsat: a, AnswersTrueFalse: b, AnswersAny: all}
}()

// negators negate an answer word a few filler words later in the same
// clause ("not satisfiable", "cannot all be true"); so does every word
// ending in "n't". prefixNegators negate only the word right after them
// ("non-satisfiable", "un satisfiable").
var (
	negators       = set("not", "never", "cannot")
	prefixNegators = set("un", "non")
	// fillers may stand between a negator and the answer word it negates:
	// copulas, pronouns, modals and adverbs, but no content word, so that
	// "does not love any musician, so satisfiable" is not a negation.
	fillers = set("a", "an", "the", "be", "is", "are", "was", "were", "been", "being", "it", "they",
		"them", "this", "these", "that", "those", "there", "all", "both", "really", "actually",
		"necessarily", "jointly", "simultaneously", "together", "collectively", "mutually",
		"logically", "also", "even", "at", "once", "case", "set", "sentences", "statements", "of",
		"to", "for", "possible", "can", "could", "would", "will", "should", "must", "may", "might", "so")
)

// maxFillers is the most filler words a negation reaches across.
const maxFillers = 8

func set(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[w] = true
	}
	return m
}

// Reading is how a free-text answer was read.
type Reading struct {
	// Label is dataset.LabelSat, dataset.LabelUnsat or eval.Unparseable.
	Label int
	// Phrase is the span of the answer that decided, as written ("not
	// satisfiable", "False"); empty when unparseable.
	Phrase string
}

// ReadAnswer reads a model's free-text answer as a person would. Words
// are maximal runs of letters, digits, underscores and apostrophes,
// compared without regard to case; clauses end at . , ; : ! ? ( ) [ ] and
// line breaks.
//
//  1. The first answer word of set decides: "satisfiable", "sat",
//     "consistent" and "True" mean sat; "unsatisfiable", "unsat",
//     "inconsistent" and "False" unsat. Whole words only, so
//     "unsatisfiable" is never read as "satisfiable" and "Trueish" is no
//     answer; "**False**" and "Satisfiable." are.
//  2. An answer word followed by "or" or "/" offers alternatives ("True or
//     False?", "satisfiable or not"): it and the word after "or" are
//     skipped.
//  3. The answer word is negated, and so its label flipped, when a negator
//     ("not", "never", "cannot" or a word ending in "n't") stands before
//     it in the same clause with at most eight filler words between
//     (copulas, pronouns, modals, "all", "jointly" and the like, never a
//     content word), or "un" or "non" right before it: "not satisfiable",
//     "The sentences are not satisfiable.", "cannot all be true" and "not
//     unsatisfiable" (sat) read so. Negations in reasoning that follows the
//     answer ("False, since some scholar does not love any musician") do
//     not count, nor do those before a content word ("does not love any
//     musician so satisfiable").
//
// Text with no answer word gives eval.Unparseable ("Yes", "I cannot tell").
// An unknown set is an error.
func ReadAnswer(text string, set AnswerSet) (Reading, error) {
	words, ok := answerWords[set]
	if !ok {
		return Reading{}, fmt.Errorf("unknown answer set %q: allowed values are %s", set, strings.Join(AnswerSets(), ", "))
	}
	toks := eval.Tokenize(text)
	for i := 0; i < len(toks); i++ {
		label, ok := words[toks[i].Word]
		if !ok {
			continue
		}
		if alternative(toks, i) {
			if !toks[i].Slash {
				i++ // the "or"
			}
			if i+1 < len(toks) && (isAnswer(words, toks[i+1].Word) || toks[i+1].Word == "not") {
				i++ // the other alternative
			}
			continue
		}
		start := toks[i].Start
		if j := negation(toks, i); j >= 0 {
			label, start = 1-label, toks[j].Start
		}
		return Reading{Label: label, Phrase: text[start:toks[i].End]}, nil
	}
	return Reading{Label: eval.Unparseable}, nil
}

func isAnswer(words map[string]int, w string) bool {
	_, ok := words[w]
	return ok
}

// alternative reports whether answer word i is offered as one of two
// ("True or False", "True/False", "satisfiable or not").
func alternative(toks []eval.Token, i int) bool {
	if toks[i].Slash {
		return true
	}
	return i+1 < len(toks) && !toks[i].Boundary && toks[i+1].Word == "or"
}

// negation returns the index of the negator that negates answer word i,
// or -1.
func negation(toks []eval.Token, i int) int {
	if i > 0 && !toks[i-1].Boundary && prefixNegators[toks[i-1].Word] {
		return i - 1
	}
	for j, between := i-1, 0; j >= 0 && !toks[j].Boundary; j-- {
		w := toks[j].Word
		if negators[w] || strings.HasSuffix(w, "n't") {
			return j
		}
		if !fillers[w] || between == maxFillers {
			return -1
		}
		between++
	}
	return -1
}
