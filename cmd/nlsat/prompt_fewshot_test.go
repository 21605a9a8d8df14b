package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goldCommand finds the nlsat eval command of a task file's header.
var goldCommand = regexp.MustCompile(`(?m)^#   nlsat eval --gold (\S+) --pred `)

// TestPromptTaskSources runs prompt on every kind of input and checks
// every task file it writes: its few-shot split (what lm-eval's
// --num_fewshot K draws demonstrations from) is declared, is not the
// scored test split and names a file of prompt rows that is not the
// test file; and the nlsat eval command of its header names records
// that exist from the task file's directory, where the header says to
// run it (for stdin, where there is no file, the placeholder
// RECORDS.jsonl).
func TestPromptTaskSources(t *testing.T) {
	// A dataset of sat/unsat records: the prompt input as its test split,
	// the example file as its validation split.
	ds := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ds, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	for from, to := range map[string]string{promptInput: "data/test.jsonl", promptExample: "data/validation.jsonl"} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ds, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Few-shot records that repeat the scored ones, and one other.
	mixed := filepath.Join(t.TempDir(), "mixed.jsonl")
	in, _ := os.ReadFile(promptInput)
	ex, _ := os.ReadFile(promptExample)
	if err := os.WriteFile(mixed, append(in, ex...), 0o644); err != nil {
		t.Fatal(err)
	}
	stdin, _ := os.ReadFile(promptInput)
	entailStdin, _ := os.ReadFile(filepath.Join(entailDir, "data/test.jsonl"))
	tests := []struct {
		name, stdin string
		args        []string
		split       string // the few-shot split declared
		fewRows     int    // rows in its file
		gold        string // the records the header's command names, "" for stdin
	}{
		{"split file: its validation split", "", []string{filepath.Join(ds, "data/test.jsonl")}, "validation", 1, filepath.Join(ds, "data/test.jsonl")},
		{"--fewshot", "", []string{promptInput, "--fewshot", promptExample}, "validation", 1, promptInput},
		{"--fewshot repeating the scored records", "", []string{promptInput, "--fewshot", mixed}, "validation", 1, promptInput},
		{"loose file: the worked example", "", []string{promptInput}, "train", 1, promptInput},
		{"stdin: the worked example", string(stdin), []string{"-"}, "train", 1, ""},
		{"absolute paths", "", []string{filepath.Join(ds, "data/test.jsonl"), "--absolute-paths"}, "validation", 1, filepath.Join(ds, "data/test.jsonl")},
		{"entailment directory", "", []string{entailDir}, "validation", 6, filepath.Join(entailDir, "data/test.jsonl")},
		{"entailment file, train as examples", "", []string{filepath.Join(entailDir, "data/test.jsonl"), "--example", filepath.Join(entailDir, "data/train.jsonl")}, "validation", 6, filepath.Join(entailDir, "data/test.jsonl")},
		{"entailment on stdin: the worked examples", string(entailStdin), []string{"-", "--example", entailDir}, "train", 6, ""},
	}
	for _, tt := range tests {
		dir := filepath.Join(t.TempDir(), "prompts")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"prompt", "--out", filepath.Join(dir, "p.jsonl"), "-q"}, tt.args...)
		if code, _, errs := nlsat(context.Background(), tt.stdin, args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.name, code, errs)
		}
		yamls, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if len(yamls) < 4 {
			t.Fatalf("%s: %d task files", tt.name, len(yamls))
		}
		for _, y := range yamls {
			c := readTaskConfig(t, y)
			at := func(name string) string {
				if filepath.IsAbs(name) {
					return name
				}
				return filepath.Join(dir, name)
			}
			few, test := c.DatasetKwargs.DataFiles[c.FewshotSplit], c.DatasetKwargs.DataFiles[c.TestSplit]
			switch {
			case c.FewshotSplit != tt.split || c.FewshotSplit == c.TestSplit:
				t.Errorf("%s: %s: fewshot_split %q (test_split %q), want %q", tt.name, filepath.Base(y), c.FewshotSplit, c.TestSplit, tt.split)
			case few == "" || few == test:
				t.Errorf("%s: %s: the few-shot split's data_files %q (test %q)", tt.name, filepath.Base(y), few, test)
			case len(readRows(t, at(few))) != tt.fewRows:
				t.Errorf("%s: %s: %d few-shot rows, want %d", tt.name, filepath.Base(y), len(readRows(t, at(few))), tt.fewRows)
			}
			b, _ := os.ReadFile(y)
			m := goldCommand.FindStringSubmatch(string(b))
			if m == nil {
				t.Fatalf("%s: %s: no nlsat eval command in the header", tt.name, filepath.Base(y))
			}
			if tt.gold == "" {
				if m[1] != "RECORDS.jsonl" {
					t.Errorf("%s: %s: --gold %s for stdin, want the placeholder", tt.name, filepath.Base(y), m[1])
				}
				continue
			}
			got, err := filepath.Abs(at(m[1]))
			want, _ := filepath.Abs(tt.gold)
			if _, statErr := os.Stat(at(m[1])); err != nil || statErr != nil || got != want {
				t.Errorf("%s: %s: --gold %s is %s from %s (%v), want %s", tt.name, filepath.Base(y), m[1], got, dir, statErr, want)
			}
			if strings.Contains(strings.Join(tt.args, " "), "--absolute-paths") != filepath.IsAbs(m[1]) {
				t.Errorf("%s: %s: --gold %s", tt.name, filepath.Base(y), m[1])
			}
		}
	}
}

// TestPromptFewshotRefused: a few-shot source that is the prompted file,
// or none at all for entailment records without worked examples, is a
// usage error: lm-eval would draw demonstrations from the scored records.
func TestPromptFewshotRefused(t *testing.T) {
	loose := filepath.Join(t.TempDir(), "entail.jsonl")
	b, err := os.ReadFile(filepath.Join(entailDir, "data/test.jsonl"))
	if err != nil || os.WriteFile(loose, b, 0o644) != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"the prompted file", []string{promptInput, "--fewshot", promptInput}, "would come from the prompted records"},
		{"stdin", []string{promptInput, "--fewshot", "-"}, "--fewshot must name a file"},
		{"entailment file alone", []string{loose}, "give --fewshot FILE"},
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "p.jsonl")
		code, _, stderr := nlsat(context.Background(), "", append([]string{"prompt", "--out", out}, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: exit %d, stderr %q, want exit %d and %q", tt.name, code, stderr, exitUsage, tt.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: wrote %s", tt.name, out)
		}
	}
}
