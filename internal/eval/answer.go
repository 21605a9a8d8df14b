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

// answerWords maps lower-case answer words to labels.
var answerWords = map[AnswerSet]map[string]int{
	AnswersSatUnsat:  {"satisfiable": dataset.LabelSat, "unsatisfiable": dataset.LabelUnsat},
	AnswersTrueFalse: {"true": dataset.LabelSat, "false": dataset.LabelUnsat},
	AnswersAny: {"satisfiable": dataset.LabelSat, "unsatisfiable": dataset.LabelUnsat,
		"true": dataset.LabelSat, "false": dataset.LabelUnsat},
}

// ParseAnswer maps a model's free-text answer to a label: the first word of
// the text, compared without regard to case, that is an answer word of set
// decides (1 for "satisfiable" and "True", 0 for "unsatisfiable" and
// "False"). Words are maximal runs of letters, digits and underscores, as
// \b delimits them in the generate_until tasks' flexible-extract filter
// (see package prompt), so "unsatisfiable" is never read as
// "satisfiable", "Satisfiable." and "**False**" are answers, and "Trueish"
// is not. Text without an answer word gives Unparseable.
func ParseAnswer(text string, set AnswerSet) (int, error) {
	words, ok := answerWords[set]
	if !ok {
		return 0, fmt.Errorf("unknown answer set %q: allowed values are %s", set, strings.Join(AnswerSets(), ", "))
	}
	for _, w := range strings.FieldsFunc(text, notWordRune) {
		if label, ok := words[strings.ToLower(w)]; ok {
			return label, nil
		}
	}
	return Unparseable, nil
}

func notWordRune(r rune) bool {
	return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}
