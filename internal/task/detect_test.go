package task_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/task"
	"github.com/nlsat/nlsat/internal/task/entailment"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

func init() { task.Register(satunsat.Task, entailment.Task) }

// TestDetect: the records of each task are told apart in every format,
// as a file, as a split file of a dataset and as a dataset directory
// whose manifest names their schema.
func TestDetect(t *testing.T) {
	dir := t.TempDir()
	n := generate.Range{Lo: 4, Hi: 4}
	plan, err := generate.NewPlan(generate.Options{Fragment: fragments.V, Sampler: fragments.DefaultSampler(), N1: &n, N2: &n,
		Seed: 1, Count: 6, Solver: "native", SolverName: "native"})
	if err != nil {
		t.Fatal(err)
	}
	newBackend := func() (solver.Backend, error) { return native.New(native.Options{}), nil }
	type file struct {
		path string
		want *task.Task
	}
	var files []file
	for _, tk := range []*task.Task{satunsat.Task, entailment.Task} {
		for _, fm := range []dataset.Format{dataset.JSONL, dataset.Parquet} {
			out := filepath.Join(dir, tk.Name+fm.Ext())
			if _, err := generate.Run(context.Background(), tk.Generate, plan, generate.RunOptions{Out: out, Workers: 1, NewBackend: newBackend}); err != nil {
				t.Fatal(err)
			}
			files = append(files, file{out, tk})
		}
		// A dataset whose manifest names the other task's schema is
		// told by its manifest.
		ds := filepath.Join(dir, tk.Name+"-set")
		if err := os.MkdirAll(filepath.Join(ds, "data"), 0o755); err != nil {
			t.Fatal(err)
		}
		other := entailment.Task
		if tk == entailment.Task {
			other = satunsat.Task
		}
		b, _ := os.ReadFile(filepath.Join(dir, other.Name+".jsonl"))
		os.WriteFile(filepath.Join(ds, "data", "test.jsonl"), b, 0o644)
		os.WriteFile(filepath.Join(ds, "manifest.json"), []byte(`{"record_schema":"`+tk.Schemas[0]+`"}`), 0o644)
		files = append(files, file{ds, tk}, file{filepath.Join(ds, "data", "test.jsonl"), tk})
	}
	for _, f := range files {
		got, err := task.Detect(f.path)
		if err != nil || got != f.want {
			t.Errorf("Detect(%s) = %v, %v; want %v", filepath.Base(f.path), got, err, f.want)
		}
	}
	// A record's line alone (as on stdin) is told as its file is.
	for _, tk := range []*task.Task{satunsat.Task, entailment.Task} {
		b, _ := os.ReadFile(filepath.Join(dir, tk.Name+".jsonl"))
		line, _, _ := strings.Cut(string(b), "\n")
		if got, err := task.DetectLine([]byte(line), "stdin"); err != nil || got != tk {
			t.Errorf("DetectLine(a %s record) = %v, %v", tk.Name, got, err)
		}
	}
	if got, err := task.DetectLine([]byte("not json"), "stdin"); err != nil || got != satunsat.Task {
		t.Errorf("DetectLine(not a record) = %v, %v; want the task without marks, whose reader says what is wrong", got, err)
	}
	if _, err := task.Detect(filepath.Join(dir, "absent.jsonl")); err == nil {
		t.Error("Detect of a missing file: no error")
	}
}

// TestDetectDatasets: the datasets of eval's tests, as directories and
// files, and a manifest's record schema winning over the records' keys.
func TestDetectDatasets(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	entail, _ := os.ReadFile("../eval/testdata/entail/data/test.jsonl")
	sat, _ := os.ReadFile("../eval/testdata/lmeval/gold.jsonl")
	write("m/manifest.json", `{"schema": "nlsat-manifest/1"}`)
	write("n/manifest.json", `{"record_schema": "nlsat-record/3"}`)
	write("p/manifest.json", `{"record_schema": "nlsat-entail/1"}`)
	for _, tt := range []struct {
		path string
		want *task.Task
	}{
		{"../eval/testdata/entail", entailment.Task},
		{"../eval/testdata/entail/data/test.jsonl", entailment.Task},
		{"../eval/testdata/lmeval/gold.jsonl", satunsat.Task},
		{"../eval/testdata/small", satunsat.Task},
		{write("m/data/test.jsonl", string(entail)), entailment.Task},
		{write("n/data/test.jsonl", string(sat)), satunsat.Task},
		{write("p/data/test.jsonl", string(sat)), entailment.Task},
	} {
		if got, err := task.Detect(tt.path); err != nil || got != tt.want {
			t.Errorf("Detect(%s) = %v, %v; want %v", tt.path, got, err, tt.want)
		}
	}
}
