package satunsat

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nlsat/nlsat/internal/eval"
)

// answerTable holds answers as models give them to the two prompts of
// Appendix C (after "A:", cut at a blank line as the generate_until tasks
// cut them), with the label a person reads in each and the phrase that
// decides. "" as phrase means unparseable.
var answerTable = []struct {
	text   string
	set    AnswerSet
	want   int
	phrase string
}{
	// The answers the prompts ask for, as written.
	{" satisfiable", AnswersAny, 1, "satisfiable"},
	{" unsatisfiable", AnswersAny, 0, "unsatisfiable"},
	{" Satisfiable.", AnswersAny, 1, "Satisfiable"},
	{" UNSATISFIABLE", AnswersAny, 0, "UNSATISFIABLE"},
	{"  Unsatisfiable\n\nQ: next", AnswersAny, 0, "Unsatisfiable"},
	{" **Unsatisfiable**", AnswersAny, 0, "Unsatisfiable"},
	{" True", AnswersAny, 1, "True"},
	{" False", AnswersAny, 0, "False"},
	{" false.", AnswersAny, 0, "false"},
	{"A: True", AnswersAny, 1, "True"},
	{" 'False'", AnswersAny, 0, "False"},
	{" “True”", AnswersAny, 1, "True"},
	// Sentences around the answer.
	{" The answer is True", AnswersAny, 1, "True"},
	{" I think False", AnswersAny, 0, "False"},
	{" The sentences are satisfiable.", AnswersAny, 1, "satisfiable"},
	{" The set is unsatisfiable, not satisfiable.", AnswersAny, 0, "unsatisfiable"},
	{" Answer: satisfiable, not unsatisfiable", AnswersAny, 1, "satisfiable"},
	{" **Answer:** Unsatisfiable", AnswersAny, 0, "Unsatisfiable"},
	{" They are consistent.", AnswersAny, 1, "consistent"},
	{" The set is inconsistent", AnswersAny, 0, "inconsistent"},
	// Short forms.
	{" sat", AnswersAny, 1, "sat"},
	{" unsat", AnswersAny, 0, "unsat"},
	{" UNSAT.", AnswersAny, 0, "UNSAT"},
	// Negations of an answer word flip it.
	{" not satisfiable", AnswersAny, 0, "not satisfiable"},
	{" Not satisfiable.", AnswersAny, 0, "Not satisfiable"},
	{" The sentences are not satisfiable.", AnswersAny, 0, "not satisfiable"},
	{" They are NOT satisfiable", AnswersAny, 0, "NOT satisfiable"},
	{" It is not satisfiable", AnswersAny, 0, "not satisfiable"},
	{" They aren't satisfiable", AnswersAny, 0, "aren't satisfiable"},
	{" They aren’t satisfiable", AnswersAny, 0, "aren’t satisfiable"},
	{" They are not jointly satisfiable.", AnswersAny, 0, "not jointly satisfiable"},
	{" They cannot all be true at once.", AnswersAny, 0, "cannot all be true"},
	{" They can't all be true.", AnswersAny, 0, "can't all be true"},
	{" It is not the case that they are satisfiable", AnswersAny, 0, "not the case that they are satisfiable"},
	{" It is not possible for all of them to be true.", AnswersAny, 0, "not possible for all of them to be true"},
	{" This is not true.", AnswersAny, 0, "not true"},
	{" Never satisfiable", AnswersAny, 0, "Never satisfiable"},
	{" non-satisfiable", AnswersAny, 0, "non-satisfiable"},
	{" not unsatisfiable", AnswersAny, 1, "not unsatisfiable"},
	{" That isn't false.", AnswersAny, 1, "isn't false"},
	{" No, they are not satisfiable.", AnswersAny, 0, "not satisfiable"},
	// Negations that do not reach the answer word: another clause, or a
	// content word between.
	{" No, they are satisfiable.", AnswersAny, 1, "satisfiable"},
	{" Not sure. Satisfiable.", AnswersAny, 1, "Satisfiable"},
	{" I am not sure, but True", AnswersAny, 1, "True"},
	{" Some scholar does not love any musician so unsatisfiable", AnswersAny, 0, "unsatisfiable"},
	{" Every non-poet is a scholar, so satisfiable", AnswersAny, 1, "satisfiable"},
	// True/False first, reasoning after it, with its own negations.
	{" False. Every scholar is a poet and every poet loves some musician, so the scholar who does not love any musician cannot exist; that is not true.", AnswersAny, 0, "False"},
	{" True, because the sentences are not contradictory.", AnswersAny, 1, "True"},
	{" False, since some scholar does not love any musician", AnswersAny, 0, "False"},
	{" True (a model: one poet who is a scholar)", AnswersAny, 1, "True"},
	{" False\nExplanation: it is not possible that...", AnswersAny, 0, "False"},
	// Alternatives restating the question are not answers.
	{" True or False? False.", AnswersAny, 0, "False"},
	{" True/False: True", AnswersAny, 1, "True"},
	{" satisfiable or unsatisfiable? Unsatisfiable", AnswersAny, 0, "Unsatisfiable"},
	{" whether they are satisfiable or not: they are not satisfiable", AnswersAny, 0, "not satisfiable"},
	{" True or False? I say unsatisfiable", AnswersAny, 0, "unsatisfiable"},
	// Whole words only.
	{" Trueish", AnswersAny, eval.Unparseable, ""},
	{" satisfiability", AnswersAny, eval.Unparseable, ""},
	{" untrue", AnswersAny, eval.Unparseable, ""},
	{" True1", AnswersAny, eval.Unparseable, ""},
	{" satisfied", AnswersAny, eval.Unparseable, ""},
	// No answer word.
	{"", AnswersAny, eval.Unparseable, ""},
	{"   ", AnswersAny, eval.Unparseable, ""},
	{" maybe", AnswersAny, eval.Unparseable, ""},
	{" I cannot tell.", AnswersAny, eval.Unparseable, ""},
	{" Yes", AnswersAny, eval.Unparseable, ""},
	{" No", AnswersAny, eval.Unparseable, ""},
	{" Every scholar is a poet.", AnswersAny, eval.Unparseable, ""},
	{" [invalid]", AnswersAny, eval.Unparseable, ""}, // the harness's regex filter on no match
	{"'''", AnswersAny, eval.Unparseable, ""},
	// A narrower answer set skips the other prompt's words.
	{" True, it is unsatisfiable", AnswersSatUnsat, 0, "unsatisfiable"},
	{" It is true", AnswersSatUnsat, eval.Unparseable, ""},
	{" Satisfiable? False.", AnswersTrueFalse, 0, "False"},
	{" satisfiable", AnswersTrueFalse, eval.Unparseable, ""},
	{" sat", AnswersTrueFalse, eval.Unparseable, ""},
}

// TestReadAnswer reads the table of answers; the reading rule is the doc
// comment of ReadAnswer.
func TestReadAnswer(t *testing.T) {
	for _, tt := range answerTable {
		got, err := ReadAnswer(tt.text, tt.set)
		if err != nil {
			t.Fatal(err)
		}
		if got.Label != tt.want || got.Phrase != tt.phrase {
			t.Errorf("ReadAnswer(%q, %s) = %d %q, want %d %q", tt.text, tt.set, got.Label, got.Phrase, tt.want, tt.phrase)
		}
	}
	if _, err := ReadAnswer("True", "yesno"); err == nil || !strings.Contains(err.Error(), "allowed values are any, satunsat, truefalse") {
		t.Errorf("an unknown answer set: %v", err)
	}
}

// FuzzReadAnswer: the reader never panics; what it reads is a label with
// a phrase of the text that holds an answer word, or unparseable with no
// phrase; the answer words alone read as themselves.
func FuzzReadAnswer(f *testing.F) {
	for _, tt := range answerTable {
		f.Add(tt.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := ReadAnswer(text, AnswersAny)
		if err != nil {
			t.Fatal(err)
		}
		switch r.Label {
		case eval.Unparseable:
			if r.Phrase != "" {
				t.Fatalf("%q: unparseable with phrase %q", text, r.Phrase)
			}
		case 0, 1:
			if !strings.Contains(text, r.Phrase) || r.Phrase == "" {
				t.Fatalf("%q: phrase %q is not in the text", text, r.Phrase)
			}
			again, _ := ReadAnswer(r.Phrase, AnswersAny)
			if utf8.ValidString(text) && again.Label != r.Label {
				t.Fatalf("%q reads %d, but its phrase %q reads %d", text, r.Label, r.Phrase, again.Label)
			}
		default:
			t.Fatalf("%q: label %d", text, r.Label)
		}
	})
}
