package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStartProfile: a path gets a CPU profile that go tool pprof reads
// (it starts with gzip's magic bytes); no path starts nothing; a path
// that cannot be created is reported and the command goes on.
func TestStartProfile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, path string
		written    bool
	}{
		{"a file", filepath.Join(dir, "cpu.prof"), true},
		{"no path", "", false},
		{"a directory that does not exist", filepath.Join(dir, "missing", "cpu.prof"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stop := startProfile(tc.path)
			sum := 0
			for i := range 3_000_000 {
				sum += i % 7
			}
			stop()
			_ = sum
			if tc.path == "" {
				return
			}
			b, err := os.ReadFile(tc.path)
			if !tc.written {
				if err == nil {
					t.Fatalf("%s was written", tc.path)
				}
				return
			}
			if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
				t.Fatalf("profile %s: %d bytes, err %v; want a gzip stream", tc.path, len(b), err)
			}
		})
	}
}
