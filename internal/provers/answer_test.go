package provers_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/provers"
)

// The outputs below are copied from z3 4.8.12, cvc5 1.0.3 and E 2.6 runs.
var answerCases = []struct {
	name    string
	out     string
	answers []string
	core    []string
}{
	{"empty", "", nil, nil},
	{"z3 batch", "sat\nunsat\n(s1 s2)\nunknown\n", []string{"sat", "unsat", "unknown"}, []string{"s1", "s2"}},
	{"z3 timeout", "timeout\n", []string{"unknown"}, nil},
	{"cvc5 core", "unsupported\nunsat\n(\ns2\ns1\n)\n", []string{"unsat"}, []string{"s2", "s1"}},
	{"empty core", "unsat\n(\n)\n", []string{"unsat"}, []string{}},
	{"unsat without core", "unsat\nsat\n(model)\n", []string{"unsat", "sat"}, nil},
	{"model lines do not count", "sat\n(\n(define-fun p ((x U)) Bool\nsat)\n)\nunsat\n", []string{"sat", "unsat"}, nil},
	{"core naming sat", "unsat\n(\nsat\nunsat\n)\n", []string{"unsat"}, []string{"sat", "unsat"}},
	{"error message", "(error \"line 3 column 1: unsat\nsat\")\nsat\n", []string{"sat"}, nil},
	{"quoted paren", "sat\n(model |a)b|\n)\nunsat\n", []string{"sat", "unsat"}, nil},
	{"crlf and spaces", "  sat \r\n", []string{"sat"}, nil},
}

func TestSMTAnswers(t *testing.T) {
	for _, c := range answerCases {
		t.Run(c.name, func(t *testing.T) {
			if got := provers.SMTAnswers(c.out); !slices.Equal(got, c.answers) {
				t.Errorf("SMTAnswers = %q, want %q", got, c.answers)
			}
			want := "unknown"
			if len(c.answers) > 0 {
				want = c.answers[0]
			}
			if got := provers.SMTAnswer(c.out); got != want {
				t.Errorf("SMTAnswer = %q, want %q", got, want)
			}
			if got := provers.SMTCore(c.out); !slices.Equal(got, c.core) || (got == nil) != (c.core == nil) {
				t.Errorf("SMTCore = %#v, want %#v", got, c.core)
			}
		})
	}
}

func TestSZS(t *testing.T) {
	for _, c := range []struct{ out, status, answer string }{
		{"# Proof found!\n# SZS status Unsatisfiable\n", "Unsatisfiable", "unsat"},
		{"# No proof found!\n# SZS status Satisfiable\n", "Satisfiable", "sat"},
		{"# Failure: Resource limit exceeded (time)\n# SZS status ResourceOut\n", "ResourceOut", "unknown"},
		{"# SZS status GaveUp\n", "GaveUp", "unknown"},
		{"# SZS status ", "", "unknown"},
		{"", "", "unknown"},
	} {
		if got := provers.SZSStatus(c.out); got != c.status {
			t.Errorf("SZSStatus(%q) = %q, want %q", c.out, got, c.status)
		}
		if got := provers.SZSAnswer(c.out); got != c.answer {
			t.Errorf("SZSAnswer(%q) = %q, want %q", c.out, got, c.answer)
		}
	}
}

// FuzzSMTAnswers checks the output readers on arbitrary text: every
// answer is one of the three words and stands on a line of its own, and
// a core only exists after an unsat line.
func FuzzSMTAnswers(f *testing.F) {
	for _, c := range answerCases {
		f.Add(c.out)
	}
	f.Fuzz(func(t *testing.T, out string) {
		answers := provers.SMTAnswers(out)
		words := 0
		for _, line := range strings.Split(out, "\n") {
			switch strings.TrimSpace(line) {
			case "sat", "unsat", "unknown", "timeout":
				words++
			}
		}
		if len(answers) > words {
			t.Errorf("%d answers from %d answer lines", len(answers), words)
		}
		for _, a := range answers {
			if a != "sat" && a != "unsat" && a != "unknown" {
				t.Errorf("answer %q", a)
			}
		}
		if provers.SMTCore(out) != nil && !strings.Contains(out, "unsat") {
			t.Errorf("a core without an unsat line")
		}
		_ = provers.SZSAnswer(out)
	})
}
