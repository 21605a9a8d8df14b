package task_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/prompt"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/task"
	"github.com/nlsat/nlsat/internal/task/entailment"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

// promptDataset writes a dataset directory of tk's records, its train,
// validation and test splits each drawn with its own seed, and returns
// it.
func promptDataset(t *testing.T, tk *task.Task) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), tk.Name)
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	n := generate.Range{Lo: 4, Hi: 4}
	newBackend := func() (solver.Backend, error) { return native.New(native.Options{}), nil }
	for seed, split := range []string{"train", "validation", "test"} {
		plan, err := generate.NewPlan(generate.Options{Fragment: fragments.V, Sampler: fragments.DefaultSampler(), N1: &n, N2: &n,
			Seed: uint64(seed + 1), Count: 6, Solver: "native", SolverName: "native"})
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "data", split+".jsonl")
		if _, err := generate.Run(context.Background(), tk.Generate, plan, generate.RunOptions{Out: out, Workers: 1, NewBackend: newBackend}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func jsonLines(t *testing.T, name string) []map[string]any {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// harnessTask is the part of a task file this test reads.
type harnessTask struct {
	Task         string   `yaml:"task"`
	OutputType   string   `yaml:"output_type"`
	DocToText    string   `yaml:"doc_to_text"`
	DocToTarget  string   `yaml:"doc_to_target"`
	DocToChoice  []string `yaml:"doc_to_choice"`
	FewshotSplit string   `yaml:"fewshot_split"`
	FilterList   []struct {
		Filter []map[string]any `yaml:"filter"`
	} `yaml:"filter_list"`
}

// TestPromptTasks runs prompt over a dataset directory of each task's
// records, and reads back every row and task file as lm-evaluation-harness
// would: every key in every row; each task's prompt a string ending in
// "A:"; a multiple_choice task's choice at the label its target column
// names is the row's expected answer; a generate_until task's target is
// one of its answers, which its strict and flexible filters read back
// from what a model might generate. A chain of thought is the option of
// the sat/unsat task only.
func TestPromptTasks(t *testing.T) {
	for _, tc := range []struct {
		task  *task.Task
		tasks []string
		cot   bool
	}{
		{satunsat.Task, []string{"t_satunsat", "t_satunsat_gen", "t_truefalse", "t_truefalse_gen"}, true},
		{entailment.Task, []string{"t_entail", "t_entail_gen", "t_entail_binary", "t_entail_binary_gen",
			"t_entail_fewshot", "t_entail_fewshot_gen", "t_entail_binary_fewshot", "t_entail_binary_fewshot_gen"}, false},
	} {
		ds := promptDataset(t, tc.task)
		if got, err := task.Detect(ds); err != nil || got != tc.task {
			t.Fatalf("%s: Detect = %v, %v", tc.task.Name, got, err)
		}
		out := filepath.Join(t.TempDir(), "p.jsonl")
		tf, err := prompt.NewTaskFile("t", out, false)
		if err != nil {
			t.Fatal(err)
		}
		c := prompt.Config{In: ds, Split: "test", Out: out, TaskFile: tf}
		res, err := prompt.Run(tc.task.Prompt, c, strings.NewReader(""), io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", tc.task.Name, err)
		}
		rows := jsonLines(t, out)
		if res.Rows != len(rows) || len(rows) != len(jsonLines(t, filepath.Join(ds, "data/test.jsonl"))) || !reflect.DeepEqual(res.Tasks, tc.tasks) {
			t.Errorf("%s: %+v for %d rows, want tasks %v", tc.task.Name, res, len(rows), tc.tasks)
		}
		for i, row := range append(rows, jsonLines(t, prompt.FewshotPath(out))...) {
			if !sameKeys(row, rows[0]) {
				t.Errorf("%s: row %d has keys other than row 0's", tc.task.Name, i)
			}
		}
		for _, name := range tc.tasks {
			checkHarnessTask(t, filepath.Join(filepath.Dir(out), name+".yaml"), rows)
		}

		c.Options.CoT = true
		_, err = prompt.Run(tc.task.Prompt, c, strings.NewReader(""), io.Discard)
		var oe *prompt.OptionError
		if tc.task.Prompt.Has().CoT != tc.cot || errors.As(err, &oe) == tc.cot || err == nil {
			t.Errorf("%s: chain of thought on records without proofs: %v", tc.task.Name, err)
		}
	}
}

func sameKeys(a, b map[string]any) bool {
	for k, v := range a {
		if w, ok := b[k]; !ok || reflect.TypeOf(v) != reflect.TypeOf(w) {
			return false
		}
	}
	return len(a) == len(b)
}

func checkHarnessTask(t *testing.T, name string, rows []map[string]any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var c harnessTask
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if c.FewshotSplit != "validation" {
		t.Errorf("%s: fewshot_split %q, want validation", c.Task, c.FewshotSplit)
	}
	var choices []string
	for i, row := range rows {
		if s, ok := row[c.DocToText].(string); !ok || !strings.HasSuffix(s, "\n\nA:") {
			t.Fatalf("%s: row %d: doc_to_text %s is not a prompt", c.Task, i, c.DocToText)
		}
		switch c.OutputType {
		case "multiple_choice":
			idx, ok := row[c.DocToTarget].(float64)
			if !ok || int(idx) >= len(c.DocToChoice) || c.DocToChoice[int(idx)] != answerOf(row, c) {
				t.Errorf("%s: row %d: choices %v, target %v, want %q", c.Task, i, c.DocToChoice, row[c.DocToTarget], answerOf(row, c))
			}
		case "generate_until":
			target, _ := row[c.DocToTarget].(string)
			if !slices.Contains(choices, target) {
				choices = append(choices, target)
			}
		default:
			t.Errorf("%s: output_type %q", c.Task, c.OutputType)
		}
	}
	if c.OutputType == "generate_until" {
		if len(choices) < 2 {
			t.Errorf("%s: the rows' targets are %v: the test split lacks a label", c.Task, choices)
		}
		checkFilters(t, c, choices)
	}
}

// answerOf is the expected answer of a row for a multiple_choice task:
// the value of the generate_until task's target column over the same
// prompt (target_X for prompt_X, the few-shot prompts sharing their
// zero-shot prompt's).
func answerOf(row map[string]any, c harnessTask) string {
	key := strings.TrimSuffix(strings.Replace(c.DocToText, "prompt_", "target_", 1), "_fewshot")
	s, _ := row[key].(string)
	return s
}

// checkFilters runs a generate_until task's strict and flexible filters
// on what a model might generate. Go's regexp agrees with Python's re on
// these patterns.
func checkFilters(t *testing.T, c harnessTask, answers []string) {
	t.Helper()
	if len(c.FilterList) != 2 {
		t.Fatalf("%s: %d filters, want 2 (strict, flexible)", c.Task, len(c.FilterList))
	}
	var res [2]*regexp.Regexp
	for i, f := range c.FilterList {
		res[i] = regexp.MustCompile(f.Filter[0]["regex_pattern"].(string))
	}
	strict, flexible := res[0], res[1]
	for k, ans := range answers {
		other := answers[(k+1)%len(answers)]
		tests := []struct{ gen, strict, flex string }{
			{" " + ans, ans, ans},
			{" " + strings.ToUpper(ans) + ".\n", strings.ToUpper(ans), strings.ToUpper(ans)},
			{" The answer is " + ans, "", ans},
			{" " + ans + "ish", "", ""},
			{" " + ans + "s", "", ""},
			{" " + other + " or " + ans, other, other},
		}
		for _, tt := range tests {
			if got := first(strict, tt.gen); got != tt.strict {
				t.Errorf("%s strict on %q: got %q, want %q", c.Task, tt.gen, got, tt.strict)
			}
			if got := first(flexible, tt.gen); got != tt.flex {
				t.Errorf("%s flexible on %q: got %q, want %q", c.Task, tt.gen, got, tt.flex)
			}
		}
	}
}

func first(re *regexp.Regexp, s string) string {
	m := re.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[1]
}
