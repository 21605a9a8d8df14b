package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/job"
)

// TestLockedOutput: while another run holds an output, split, generate
// and phase-sweep on it exit 2 at once with one line naming the holder's
// process, and write nothing; once it is released, the output is theirs.
func TestLockedOutput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		out  string
		args []string
	}{
		{"split", "ds", []string{"split", "-q", "--fragment", "S", "--train", "20", "--validation", "4", "--test", "4"}},
		{"split entailment", "ent", []string{"split", "-q", "--task", "entailment", "--fragment", "S", "--train", "6", "--validation", "6", "--test", "6"}},
		{"generate", "g.jsonl", []string{"generate", "-q", "--fragment", "S", "--count", "4"}},
		{"generate shard", "shard", []string{"generate", "-q", "--fragment", "S", "--count", "4", "--shard-index", "0", "--shard-count", "2"}},
		{"phase-sweep", "sweep", []string{"phase-sweep", "-q", "--fragment", "S", "--n1", "6", "--m", "4", "--samples", "2"}},
	}
	for _, tt := range tests {
		out := filepath.Join(dir, tt.out)
		l, err := job.LockOutput(out, false)
		if err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := nlsat(context.Background(), "", append(tt.args, "--out", out)...)
		l.Release()
		want := out + " is being written by another run (pid " + strconv.Itoa(os.Getpid()) + " on host "
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and one line containing %q", tt.name, code, stdout, stderr, exitUsage, want)
		}
		if left := leftovers(t, dir); left != "" {
			t.Errorf("%s: left %s", tt.name, left)
		}
	}
	out := filepath.Join(dir, "g.jsonl")
	if code, _, stderr := nlsat(context.Background(), "", "generate", "-q", "--fragment", "S", "--count", "4", "--out", out); code != 0 {
		t.Fatalf("after release: exit %d: %s", code, stderr)
	}
	if left := leftovers(t, dir); left != ".g.jsonl.done.json g.jsonl" {
		t.Errorf("a finished run left %s", left)
	}
}

// TestNothingToDo: generate and phase-sweep run again on their finished
// output say there is nothing to do and leave it as it is, as split does;
// an output changed since, or another plan, is made again.
func TestNothingToDo(t *testing.T) {
	dir := t.TempDir()
	gen := filepath.Join(dir, "g.jsonl")
	sweep := filepath.Join(dir, "sweep")
	runs := []struct {
		name, out, file string
		args            []string
		want            string
	}{
		{"generate", gen, gen, []string{"generate", "--fragment", "S", "--count", "6", "--seed", "2", "--out", gen},
			"nlsat: " + gen + " already holds these 6 records, checksum intact; nothing to do\n"},
		{"phase-sweep", sweep, filepath.Join(sweep, "points.csv"), []string{"phase-sweep", "--fragment", "S", "--n1", "6", "--m", "4-8", "--m-step", "2", "--samples", "4", "--out", sweep},
			"nlsat: " + sweep + " already holds this sweep, checksums intact; nothing to do\n"},
	}
	for _, r := range runs {
		if code, _, errs := nlsat(context.Background(), "", r.args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", r.name, code, errs)
		}
		first := readFile(t, r.file)
		info, _ := os.Stat(r.file)
		code, _, errs := nlsat(context.Background(), "", r.args...)
		if code != 0 || errs != r.want {
			t.Errorf("%s again: exit %d, stderr %q, want %q", r.name, code, errs, r.want)
		}
		if again, _ := os.Stat(r.file); !again.ModTime().Equal(info.ModTime()) {
			t.Errorf("%s again: %s was written again", r.name, r.file)
		}
		// A changed output is made again, to the same bytes.
		os.WriteFile(r.file, []byte("edited\n"), 0o644)
		if code, _, errs := nlsat(context.Background(), "", r.args...); code != 0 || strings.Contains(errs, "nothing to do") {
			t.Errorf("%s after an edit: exit %d: %s", r.name, code, errs)
		}
		if readFile(t, r.file) != first {
			t.Errorf("%s after an edit: %s differs from the first run's", r.name, r.file)
		}
	}
	// Another seed into the same file is another plan: made anew.
	if code, _, errs := nlsat(context.Background(), "", "generate", "--fragment", "S", "--count", "6", "--seed", "3", "--out", gen); code != 0 || strings.Contains(errs, "nothing to do") {
		t.Errorf("generate with another seed: exit %d: %s", code, errs)
	}
}
