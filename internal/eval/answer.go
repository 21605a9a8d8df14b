package eval

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/nlsat/nlsat/internal/dataset"
)

// Unparseable is the label of an answer in which no answer word was found.
const Unparseable = -1

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
	// Label is dataset.LabelSat, dataset.LabelUnsat or Unparseable.
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
// Text with no answer word gives Unparseable ("Yes", "I cannot tell").
// An unknown set is an error.
func ReadAnswer(text string, set AnswerSet) (Reading, error) {
	words, ok := answerWords[set]
	if !ok {
		return Reading{}, fmt.Errorf("unknown answer set %q: allowed values are %s", set, strings.Join(AnswerSets(), ", "))
	}
	toks := tokenize(text)
	for i := 0; i < len(toks); i++ {
		label, ok := words[toks[i].word]
		if !ok {
			continue
		}
		if alternative(toks, i) {
			if !toks[i].slash {
				i++ // the "or"
			}
			if i+1 < len(toks) && (isAnswer(words, toks[i+1].word) || toks[i+1].word == "not") {
				i++ // the other alternative
			}
			continue
		}
		start := toks[i].start
		if j := negation(toks, i); j >= 0 {
			label, start = 1-label, toks[j].start
		}
		return Reading{Label: label, Phrase: text[start:toks[i].end]}, nil
	}
	return Reading{Label: Unparseable}, nil
}

func isAnswer(words map[string]int, w string) bool {
	_, ok := words[w]
	return ok
}

// alternative reports whether answer word i is offered as one of two
// ("True or False", "True/False", "satisfiable or not").
func alternative(toks []token, i int) bool {
	if toks[i].slash {
		return true
	}
	return i+1 < len(toks) && !toks[i].boundary && toks[i+1].word == "or"
}

// negation returns the index of the negator that negates answer word i,
// or -1.
func negation(toks []token, i int) int {
	if i > 0 && !toks[i-1].boundary && prefixNegators[toks[i-1].word] {
		return i - 1
	}
	for j, between := i-1, 0; j >= 0 && !toks[j].boundary; j-- {
		w := toks[j].word
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

// token is a lower-cased word of a text and where it is. boundary says
// that a clause ends after it, slash that a "/" follows it.
type token struct {
	word            string
	start, end      int
	boundary, slash bool
}

func tokenize(text string) []token {
	var toks []token
	start := -1
	for i, r := range text + " " {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			toks = appendWord(toks, text, start, i)
			start = -1
		}
		if len(toks) > 0 {
			t := &toks[len(toks)-1]
			t.boundary = t.boundary || strings.ContainsRune(".,;:!?()[]\n", r)
			t.slash = t.slash || r == '/'
		}
	}
	return toks
}

// appendWord appends text[start:end] as a word, without the quotes that
// apostrophes at either end make ('satisfiable').
func appendWord(toks []token, text string, start, end int) []token {
	for _, q := range []string{"'", "’"} {
		for strings.HasPrefix(text[start:end], q) {
			start += len(q)
		}
		for strings.HasSuffix(text[start:end], q) {
			end -= len(q)
		}
	}
	if start >= end {
		return toks
	}
	w := strings.ToLower(strings.ReplaceAll(text[start:end], "’", "'"))
	return append(toks, token{word: w, start: start, end: end})
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '\'' || r == '’'
}
