package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// exampleOrder is the order in which TestHelpExamples runs the commands'
// examples: later ones read what earlier ones wrote (split's nlsat-S, the
// sweeps plot redraws).
var exampleOrder = []string{"generate", "solve", "translate", "split", "label", "stats", "audit", "prompt",
	"eval", "distract", "pairs", "merge", "crosscheck", "phase-sweep", "plot", "vocab"}

// TestHelpExamples runs every nlsat command line of every command's
// Example, as written, in one directory with the few files the examples
// take from elsewhere (an instance, another tool's records, predictions, a
// region): each must succeed. Commands of other programs (z3, lm_eval) are
// left out.
func TestHelpExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds small datasets and sweeps")
	}
	t.Chdir(t.TempDir())
	write(t, "instance.txt", figure1)
	write(t, "other-tool.jsonl", figure1Record)
	region, err := os.ReadFile(filepath.Join(testDir, "..", "..", "internal", "phase", "regions", "V.json"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, "sweep-v/region.json", string(region))
	root := newRootCmd(streams{})
	var names []string
	for _, c := range root.Commands() {
		names = append(names, c.Name())
	}
	slices.Sort(names)
	if want := slices.Sorted(slices.Values(exampleOrder)); !slices.Equal(names, want) {
		t.Fatalf("commands %v, but exampleOrder has %v", names, want)
	}
	for _, name := range exampleOrder {
		c, _, _ := root.Find([]string{name})
		if name == "eval" {
			writeExamplePredictions(t, "nlsat-S/data/test.jsonl")
		}
		for _, line := range exampleLines(c.Example) {
			if !z3.Available() && (name == "crosscheck" || strings.Contains(line, "--solver both")) {
				continue
			}
			runExample(t, line)
		}
	}
}

// testDir is the package's directory, where go test starts.
var testDir, _ = os.Getwd()

func write(t *testing.T, name, data string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(name), 0o755)
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// exampleLines joins continued lines and drops comments.
func exampleLines(example string) []string {
	joined := strings.ReplaceAll(example, "\\\n", " ")
	var out []string
	for _, l := range strings.Split(joined, "\n") {
		l = regexp.MustCompile(`\s+#.*$`).ReplaceAllString(l, "")
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// runExample runs a line of stages joined by |: echo feeds the next
// stage, an nlsat stage runs in-process (with > FILE), another program
// ends the line. Lines that begin with another program are skipped.
func runExample(t *testing.T, line string) {
	t.Helper()
	stdin := ""
	for _, stage := range strings.Split(line, " | ") {
		words := shellWords(stage)
		switch words[0] {
		case "echo":
			stdin = strings.Join(words[1:], " ") + "\n"
			continue
		case "nlsat":
		default:
			return
		}
		args, redirect := words[1:], ""
		if i := slices.Index(args, ">"); i >= 0 {
			args, redirect = args[:i], args[i+1]
		}
		code, out, errs := nlsat(context.Background(), stdin, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, errs)
		}
		if redirect != "" {
			write(t, redirect, out)
		}
		stdin = out
	}
}

// shellWords splits s as a shell would for these examples: words, double
// quotes, and globs expanded in the working directory.
func shellWords(s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`"[^"]*"|\S+`).FindAllString(s, -1) {
		if strings.HasPrefix(m, `"`) {
			out = append(out, strings.Trim(m, `"`))
		} else if g, _ := filepath.Glob(m); strings.Contains(m, "*") && len(g) > 0 {
			out = append(out, g...)
		} else {
			out = append(out, m)
		}
	}
	return out
}

// writeExamplePredictions writes the predictions the eval examples score: right
// labels, free text, and an lm_eval samples file.
func writeExamplePredictions(t *testing.T, gold string) {
	var preds, texts, samples strings.Builder
	err := dataset.EachRecord(gold, nil, func(r *dataset.Record, _ string) error {
		answer := map[int]string{1: "satisfiable", 0: "unsatisfiable"}[r.Label]
		fmt.Fprintf(&preds, `{"id": %q, "label": %d}`+"\n", r.ID, r.Label)
		fmt.Fprintf(&texts, `{"id": %q, "response": "They are %s."}`+"\n", r.ID, answer)
		doc, _ := json.Marshal(map[string]any{"id": r.ID, "text": r.Text})
		fmt.Fprintf(&samples, `{"doc_id": 0, "doc": %s, "resps": [[%q]], "filtered_resps": [%q], "filter": "none"}`+"\n", doc, answer, answer)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	write(t, "preds.jsonl", preds.String())
	write(t, "gpt4.jsonl", texts.String())
	write(t, "results/gpt2/samples_nlsat_test_satunsat_gen_2025-06-01T12-00-00.jsonl", samples.String())
}
