package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/pairs"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// decodePairs reads a pairs file into its records, two per pair.
func decodePairs(t *testing.T, out string) []pairs.Record {
	t.Helper()
	var recs []pairs.Record
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		var r pairs.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if len(recs)%2 != 0 {
		t.Fatalf("%d records: twins come in twos", len(recs))
	}
	return recs
}

// TestPairsGolden runs pairs on a fixed input (two generated instances per
// fragment, testdata/pairs-input.jsonl) and compares stdout and stderr
// with the golden files; -j 2 into a file must give the same bytes.
func TestPairsGolden(t *testing.T) {
	in := filepath.Join("testdata", "pairs-input.jsonl")
	code, out, errs := nlsat(context.Background(), "", "pairs", "-j", "1", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	checkGolden(t, "pairs-output.jsonl", out)
	checkGolden(t, "pairs-output.stderr", errs)
	recs := decodePairs(t, out)
	for i := 0; i < len(recs); i += 2 {
		if err := pairs.CheckTwins(&recs[i], &recs[i+1]); err != nil {
			t.Error(err)
		}
	}
	file := filepath.Join(t.TempDir(), "p.jsonl")
	if code, _, errs := nlsat(context.Background(), "", "pairs", "-j", "2", "-q", in, "--out", file); code != 0 {
		t.Fatalf("-j 2: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(file); string(b) != out {
		t.Error("pairs -j 2 --out writes other bytes than pairs -j 1 to stdout")
	}
}

// TestPairsBothSolvers checks that z3 agrees with native on every twin:
// --solver both labels only where the two agree and stops otherwise, and
// it must find the same edits.
func TestPairsBothSolvers(t *testing.T) {
	if !z3.Available() {
		t.Skip("z3 is not available (built with -tags noz3 or without libz3)")
	}
	in := filepath.Join("testdata", "pairs-input.jsonl")
	_, native, _ := nlsat(context.Background(), "", "pairs", "-q", in)
	code, both, errs := nlsat(context.Background(), "", "pairs", "-q", "--solver", "both", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	a, b := decodePairs(t, native), decodePairs(t, both)
	if len(a) != len(b) {
		t.Fatalf("native wrote %d records, both %d", len(a), len(b))
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Label != b[i].Label || a[i].Edit != b[i].Edit || a[i].Text != b[i].Text {
			t.Errorf("record %d: native %s %s %+v, both %s %s %+v", i, a[i].ID, a[i].LabelText, a[i].Edit, b[i].ID, b[i].LabelText, b[i].Edit)
		}
		if !strings.Contains(b[i].Solver, "z3") {
			t.Errorf("record %d: solver %q", i, b[i].Solver)
		}
	}
}

func TestPairsBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.jsonl")
	good, err := os.ReadFile(filepath.Join("testdata", "pairs-input.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitAfter(string(good), "\n")[0]
	unlabelled := strings.Replace(first, `"label":1,"label_text":"sat"`, `"label":-1,"label_text":""`, 1)
	wrong := strings.Replace(first, `"label":1,"label_text":"sat"`, `"label":0,"label_text":"unsat"`, 1)
	if unlabelled == first || wrong == first {
		t.Fatal("the first input record is not sat any more: adapt the test")
	}
	badFile := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(badFile, []byte(first+"{\"id\": \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"unlabelled record", first + unlabelled, []string{"pairs", "--out", out}, "stdin:2: record \"S-000000\" is not labelled (label -1)"},
		{"no label key", `{"sentences": ["Every poet is a scholar."]}` + "\n", []string{"pairs", "--out", out}, "stdin:1: record \"\" is not labelled"},
		{"malformed line", "{\"id\": \n", []string{"pairs", "--out", out}, "stdin:1: not a record"},
		{"malformed line in a file", "", []string{"pairs", badFile, "--out", out}, badFile + ":2: not a record"},
		{"outside the grammar", `{"id": "a", "label": 1, "label_text": "sat", "sentences": ["Every poet admire some scholar."]}` + "\n",
			[]string{"pairs", "--out", out}, `stdin:1: sentence 1: "Every poet admire some scholar."`},
		{"wrong label", wrong, []string{"pairs", "--out", out}, "stdin:1: record S-000000 is labelled unsat, but nlsat-native-1 decides sat"},
		{"no records", "", []string{"pairs", "--out", out}, "stdin: no records"},
		{"missing file", "", []string{"pairs", filepath.Join(dir, "none.jsonl"), "--out", out}, "cannot read records"},
		{"bad solver", first, []string{"pairs", "--solver", "cvc5", "--out", out}, `"cvc5" is not one of native, z3, both`},
		{"two files", "", []string{"pairs", "a.jsonl", "b.jsonl"}, "accepts at most 1 arg"},
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
