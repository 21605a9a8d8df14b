package entailment

import (
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/entailrec"
)

// The expected prompts are typed out by hand: the question with what each
// answer means, then premises, hypothesis and "A:", a blank line between.
func TestEntailPrompts(t *testing.T) {
	shot := &entailrec.Record{ID: "x", Premises: []string{"Every artist is a baker."}, Hypothesis: "Some artist is not a baker.", Label: 2, LabelBinary: 1}
	const q3 = "Q: Given the following premises and hypothesis, tell me whether the hypothesis follows from the premises. " +
		"Generate entailment if it follows from the premises (it is true whenever they all are), neutral if the premises leave it open " +
		"(it can be true or false while they all are true), and contradiction if it conflicts with the premises (it is false whenever they all are true)."
	const q2 = "Q: Given the following premises and hypothesis, tell me whether the hypothesis follows from the premises. " +
		"Generate entailed if it follows from the premises (it is true whenever they all are), and not entailed if it does not " +
		"(the premises leave it open, or it conflicts with them)."
	const problem = "\n\nPremises: Every scholar is a poet. Some scholar is a baker.\n\nHypothesis: Some poet is a baker.\n\nA:"
	premises, hyp := "Every scholar is a poet. Some scholar is a baker.", "Some poet is a baker."
	tests := []struct{ name, got, want string }{
		{"three-way", Prompt(false, premises, hyp), q3 + problem},
		{"binary", Prompt(true, premises, hyp), q2 + problem},
		{"three-way few-shot", Fewshot(false, []*entailrec.Record{shot}, premises, hyp),
			q3 + "\n\nPremises: Every artist is a baker.\n\nHypothesis: Some artist is not a baker.\n\nA: contradiction" + problem},
		{"binary few-shot", Fewshot(true, []*entailrec.Record{shot}, premises, hyp),
			q2 + "\n\nPremises: Every artist is a baker.\n\nHypothesis: Some artist is not a baker.\n\nA: not entailed" + problem},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, tt.got, tt.want)
		}
	}
}

func rec(id, frag string, label int, premises ...string) *entailrec.Record {
	return &entailrec.Record{ID: id, Fragment: frag, Label: label, LabelBinary: entailrec.Label(label).Binary(), Premises: premises, Hypothesis: "h."}
}

// TestShots: one shot per label and fragment, the first of each label,
// from distinct premise sets where there are any; none for a fragment
// that lacks a label.
func TestShots(t *testing.T) {
	train := []*entailrec.Record{
		rec("s0", "S", 0, "a."), rec("s1", "S", 2, "a."), rec("s2", "S", 1, "a."),
		rec("s3", "S", 2, "b."), rec("s4", "S", 1, "c."), rec("s5", "S", 0, "c."),
		rec("v0", "V", 1, "a."), rec("v1", "V", 0, "a."), rec("v2", "V", 2, "a."),
		rec("a0", "A", 0, "a."), rec("a1", "A", 1, "b."),
	}
	got := Shots(train)
	want := map[string]string{"S": "s0 s3 s4", "V": "v0 v1 v2"}
	if len(got) != len(want) {
		t.Errorf("shots for %d fragments, want %d", len(got), len(want))
	}
	for f, ids := range want {
		var g []string
		for _, r := range got[f] {
			g = append(g, r.ID)
		}
		if strings.Join(g, " ") != ids {
			t.Errorf("%s: got %v, want %s", f, g, ids)
		}
	}
	if err := CheckShot(rec("t", "S", 1, "b."), got["S"]); err == nil {
		t.Error("a record with a shot's premises passed")
	}
	if err := CheckShot(rec("t", "S", 1, "d."), got["S"]); err != nil {
		t.Error(err)
	}
}
