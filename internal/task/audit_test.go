package task_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/task"
	"github.com/nlsat/nlsat/internal/task/entailment"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

// TestAuditTasks audits a small dataset of each task's records through
// the one driver: the task is told by task.Detect, and its audit is a
// binary report with the sat/unsat sections or a report per pair of
// labels, in text, JSON and the manifest's copy.
func TestAuditTasks(t *testing.T) {
	tests := []struct {
		task *task.Task
		// pairs is the number of binary problems of a pairwise audit (0
		// for a binary one).
		pairs int
		text  []string
		json  []string
	}{
		{satunsat.Task, 0, []string{"Shortcut audit of ", "Sentence pairs:", "Difficulty (inference, not a shortcut)"},
			[]string{`"sentence_pairs":{"models":[{"name":"pairs-1"`, `"difficulty":[{"split":"train"`}},
		{entailment.Task, 3, []string{"entailment records (nlsat-entail/1)", "Pair 2 of 3: entailment vs contradiction", entailment.HypothesisOnly, entailment.PremisePairs},
			[]string{`"task":"entailment"`, `"entailment":18,"neutral":18,"contradiction":18`, `"three_way":[{"split":"validation"`}},
	}
	n := generate.Range{Lo: 4, Hi: 4}
	plan, err := generate.NewPlan(generate.Options{Fragment: fragments.S, Sampler: fragments.DefaultSampler(), N1: &n,
		Seed: 2, Count: 90, Solver: "native", SolverName: "native"})
	if err != nil {
		t.Fatal(err)
	}
	newBackend := func() (solver.Backend, error) { return native.New(native.Options{}), nil }
	for _, tt := range tests {
		t.Run(tt.task.Name, func(t *testing.T) {
			dir := t.TempDir()
			gen := filepath.Join(dir, "records.jsonl")
			if _, err := generate.Run(context.Background(), tt.task.Generate, plan, generate.RunOptions{Out: gen, Workers: 1, NewBackend: newBackend}); err != nil {
				t.Fatal(err)
			}
			// 54 records to train, 18 to validation and 18 to test, in
			// order (an entailment triple stays in one split).
			b, err := os.ReadFile(gen)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(strings.TrimSpace(string(b))+"\n", "\n")
			ds := filepath.Join(dir, "ds")
			os.MkdirAll(filepath.Join(ds, "data"), 0o755)
			for s, r := range [][2]int{{0, 54}, {54, 72}, {72, 90}} {
				os.WriteFile(filepath.Join(ds, "data", audit.Splits[s]+".jsonl"), []byte(strings.Join(lines[r[0]:r[1]], "")), 0o644)
			}

			tk, err := task.Detect(ds)
			if err != nil || tk != tt.task {
				t.Fatalf("Detect: %v, %v; want %s", tk, err, tt.task)
			}
			rep, err := audit.Run(context.Background(), tk.Audit, ds, audit.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if tt.pairs == 0 && (rep.Pairwise != nil || rep.SentencePairs == nil || len(rep.Difficulty) != 3 || len(rep.Results) != 2) ||
				tt.pairs > 0 && (rep.Pairwise == nil || len(rep.Pairwise.Pairs) != tt.pairs || len(rep.Pairwise.Multiway) != 2) {
				t.Fatalf("the report has the wrong shape: %+v", rep)
			}
			var text bytes.Buffer
			if err := rep.Text(&text); err != nil {
				t.Fatal(err)
			}
			for _, want := range tt.text {
				if !strings.Contains(text.String(), want) {
					t.Errorf("text lacks %q", want)
				}
			}
			data, summary, err := audit.ForManifest(tk.Audit)(context.Background(), ds, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range append(tt.json, `"dir":"."`, `"file":"data/train.jsonl"`) {
				if !bytes.Contains(data, []byte(want)) {
					t.Errorf("manifest JSON lacks %s", want)
				}
			}
			var back audit.Report
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			if again, _ := json.Marshal(&back); !bytes.Equal(again, data) {
				t.Error("the manifest JSON changes on a round trip")
			}
			if !strings.HasPrefix(summary, "Shortcut audit (nlsat audit)") || !strings.Contains(summary, "- test (18 records): ") {
				t.Errorf("summary:\n%s", summary)
			}
		})
	}
}
