package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMaxMemory checks the memory guard: an instance whose search needs
// more than --max-memory fails label, generate and solve with exit status
// 1 and a message naming the instance and the budget, and no output file.
func TestMaxMemory(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "big.jsonl")
	ctx := context.Background()
	big := []string{"--fragment", "A", "--n1", "24", "--n2", "24", "--m", "84", "--seed", "1", "--count", "2", "-q"}
	if code, _, errs := nlsat(ctx, "", append([]string{"generate", "--solver", "none", "--out", in}, big...)...); code != 0 {
		t.Fatalf("generate --solver none: exit %d: %s", code, errs)
	}
	out := filepath.Join(dir, "out.jsonl")
	for _, tc := range []struct {
		name string
		args []string
		what string // how the message names the instance
	}{
		{"label", []string{"label", in, "--out", out}, "record 1"},
		{"generate", append([]string{"generate", "--out", out}, big...), "instance 1:0"},
		{"generous budget", []string{"label", in, "--out", out, "--max-memory", "1GiB"}, ""},
	} {
		args := tc.args
		if tc.what != "" {
			args = append(args, "--max-memory", "16KB")
		}
		code, _, errs := nlsat(ctx, "", args...)
		_, statErr := os.Stat(out)
		if tc.what == "" {
			if code != 0 || statErr != nil {
				t.Errorf("%s: exit %d (%s), output %v", tc.name, code, errs, statErr)
			}
			continue
		}
		if code != exitFailure || !strings.Contains(errs, tc.what) || !strings.Contains(errs, "16 KiB") || !strings.Contains(errs, "--max-memory") {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 naming %q and the budget", tc.name, code, errs, tc.what)
		}
		if !os.IsNotExist(statErr) {
			t.Errorf("%s: an output file was written (%v)", tc.name, statErr)
		}
	}
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct{ Sentences []string }
	if err := json.Unmarshal([]byte(strings.SplitN(string(data), "\n", 2)[0]), &rec); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := nlsat(ctx, strings.Join(rec.Sentences, "\n"), "solve", "--max-memory", "16KB")
	if code != exitFailure || stdout != "" || !strings.Contains(errs, "16 KiB") {
		t.Errorf("solve: exit %d, stdout %q, stderr %q; want exit 1 naming the budget, no answer", code, stdout, errs)
	}
}
