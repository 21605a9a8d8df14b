package satunsat

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/prompt"
)

// The expected prompts are Appendix C typed out by hand, with the choices
// recorded in prompt.go: sentences joined by spaces, paragraphs by a blank
// line, no "Q:" before the second question of prompt (b).
func TestPromptsFollowAppendixC(t *testing.T) {
	text := "Some scholar loves some musician. Every musician is an artist."
	tests := []struct {
		name, got, want string
	}{
		{"satisfiable/unsatisfiable", SatUnsat(text),
			"Q: Given the following set of sentences, tell me whether they are satisfiable or not. Generate satisfiable if they are and unsatisfiable if they are not. Set of sentences: Some scholar loves some musician. Every musician is an artist.\n\nA:"},
		{"True/False with Figure 1", TrueFalse(Figure1, text),
			"Q: Given the following set of sentences, tell me whether they are satisfiable or not. Generate True if they are and False if they are not.\n\n" +
				"Set of sentences: Every scholar is a poet. Every poet loves some musician. Some scholar does not love any musician.\n\n" +
				"A: False\n\n" +
				"Given the following set of sentences, tell me whether they are satisfiable or not. Generate True if they are and False if they are not.\n\n" +
				"Set of sentences: Some scholar loves some musician. Every musician is an artist.\n\nA:"},
		{"True/False with a sat example", TrueFalse(Example{ID: "x", Sentences: []string{"Every artist is a baker."}, Label: dataset.LabelSat}, text),
			"Q: Given the following set of sentences, tell me whether they are satisfiable or not. Generate True if they are and False if they are not.\n\n" +
				"Set of sentences: Every artist is a baker.\n\nA: True\n\n" +
				"Given the following set of sentences, tell me whether they are satisfiable or not. Generate True if they are and False if they are not.\n\n" +
				"Set of sentences: Some scholar loves some musician. Every musician is an artist.\n\nA:"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestNewRow(t *testing.T) {
	r := &dataset.Record{ID: "V-7", Fragment: "V", Label: dataset.LabelUnsat, N1: 3, N2: 1,
		Sentences: []string{"Every artist admires some baker.", "No baker is an artist."}}
	row, err := NewRow(r, Figure1)
	if err != nil {
		t.Fatal(err)
	}
	want := Row{ID: "V-7", Fragment: "V", Text: "Every artist admires some baker. No baker is an artist.", Label: 0, LabelText: "unsat",
		M: 2, N1: 3, N2: 1, TargetSat: "unsatisfiable", TargetTF: "False", ExampleID: Figure1.ID}
	want.PromptSat, want.PromptTF = SatUnsat(want.Text), TrueFalse(Figure1, want.Text)
	if row != want {
		t.Errorf("got %+v\nwant %+v", row, want)
	}
	r.Label = dataset.LabelAbsent
	if _, err := NewRow(r, Figure1); err == nil || !strings.Contains(err.Error(), "no label") {
		t.Errorf("unlabelled record: got error %v, want one saying it has no label", err)
	}
}

func TestSameInstance(t *testing.T) {
	fig := Figure1.Sentences
	tests := []struct {
		name string
		r    dataset.Record
		want bool
	}{
		{"same sentences, other order", dataset.Record{ID: "a", Sentences: []string{fig[2], fig[0], fig[1]}}, true},
		{"same id", dataset.Record{ID: Figure1.ID, Sentences: []string{"Every artist is a baker."}}, true},
		{"a subset", dataset.Record{ID: "b", Sentences: fig[:2]}, false},
		{"a superset", dataset.Record{ID: "c", Sentences: append([]string{"Every artist is a baker."}, fig...)}, false},
		{"unrelated", dataset.Record{ID: "d", Sentences: []string{"Every artist is a baker."}}, false},
	}
	for _, tt := range tests {
		if got := SameInstance(Figure1, &tt.r); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	if SameInstance(Example{Sentences: []string{"x."}}, &dataset.Record{Sentences: []string{"y."}}) {
		t.Error("two records without ids are not the same instance")
	}
}

// TestYAMLScoringHint: every task file says how to score its samples with
// nlsat eval, naming the records the prompts came from.
func TestYAMLScoringHint(t *testing.T) {
	tests := []struct{ source, gold, want string }{
		{"zero-shot-A.jsonl", "../data/zero-shot-A.jsonl", "nlsat eval --gold ../data/zero-shot-A.jsonl --pred results/MODEL/samples_t_satunsat_DATE.jsonl"},
		{"-", "", "nlsat eval --gold RECORDS.jsonl --pred"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := tasks("t", false)[0].WriteYAML(&b, prompt.TaskFile{Tag: "t", DataFiles: "x.jsonl", Source: tt.source, Gold: tt.gold}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "--log_samples --output_path results") || !strings.Contains(b.String(), tt.want) {
			t.Errorf("source %q: the task file does not say %q:\n%s", tt.source, tt.want, b.String())
		}
	}
}
