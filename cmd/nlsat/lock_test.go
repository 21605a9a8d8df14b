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
	if left := leftovers(t, dir); left != "g.jsonl" {
		t.Errorf("a finished run left %s", left)
	}
}
