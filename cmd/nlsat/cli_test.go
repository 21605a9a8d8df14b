package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/golden"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// nlsat runs the command in-process and returns its exit code and output.
func nlsat(ctx context.Context, stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(ctx, args, streams{In: strings.NewReader(stdin), Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

// checkGolden compares got with testdata/name (golden.Check).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), []byte(got))
}

const figure1 = "Every scholar is a poet.\nEvery poet loves some musician.\nSome scholar does not love any musician.\n"

func TestTranslateFormats(t *testing.T) {
	for _, format := range []string{"text", "ascii", "latex", "smtlib", "tptp"} {
		code, out, errs := nlsat(context.Background(), figure1, "translate", "--format", format)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errs)
		}
		checkGolden(t, "translate-figure1."+format, out)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	solvers := []string{"native", "none"}
	if z3.Available() {
		solvers = append(solvers, "z3", "both")
	}
	for _, s := range solvers {
		count := 40
		if s == "z3" || s == "both" {
			count = 12 // z3 with certified cores costs ~0.1 s an instance
		}
		dir := t.TempDir()
		var outs []string
		for i, j := range []string{"1", "2", "2"} {
			name := filepath.Join(dir, fmt.Sprintf("out-%d-j%s.jsonl", i, j))
			code, _, errs := nlsat(context.Background(), "", "generate", "--fragment", "Z", "--count", fmt.Sprint(count),
				"--n1", "3-6", "--n2", "2-4", "--seed", "11", "-j", j, "-q", "--solver", s, "--out", name)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", s, code, errs)
			}
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			outs = append(outs, string(b))
		}
		if outs[0] != outs[1] || outs[1] != outs[2] {
			t.Errorf("%s: generate output differs between runs or -j values", s)
		}
		if n := strings.Count(outs[0], "\n"); n != count {
			t.Errorf("%s: wrote %d records, want %d", s, n, count)
		}
	}
}

func TestGenerateWithoutSolverThenLabel(t *testing.T) {
	dir := t.TempDir()
	unlabelled, labelled := filepath.Join(dir, "none.jsonl"), filepath.Join(dir, "native.jsonl")
	args := []string{"generate", "--fragment", "V", "--count", "30", "--seed", "3", "-q"}
	code, _, errs := nlsat(context.Background(), "", append(args, "--solver", "none", "--out", unlabelled)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(unlabelled)
	if strings.Count(string(b), `"label":-1,"label_text":""`) != 30 {
		t.Errorf("--solver none must write label -1 everywhere:\n%s", b)
	}
	if code, _, _ = nlsat(context.Background(), "", append(args, "--out", labelled)...); code != 0 {
		t.Fatal("generate with native failed")
	}
	code, relabelled, errs := nlsat(context.Background(), "", "label", "-q", unlabelled)
	if code != 0 {
		t.Fatalf("label: exit %d: %s", code, errs)
	}
	want, _ := os.ReadFile(labelled)
	// The same instances, labelled alike; only the ids differ, since they
	// carry the digest of each run's flags, --solver among them.
	ids := regexp.MustCompile(`"id":"V-[0-9a-f]{6}-`)
	if ids.ReplaceAllString(relabelled, "") != ids.ReplaceAllString(string(want), "") || relabelled == string(want) {
		t.Error("labelling the unlabelled file does not give the file generate labels itself, with the unlabelled run's ids")
	}
	// An audit reports labels that it changes.
	flipped := strings.Replace(string(want), `"label":1,"label_text":"sat"`, `"label":0,"label_text":"unsat"`, 1)
	code, _, errs = nlsat(context.Background(), flipped, "label", "--out", filepath.Join(dir, "audit.jsonl"))
	if code != 0 || !strings.Contains(errs, "1 input labels changed") {
		t.Errorf("audit: exit %d, stderr %q; want a report of 1 changed label", code, errs)
	}
}

func TestSolveExplains(t *testing.T) {
	code, out, errs := nlsat(context.Background(), figure1, "solve")
	if code != 0 || !strings.HasPrefix(out, "unsatisfiable") || !strings.Contains(out, "3. Some scholar does not love any musician.") ||
		!strings.Contains(out, "6. #1 loves some musician.") || !strings.Contains(out, "7. These two cannot both be true") {
		t.Errorf("figure 1: exit %d, out %q, err %q", code, out, errs)
	}
	code, out, _ = nlsat(context.Background(), figure1, "solve", "--json")
	if code != 0 || !strings.HasPrefix(out, `{"status":"unsat","mus":[1,2,3],"proof":[{"premises":[],"rule":"given"`) {
		t.Errorf("figure 1 --json: exit %d, out %q", code, out)
	}
	// Running text: a record's text, several sentences on a line.
	code, out, errs = nlsat(context.Background(), strings.ReplaceAll(figure1, "\n", " "), "solve")
	if code != 0 || !strings.Contains(out, "3. Some scholar does not love any musician.") {
		t.Errorf("figure 1 as one paragraph: exit %d, out %q, err %q", code, out, errs)
	}
	code, out, _ = nlsat(context.Background(), "", "solve", "Some scholar loves some musician. Every musician is an artist.")
	if code != 0 || !strings.HasPrefix(out, "satisfiable") || !strings.Contains(out, "loves #") {
		t.Errorf("sat: exit %d, out %q", code, out)
	}
}

// TestCancelStopsPromptly interrupts a run far too long to finish and
// checks that it stops at once, says so, and leaves no output file, only
// what a later run resumes from.
func TestCancelStopsPromptly(t *testing.T) {
	solvers := []string{"native"}
	if z3.Available() {
		solvers = append(solvers, "z3")
	}
	for _, s := range solvers {
		dir := t.TempDir()
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		start := time.Now()
		code, _, errs := nlsat(ctx, "", "generate", "--fragment", "A", "--count", "1000000", "--solver", s,
			"-q", "--out", filepath.Join(dir, "big.jsonl"))
		cancel()
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: took %v to stop", s, took)
		}
		if code != exitInterrupted || !strings.Contains(errs, "interrupted") {
			t.Errorf("%s: exit %d, stderr %q", s, code, errs)
		}
		var names []string
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if strings.Join(names, " ") != ".big.jsonl.checkpoint.json .big.jsonl.partial" {
			t.Errorf("%s: left %v behind", s, names)
		}
	}
}
