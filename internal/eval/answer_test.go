package eval

import "testing"

func TestParseAnswer(t *testing.T) {
	const sat, unsat, none = 1, 0, Unparseable
	tests := []struct {
		text string
		set  AnswerSet
		want int
	}{
		{"satisfiable", AnswersAny, sat},
		{"Satisfiable.", AnswersAny, sat},
		{"unsatisfiable", AnswersAny, unsat},
		{"UNSATISFIABLE", AnswersAny, unsat},
		{"  Unsatisfiable\n\nQ: next", AnswersAny, unsat},
		{"**Unsatisfiable**", AnswersAny, unsat},
		{"The set is unsatisfiable, not satisfiable.", AnswersAny, unsat},
		{"True", AnswersAny, sat},
		{"False", AnswersAny, unsat},
		{"The answer is True", AnswersAny, sat},
		{"I think False", AnswersAny, unsat},
		{"false.", AnswersAny, unsat},
		{"A: True", AnswersAny, sat},
		// The first answer word decides, even after a negation: the rule of
		// the harness's flexible-extract filter.
		{"It is not satisfiable", AnswersAny, sat},
		{"True or False? I say unsatisfiable", AnswersAny, sat},
		// Whole words only.
		{"Trueish", AnswersAny, none},
		{"satisfiability", AnswersAny, none},
		{"untrue", AnswersAny, none},
		{"True1", AnswersAny, none},
		{"", AnswersAny, none},
		{"   ", AnswersAny, none},
		{"maybe", AnswersAny, none},
		{"I cannot tell.", AnswersAny, none},
		// A narrower answer set skips the other prompt's words.
		{"True, it is unsatisfiable", AnswersSatUnsat, unsat},
		{"It is true", AnswersSatUnsat, none},
		{"Satisfiable? False.", AnswersTrueFalse, unsat},
		{"satisfiable", AnswersTrueFalse, none},
	}
	for _, tt := range tests {
		got, err := ParseAnswer(tt.text, tt.set)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("ParseAnswer(%q, %s) = %d, want %d", tt.text, tt.set, got, tt.want)
		}
	}
	if _, err := ParseAnswer("True", "yesno"); err == nil {
		t.Error("an unknown answer set gives no error")
	}
}
