package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLeavesNothingOnAbort(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.jsonl")
	f, err := Create(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("partial"))
	f.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("abort left %v", entries)
	}
	f, err = Create(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("whole\n"))
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("target exists before commit: %v", err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // deferred aborts after a commit must do nothing
	if b, err := os.ReadFile(name); err != nil || string(b) != "whole\n" {
		t.Errorf("got %q, %v", b, err)
	}
	if _, err := Create(filepath.Join(dir, "missing", "x.jsonl"), nil); err == nil ||
		!strings.Contains(err.Error(), "missing") {
		t.Errorf("unwritable path: got %v", err)
	}
}
