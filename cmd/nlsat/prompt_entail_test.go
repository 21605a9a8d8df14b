package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// entailDir is a dataset directory of entailment records made from
// generate --task entailment --seed 3 (S and V, 9 each), a triple of each
// fragment per split; see testdata/README.md.
const entailDir = "testdata/entail"

var entailTasks = []string{"t_entail", "t_entail_gen", "t_entail_binary", "t_entail_binary_gen",
	"t_entail_fewshot", "t_entail_fewshot_gen", "t_entail_binary_fewshot", "t_entail_binary_fewshot_gen"}

func runEntailPrompt(t *testing.T, stdin string, args ...string) (dir string) {
	t.Helper()
	dir = t.TempDir()
	args = append([]string{"prompt", "--out", filepath.Join(dir, "entail.jsonl"), "--name", "t", "-q"}, args...)
	code, stdout, stderr := nlsat(context.Background(), stdin, args...)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	return dir
}

func TestPromptEntailGolden(t *testing.T) {
	dir := runEntailPrompt(t, "", entailDir)
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(entailTasks)+2 { // and the prompts and the few-shot prompts
		t.Fatalf("wrote %d files, want %d", len(entries), len(entailTasks)+2)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, filepath.Join("prompt-entail", e.Name()), promptPaths(t, dir, string(b)))
	}
}

// TestPromptEntailInputs: the test split file itself (kind told by the
// manifest above it) or on stdin (by its first record's keys), with the
// train file as --example, gives the same rows as the directory.
func TestPromptEntailInputs(t *testing.T) {
	want, _ := os.ReadFile(filepath.Join(runEntailPrompt(t, "", entailDir), "entail.jsonl"))
	test, train := filepath.Join(entailDir, "data/test.jsonl"), filepath.Join(entailDir, "data/train.jsonl")
	stdin, _ := os.ReadFile(test)
	for _, tt := range []struct {
		name, stdin string
		args        []string
	}{
		{"file", "", []string{test, "--example", train}},
		{"stdin", string(stdin), []string{"-", "--example", entailDir}},
	} {
		got, _ := os.ReadFile(filepath.Join(runEntailPrompt(t, tt.stdin, tt.args...), "entail.jsonl"))
		if string(got) != string(want) {
			t.Errorf("%s: rows differ from the directory's", tt.name)
		}
	}
	zero := runEntailPrompt(t, "", test)
	rows := readRows(t, filepath.Join(zero, "entail.jsonl"))
	if rows[0]["prompt_entail_fewshot"] != "" || len(rows[0]["example_ids"].([]any)) != 0 {
		t.Errorf("a file without --example: few-shot prompts %v", rows[0]["example_ids"])
	}
	if _, err := os.Stat(filepath.Join(zero, "t_entail_fewshot.yaml")); err == nil {
		t.Error("few-shot tasks written without worked examples")
	}
}

// TestPromptEntailTasksLoad decodes every task file with the keys of
// lm-evaluation-harness's task schema only (taskConfig, KnownFields) and
// resolves its columns in every row: doc_to_choice indexed by
// doc_to_target must be the row's expected answer.
func TestPromptEntailTasksLoad(t *testing.T) {
	dir := runEntailPrompt(t, "", entailDir)
	rows := readRows(t, filepath.Join(dir, "entail.jsonl"))
	for _, name := range entailTasks {
		c := readTaskConfig(t, filepath.Join(dir, name+".yaml"))
		if c.Task != name || !reflect.DeepEqual(c.Tag, []string{"t"}) || c.DatasetPath != "json" || c.DatasetName != nil ||
			c.TestSplit != "test" || c.NumFewshot != 0 || c.DatasetKwargs.DataFiles["test"] != "entail.jsonl" || len(c.MetricList) != 1 {
			t.Errorf("%s: header %+v", name, c)
		}
		binary := strings.Contains(name, "binary")
		wantChoices := []string{"entailment", "neutral", "contradiction"}
		wantKey := "target_entail"
		if binary {
			wantChoices, wantKey = []string{"entailed", "not entailed"}, "target_entail_binary"
		}
		for i, row := range rows {
			if s, ok := row[c.DocToText].(string); !ok || !strings.HasSuffix(s, "\n\nHypothesis: "+row["hypothesis"].(string)+"\n\nA:") {
				t.Fatalf("%s: row %d: doc_to_text %q is not a prompt", name, i, c.DocToText)
			}
			if strings.HasSuffix(name, "_gen") {
				if c.OutputType != "generate_until" || row[c.DocToTarget] != row[wantKey] || len(c.FilterList) != 2 {
					t.Errorf("%s: row %d: output %s, target %v", name, i, c.OutputType, row[c.DocToTarget])
				}
				continue
			}
			idx, ok := row[c.DocToTarget].(float64)
			if c.OutputType != "multiple_choice" || !ok || !reflect.DeepEqual(c.DocToChoice, wantChoices) || c.DocToChoice[int(idx)] != row[wantKey] {
				t.Errorf("%s: row %d: choices %v, target %v, want %v", name, i, c.DocToChoice, row[c.DocToTarget], row[wantKey])
			}
		}
	}
}

func readTaskConfig(t *testing.T, path string) taskConfig {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	dec.KnownFields(true)
	var c taskConfig
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

// TestPromptEvalEntailRoundTrip answers every row with the choice the
// task file names as its target, so the prompt rows, the task files and
// eval agree: accuracy 1. A constant "neutral" scores exactly 1/3 on the
// balanced test split (two of each label), binary 4/6 (neutral is not
// entailed, as four of the six are), macro-F1 (1/2)/3 (neutral:
// precision 1/3, recall 1).
func TestPromptEvalEntailRoundTrip(t *testing.T) {
	dir := runEntailPrompt(t, "", entailDir)
	rows := readRows(t, filepath.Join(dir, "entail.jsonl"))
	for _, tt := range []struct {
		task            string
		answer          func(c taskConfig, row map[string]any) string
		acc, bin, macro float64
	}{
		{"t_entail", func(c taskConfig, row map[string]any) string { return c.DocToChoice[int(row[c.DocToTarget].(float64))] }, 1, 1, 1},
		{"t_entail_binary", func(c taskConfig, row map[string]any) string { return c.DocToChoice[int(row[c.DocToTarget].(float64))] }, 1, 1, 1},
		{"t_entail_fewshot_gen", func(c taskConfig, row map[string]any) string { return " " + row[c.DocToTarget].(string) + "." }, 1, 1, 1},
		{"t_entail", func(taskConfig, map[string]any) string { return "Neutral" }, 1.0 / 3, 4.0 / 6, 0.5 / 3},
	} {
		c := readTaskConfig(t, filepath.Join(dir, tt.task+".yaml"))
		var preds strings.Builder
		for _, row := range rows {
			b, _ := json.Marshal(map[string]string{"id": row["id"].(string), "response": tt.answer(c, row)})
			fmt.Fprintf(&preds, "%s\n", b)
		}
		code, out, errs := nlsat(context.Background(), preds.String(), "eval", "--gold", filepath.Join(entailDir, "data/test.jsonl"), "--pred", "-", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.task, code, errs)
		}
		var rep struct {
			Overall struct{ Accuracy float64 } `json:"overall"`
			Binary  struct{ Accuracy float64 } `json:"binary"`
			MacroF1 float64                    `json:"macro_f1"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if math.Abs(rep.Overall.Accuracy-tt.acc) > 1e-12 || math.Abs(rep.Binary.Accuracy-tt.bin) > 1e-12 || math.Abs(rep.MacroF1-tt.macro) > 1e-12 {
			t.Errorf("%s: accuracy %v, binary %v, macro-F1 %v; want %v, %v, %v", tt.task, rep.Overall.Accuracy, rep.Binary.Accuracy, rep.MacroF1, tt.acc, tt.bin, tt.macro)
		}
	}
}

func TestPromptEntailBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.jsonl")
	test := filepath.Join(entailDir, "data/test.jsonl")
	copied := filepath.Join(t.TempDir(), "copy.jsonl")
	if b, err := os.ReadFile(test); err != nil || os.WriteFile(copied, b, 0o644) != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"--cot", []string{entailDir, "--cot"}, "--cot needs sat/unsat records"},
		{"examples from the prompted file", []string{test, "--example", test}, "take them from the train split"},
		{"examples share premises", []string{test, "--example", copied}, "has the premises of the worked example"},
		{"no such split", []string{entailDir, "--split", "dev"}, `no split "dev"`},
	}
	for _, tt := range tests {
		code, stdout, stderr := nlsat(context.Background(), "", append([]string{"prompt", "--out", out}, tt.args...)...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: exit %d, stderr %q, want exit %d and %q", tt.name, code, stderr, exitUsage, tt.want)
		}
	}
}
