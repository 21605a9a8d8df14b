package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The input is four records written by nlsat generate (2 S, 2 V); the
// example file is a fifth V record, not among them.
const (
	promptInput   = "testdata/prompt-input.jsonl"
	promptExample = "testdata/prompt-example.jsonl"
)

var promptTasks = []string{"nlsat_zero_shot_satunsat", "nlsat_zero_shot_satunsat_gen", "nlsat_zero_shot_truefalse", "nlsat_zero_shot_truefalse_gen"}

func runPromptCmd(t *testing.T, args ...string) (dir string) {
	t.Helper()
	dir = t.TempDir()
	args = append([]string{"prompt", promptInput, "--out", filepath.Join(dir, "zero-shot.jsonl")}, args...)
	code, stdout, stderr := nlsat(context.Background(), "", args...)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	return dir
}

func TestPromptGolden(t *testing.T) {
	dir := runPromptCmd(t, "-q")
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"nlsat_zero_shot_satunsat.yaml", "nlsat_zero_shot_satunsat_gen.yaml", "nlsat_zero_shot_truefalse.yaml", "nlsat_zero_shot_truefalse_gen.yaml", "zero-shot.fewshot.jsonl", "zero-shot.jsonl"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("wrote %v, want %v", names, want)
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, filepath.Join("prompt", n), promptPaths(t, dir, string(b)))
	}
}

// promptPaths replaces, in a prompt file written to dir, the path of
// this package's testdata as seen from dir (the task files' paths to
// the records) by $TESTDATA, so that a golden does not depend on where
// the test ran.
func promptPaths(t *testing.T, dir, content string) string {
	t.Helper()
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(content, rel+string(filepath.Separator), "$TESTDATA/")
}

// taskConfig is the part of an lm-evaluation-harness task that nlsat
// writes; decoding into it with KnownFields rejects any other key.
type taskConfig struct {
	Task          string   `yaml:"task"`
	Tag           []string `yaml:"tag"`
	DatasetPath   string   `yaml:"dataset_path"`
	DatasetName   *string  `yaml:"dataset_name"`
	DatasetKwargs struct {
		DataFiles map[string]string `yaml:"data_files"`
	} `yaml:"dataset_kwargs"`
	TestSplit        string         `yaml:"test_split"`
	FewshotSplit     string         `yaml:"fewshot_split"`
	NumFewshot       int            `yaml:"num_fewshot"`
	OutputType       string         `yaml:"output_type"`
	DocToText        string         `yaml:"doc_to_text"`
	DocToTarget      string         `yaml:"doc_to_target"`
	DocToChoice      []string       `yaml:"doc_to_choice"`
	TargetDelimiter  string         `yaml:"target_delimiter"`
	GenerationKwargs map[string]any `yaml:"generation_kwargs"`
	FilterList       []struct {
		Name   string           `yaml:"name"`
		Filter []map[string]any `yaml:"filter"`
	} `yaml:"filter_list"`
	MetricList []map[string]any `yaml:"metric_list"`
	Metadata   map[string]any   `yaml:"metadata"`
}

func readRows(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var row map[string]any
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	return rows
}

// TestPromptTasksLoad reads the task files back as lm-evaluation-harness
// would and resolves every column they name in every row.
func TestPromptTasksLoad(t *testing.T) {
	dir := runPromptCmd(t, "-q")
	rows := readRows(t, filepath.Join(dir, "zero-shot.jsonl"))
	inputs := readRows(t, promptInput)
	if len(rows) != len(inputs) {
		t.Fatalf("%d rows for %d records", len(rows), len(inputs))
	}
	for i, row := range rows {
		for _, k := range []string{"id", "fragment", "label", "label_text", "m", "n1", "n2"} {
			if !reflect.DeepEqual(row[k], inputs[i][k]) {
				t.Errorf("row %d: %s is %v, the record has %v", i, k, row[k], inputs[i][k])
			}
		}
		for _, k := range []string{"prompt_sat", "prompt_tf"} {
			if !strings.Contains(row[k].(string), "Set of sentences: "+inputs[i]["text"].(string)+"\n\nA:") {
				t.Errorf("row %d: %s does not contain the record's text", i, k)
			}
		}
	}
	for _, name := range promptTasks {
		checkTask(t, dir, name, rows)
	}
}

func checkTask(t *testing.T, dir, name string, rows []map[string]any) {
	t.Helper()
	c := readTaskConfig(t, filepath.Join(dir, name+".yaml"))
	if c.Task != name || !reflect.DeepEqual(c.Tag, []string{"nlsat_zero_shot"}) || c.DatasetPath != "json" || c.DatasetName != nil || c.TestSplit != "test" || c.NumFewshot != 0 {
		t.Errorf("%s: header %+v", name, c)
	}
	data := c.DatasetKwargs.DataFiles["test"]
	if filepath.IsAbs(data) {
		t.Errorf("%s: data_files %q is not relative", name, data)
	}
	if _, err := os.Stat(filepath.Join(dir, data)); err != nil {
		t.Errorf("%s: data_files: %v", name, err)
	}
	gen := strings.HasSuffix(name, "_gen")
	for i, row := range rows {
		if _, ok := row[c.DocToText].(string); !ok {
			t.Fatalf("%s: row %d has no string column %q for doc_to_text", name, i, c.DocToText)
		}
		target := row[c.DocToTarget]
		want := row["target_sat"]
		if strings.Contains(name, "truefalse") {
			want = row["target_tf"]
		}
		if gen {
			if c.OutputType != "generate_until" || target != want || len(c.FilterList) != 2 {
				t.Errorf("%s: row %d: output %s, target %v, want %v", name, i, c.OutputType, target, want)
			}
			continue
		}
		idx, ok := target.(float64)
		if c.OutputType != "multiple_choice" || !ok || len(c.DocToChoice) != 2 || c.DocToChoice[int(idx)] != want {
			t.Errorf("%s: row %d: choices %v, target %v, want %v", name, i, c.DocToChoice, target, want)
		}
	}
	if len(c.MetricList) != 1 {
		t.Errorf("%s: metric_list %v", name, c.MetricList)
	}
}

func TestPromptExample(t *testing.T) {
	dir := runPromptCmd(t, "-q", "--example", promptExample, "--name", "mine")
	ex := readRows(t, promptExample)[0]
	for _, row := range readRows(t, filepath.Join(dir, "zero-shot.jsonl")) {
		if row["example_id"] != ex["id"] || !strings.HasPrefix(row["prompt_tf"].(string), "Q: ") ||
			!strings.Contains(row["prompt_tf"].(string), "Set of sentences: "+ex["text"].(string)+"\n\nA: True\n\n") {
			t.Errorf("row %v does not show the example %v", row["id"], ex["id"])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "mine_truefalse.yaml")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nlsat_zero_shot_truefalse.yaml")); err == nil {
		t.Error("--name did not name the tasks")
	}
}

func TestPromptAbsolutePaths(t *testing.T) {
	dir := runPromptCmd(t, "-q", "--absolute-paths")
	b, err := os.ReadFile(filepath.Join(dir, "nlsat_zero_shot_satunsat.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := json.Marshal(filepath.Join(dir, "zero-shot.jsonl"))
	if !strings.Contains(string(b), "test: "+string(abs)+"\n") {
		t.Errorf("no absolute data_files in:\n%s", b)
	}
}

func TestStatsCommand(t *testing.T) {
	code, out, errs := nlsat(context.Background(), "", "stats", "--json", promptInput, promptExample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Records int `json:"records"`
		Strata  []struct {
			Fragment string `json:"fragment"`
			Sat      int    `json:"sat"`
			Unsat    int    `json:"unsat"`
		} `json:"strata"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	// 2 S and 2 V records in the input, 1 V in the example file.
	if rep.Records != 5 || len(rep.Strata) == 0 || rep.Strata[0].Fragment != "S" {
		t.Errorf("got %+v", rep)
	}
	in, _ := os.ReadFile(promptInput)
	code, text, _ := nlsat(context.Background(), string(in), "stats", "-")
	if code != 0 || !strings.HasPrefix(text, "4 records: ") || !strings.Contains(text, "(the paper's Table 5)") {
		t.Errorf("stats of stdin: exit %d:\n%s", code, text)
	}
	// No file at all reads stdin too, as label does.
	if code, again, _ := nlsat(context.Background(), string(in), "stats"); code != 0 || again != text {
		t.Errorf("stats without a file: exit %d:\n%s", code, again)
	}
}

// TestPromptStdin: prompt without a file reads stdin, as with "-".
func TestPromptStdin(t *testing.T) {
	in, _ := os.ReadFile(promptInput)
	var rows [2]string
	for i, args := range [][]string{{"prompt", "-"}, {"prompt"}} {
		out := filepath.Join(t.TempDir(), "p.jsonl")
		code, _, errs := nlsat(context.Background(), string(in), append(args, "--out", out, "-q")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		data, _ := os.ReadFile(out)
		rows[i] = string(data)
	}
	if rows[0] == "" || rows[0] != rows[1] {
		t.Errorf("prompt without a file wrote\n%s\nwant what prompt - wrote:\n%s", rows[1], rows[0])
	}
}

func TestPromptStatsBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "p.jsonl")
	in, _ := os.ReadFile(promptInput)
	lines := strings.SplitAfter(string(in), "\n")
	unlabelled := lines[0] + strings.Replace(lines[1], `"label":1,"label_text":"sat"`, `"label":-1,"label_text":""`, 1)
	badExample := filepath.Join(t.TempDir(), "a.jsonl")
	if err := os.WriteFile(badExample, []byte(strings.SplitAfter(unlabelled, "\n")[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	figure1 := `{"id":"f","fragment":"V","text":"x","sentences":["Some scholar does not love any musician.","Every scholar is a poet.","Every poet loves some musician."],"label":0,"label_text":"unsat","m":3}` + "\n"
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"prompt: missing file", "", []string{"prompt", filepath.Join(dir, "none.jsonl"), "--out", out}, "no such file"},
		{"prompt: no --out", "", []string{"prompt", promptInput}, `required flag(s) "out" not set`},
		{"prompt: --out -", "", []string{"prompt", promptInput, "--out", "-"}, "--out must name a file"},
		{"prompt: malformed line", lines[0] + "{not json\n", []string{"prompt", "-", "--out", out}, "stdin:2: not a record"},
		{"prompt: unlabelled", unlabelled, []string{"prompt", "-", "--out", out}, "stdin:2: record S-000001 has no label"},
		{"prompt: example among the records", figure1, []string{"prompt", "-", "--out", out}, "stdin:1: record f is the worked example"},
		{"prompt: example unlabelled", "", []string{"prompt", promptInput, "--example", badExample, "--out", out}, "a.jsonl:1: record S-000001 has no label, so it cannot be a worked example"},
		{"prompt: both from stdin", "", []string{"prompt", "-", "--example", "-", "--out", out}, "cannot both come from stdin"},
		{"prompt: label_text disagrees", strings.Replace(lines[0], `"label_text":"unsat"`, `"label_text":"sat"`, 1), []string{"prompt", "-", "--out", out}, "stdin:1: record S-000000: label_text"},
		{"stats: missing file", "", []string{"stats", filepath.Join(dir, "none.jsonl")}, "no such file"},
		{"stats: no files, empty stdin", "", []string{"stats"}, "stdin: no records"},
		{"stats: empty input", "\n", []string{"stats", "-"}, "stdin: no records"},
		{"stats: m disagrees", strings.Replace(lines[0], `"m":5`, `"m":4`, 1), []string{"stats", "-"}, "stdin:1: record S-000000: m is 4"},
	}
	for _, tt := range tests {
		code, stdout, stderr := nlsat(context.Background(), tt.stdin, tt.args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d (stderr %q)", tt.name, code, exitUsage, stderr)
		}
		if lines := strings.Count(strings.TrimSpace(stderr), "\n"); lines != 0 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: stderr %q, want one line containing %q", tt.name, stderr, tt.want)
		}
		if stdout != "" {
			t.Errorf("%s: wrote to stdout: %q", tt.name, stdout)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%s: left %v behind", tt.name, entries)
		}
	}
}
