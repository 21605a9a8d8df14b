package prompt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/inputerr"
)

// sentenceTask is a task of this test only, to run the driver without
// the real tasks (which stand on a floor above this package): one
// sentence, satisfiable or not, and worked examples shown before it.
type sentenceTask struct {
	has   Options
	train bool
}

type sentence struct {
	ID       string `json:"id"`
	Sentence string `json:"sentence"`
	Label    int    `json:"label"`
}

func (s *sentence) Problem() string { return ProblemKey([]string{s.Sentence}) }

var sentenceAnswers = []string{"unsat", "sat"}

func (t sentenceTask) Has() Options { return t.has }

func (t sentenceTask) TrainExamples() bool { return t.train }

func (sentenceTask) Read(file string, stdin io.Reader, fn func(Record, string) error) error {
	r := stdin
	if file != "-" {
		b, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	sc, n := bufio.NewScanner(r), 0
	for sc.Scan() {
		n++
		var s sentence
		where := fmt.Sprintf("%s:%d", file, n)
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if err := fn(&s, where); err != nil {
			return err
		}
	}
	if n == 0 {
		return fmt.Errorf("%s: no records", file)
	}
	return sc.Err()
}

func (t sentenceTask) Examples(file string, stdin io.Reader, o Options) (Examples, error) {
	e := &sentenceExamples{cot: o.CoT}
	if file == "" {
		return e, nil
	}
	return e, t.Read(file, stdin, func(r Record, _ string) error {
		e.shots = append(e.shots, r.(*sentence))
		return nil
	})
}

type sentenceExamples struct {
	shots []*sentence
	cot   bool
}

type sentenceRow struct {
	ID        string  `json:"id"`
	Label     int     `json:"label"`
	Prompt    string  `json:"prompt"`
	Target    string  `json:"target"`
	TargetCoT *string `json:"target_cot,omitempty"`
}

func (e *sentenceExamples) About() string {
	var ids []string
	for _, s := range e.shots {
		ids = append(ids, s.ID)
	}
	return strings.Join(ids, " ")
}

func (e *sentenceExamples) Check(r Record) error {
	if e.Shown(r) {
		return fmt.Errorf("record %s is a worked example", r.(*sentence).ID)
	}
	return nil
}

func (e *sentenceExamples) Shown(r Record) bool {
	for _, s := range e.shots {
		if s.ID == r.(*sentence).ID || s.Problem() == r.Problem() {
			return true
		}
	}
	return false
}

func (e *sentenceExamples) row(s *sentence, shots []*sentence) sentenceRow {
	var b strings.Builder
	for _, x := range shots {
		b.WriteString("S: " + x.Sentence + "\nA: " + sentenceAnswers[x.Label] + "\n\n")
	}
	row := sentenceRow{ID: s.ID, Label: s.Label, Prompt: b.String() + "S: " + s.Sentence + "\nA:", Target: sentenceAnswers[s.Label]}
	if e.cot {
		cot := "Because.\nAnswer: " + row.Target
		row.TargetCoT = &cot
	}
	return row
}

func (e *sentenceExamples) Row(r Record) (any, error) { return e.row(r.(*sentence), e.shots), nil }

func (e *sentenceExamples) Rows() ([]any, string) {
	var rows []any
	for _, s := range e.shots {
		rows = append(rows, e.row(s, nil))
	}
	return rows, "the worked examples alone"
}

func (e *sentenceExamples) Tasks(tag string) []HarnessTask {
	v := Variant{Key: "sentence", Prompt: "prompt", Target: "target", Choices: sentenceAnswers,
		About: "One sentence: answer \"sat\" or \"unsat\"", Shots: len(e.shots) > 0}
	ts := HarnessTasks(tag, v)
	if e.cot {
		ts = append(ts, CoTTask(tag, v))
	}
	return ts
}

func writeLines(t *testing.T, name string, lines ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func rowIDs(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		var r sentenceRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	return ids
}

// TestRun runs the driver over a task of this test: the records of a
// file or of a dataset directory's split, the worked examples (named,
// from the train split, or none), the few-shot split (beside the
// records, named, or the worked examples alone) and the options, and
// checks the rows, the few-shot rows, the task files and the refusals.
func TestRun(t *testing.T) {
	ds := t.TempDir()
	writeLines(t, filepath.Join(ds, "data/test.jsonl"),
		`{"id":"a","sentence":"Every A is a B.","label":1}`,
		`{"id":"b","sentence":"Some A is not an A.","label":0}`,
		`{"id":"c","sentence":"Some B is an A.","label":1}`)
	writeLines(t, filepath.Join(ds, "data/validation.jsonl"),
		`{"id":"d","sentence":"No A is a B.","label":1}`,
		`{"id":"a2","sentence":" Every A is a B. ","label":1}`)
	writeLines(t, filepath.Join(ds, "data/train.jsonl"),
		`{"id":"e","sentence":"Every C is not a C.","label":0}`,
		`{"id":"f","sentence":"Some C is a D.","label":1}`)
	loose := filepath.Join(t.TempDir(), "test.jsonl")
	writeLines(t, loose, `{"id":"a","sentence":"Every A is a B.","label":1}`)
	train := filepath.Join(ds, "data/train.jsonl")
	tests := []struct {
		name    string
		task    sentenceTask
		c       Config
		err     string // a part of the error; "" for none
		fewshot []string
		split   string
		tasks   []string
		header  string // a line of the first task file's header
	}{
		{name: "dataset directory, examples from train", task: sentenceTask{train: true}, c: Config{In: ds, Split: "test"},
			fewshot: []string{"d"}, split: "validation", tasks: []string{"t_sentence", "t_sentence_gen"},
			header: "# The worked examples (e f) are part of each prompt: keep num_fewshot at 0."},
		{name: "dataset directory, no examples", c: Config{In: ds, Split: "test"},
			fewshot: []string{"d"}, split: "validation", tasks: []string{"t_sentence", "t_sentence_gen"},
			header: "# 3 instances of test.jsonl."},
		{name: "loose file, examples named", c: Config{In: loose, Examples: ds},
			fewshot: []string{"e", "f"}, split: "train", tasks: []string{"t_sentence", "t_sentence_gen"},
			header: "# (p.fewshot.jsonl: the prompts of the worked examples alone), never from the scored records."},
		{name: "loose file, few-shot records named", c: Config{In: loose, Fewshot: train},
			fewshot: []string{"e", "f"}, split: "train", tasks: []string{"t_sentence", "t_sentence_gen"}},
		{name: "chain of thought", task: sentenceTask{has: Options{CoT: true}}, c: Config{In: loose, Examples: train, Options: Options{CoT: true}},
			fewshot: []string{"e", "f"}, split: "train", tasks: []string{"t_sentence", "t_sentence_gen", "t_sentence_cot"}},
		{name: "loose file alone", c: Config{In: loose}, err: "no records for lm-eval's few-shot demonstrations"},
		{name: "a worked example among the records", c: Config{In: filepath.Join(ds, "data/validation.jsonl"), Examples: loose},
			err: "validation.jsonl:2: record a2 is a worked example"},
		{name: "examples from the prompted records", c: Config{In: loose, Examples: loose}, err: "would come from the prompted records"},
		{name: "no such split", c: Config{In: ds, Split: "dev"}, err: `no split "dev"`},
		{name: "an option the task has not", c: Config{In: loose, Examples: train, Options: Options{CoT: true}}, err: "has no chain-of-thought targets"},
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "p.jsonl")
		tt.c.Out = out
		tt.c.TaskFile, _ = NewTaskFile("t", out, false)
		if tt.c.Split == "" {
			tt.c.Split = "test"
		}
		res, err := Run(tt.task, tt.c, strings.NewReader(""), io.Discard)
		if tt.err != "" {
			var ie *inputerr.Error
			if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, &ie) {
				t.Errorf("%s: error %v, want the user's, with %q", tt.name, err, tt.err)
			}
			if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 0 {
				t.Errorf("%s: wrote %v", tt.name, entries)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if res.Rows != len(rowIDs(t, out)) || !reflect.DeepEqual(res.Tasks, tt.tasks) {
			t.Errorf("%s: %+v, want %d rows and tasks %v", tt.name, res, len(rowIDs(t, out)), tt.tasks)
		}
		if got := rowIDs(t, FewshotPath(out)); !reflect.DeepEqual(got, tt.fewshot) {
			t.Errorf("%s: few-shot rows %v, want %v", tt.name, got, tt.fewshot)
		}
		for _, name := range tt.tasks {
			b, err := os.ReadFile(filepath.Join(filepath.Dir(out), name+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "\nfewshot_split: "+tt.split+"\n") || !strings.Contains(string(b), tt.header+"\n") {
				t.Errorf("%s: %s has not fewshot_split %s and %q:\n%s", tt.name, name, tt.split, tt.header, b)
			}
		}
	}
}

// TestRunCoTRows: with chain-of-thought targets every row has one, and
// the chain-of-thought task scores it.
func TestRunCoTRows(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.jsonl")
	writeLines(t, in, `{"id":"a","sentence":"Every A is a B.","label":1}`)
	out := filepath.Join(t.TempDir(), "p.jsonl")
	tf, _ := NewTaskFile("t", out, false)
	stdin := strings.NewReader(`{"id":"x","sentence":"No A is an A.","label":0}` + "\n")
	if _, err := Run(sentenceTask{has: Options{CoT: true}}, Config{In: in, Examples: "-", Out: out, Options: Options{CoT: true}, TaskFile: tf}, stdin, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if want := `"target_cot":"Because.\nAnswer: sat"`; !strings.Contains(string(b), want) {
		t.Errorf("rows %s lack %s", b, want)
	}
	y, _ := os.ReadFile(filepath.Join(filepath.Dir(out), "t_sentence_cot.yaml"))
	for _, want := range []string{
		"# One sentence: answer \"sat\" or \"unsat\", with a chain-of-thought target (target_cot), from nlsat prompt --cot.\n# 1 instances of in.jsonl.\n",
		"\ndoc_to_text: prompt\noutput_type: generate_until\ndoc_to_target: target_cot\n",
		"--chains\n",
	} {
		if !strings.Contains(string(y), want) {
			t.Errorf("the chain-of-thought task lacks %q:\n%s", want, y)
		}
	}
}

// TestYAMLChoices: a multiple_choice task names the answers in label
// order and the label column; a generate_until task's filters try an
// answer that contains another first.
func TestYAMLChoices(t *testing.T) {
	v := Variant{Key: "k", Prompt: "p", Target: "tg", Choices: []string{"unsat", "sat"}, Label: "lbl", About: "x"}
	for _, tt := range []struct {
		task HarnessTask
		want []string
	}{
		{HarnessTasks("t", v)[0], []string{"output_type: multiple_choice\ndoc_to_target: lbl\ndoc_to_choice: [\"unsat\", \"sat\"]\n", "metric: acc\n"}},
		{HarnessTasks("t", v)[1], []string{"output_type: generate_until\ndoc_to_target: tg\n", `regex_pattern: "(?i)^\\s*(unsat|sat)\\b"`, `regex_pattern: "(?i)\\b(unsat|sat)\\b"`}},
	} {
		var b bytes.Buffer
		if err := tt.task.WriteYAML(&b, TaskFile{Tag: "t", DataFiles: "x.jsonl"}); err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q:\n%s", tt.task.Name, w, b.String())
			}
		}
	}
}
