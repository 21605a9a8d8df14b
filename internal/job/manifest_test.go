package job

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// makeShard writes a finished shard: one data file and its manifest.
func makeShard(t *testing.T, kind, digest string, index, count int) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data.jsonl"), []byte(fmt.Sprintf("{\"shard\":%d}\n", index)), 0o644); err != nil {
		t.Fatal(err)
	}
	fr, err := Report(dir, "data.jsonl", 1)
	if err != nil {
		t.Fatal(err)
	}
	m := Manifest{Schema: ManifestSchema, Kind: kind, Digest: digest, Plan: json.RawMessage(`{}`), Index: index, Count: count, Files: []FileReport{fr}}
	data, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestOpen(t *testing.T) {
	s0, s1, s2 := makeShard(t, "split", "d", 0, 3), makeShard(t, "split", "d", 1, 3), makeShard(t, "split", "d", 2, 3)
	tampered := makeShard(t, "split", "d", 1, 3)
	os.WriteFile(filepath.Join(tampered, "data.jsonl"), []byte("{\"shard\":9}\n"), 0o644)
	unfinished1, unfinished2 := t.TempDir(), t.TempDir()
	tests := []struct {
		name string
		dirs []string
		want string // "" for success
	}{
		{"all, any order", []string{s2, s0, s1}, ""},
		{"missing", []string{s0, s2}, "shards [1] of 3 are missing"},
		{"twice", []string{s0, s1, s1, s2}, "shard 1 is given twice"},
		{"other digest", []string{s0, makeShard(t, "split", "e", 1, 3), s2}, "another configuration or seed"},
		{"other count", []string{s0, makeShard(t, "split", "d", 1, 4), s2}, "is shard 1 of 4"},
		{"other kind", []string{s0, makeShard(t, "generate", "d", 1, 3), s2}, "is a shard of generate, not of split"},
		{"tampered", []string{s0, tampered, s2}, "was changed or truncated"},
		{"not a shard", []string{s0, t.TempDir(), s2}, "is not a finished shard"},
		{"every problem at once", []string{unfinished1, s0, unfinished2, tampered}, unfinished1 + " is not a finished shard"},
		{"every problem at once, the second", []string{unfinished1, s0, unfinished2, tampered}, unfinished2 + " is not a finished shard"},
		{"every problem at once, the tampered", []string{unfinished1, s0, unfinished2, tampered}, "was changed or truncated"},
		{"every problem at once, the missing", []string{unfinished1, s0, unfinished2, tampered}, "shards [1 2] of 3 are missing"},
		{"none", nil, "no shard directories"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			byIndex, ms, err := Open(tt.dirs, "split")
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("got %v, want an error containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for j := range 3 {
				if byIndex[j] != []string{s0, s1, s2}[j] || ms[j].Index != j {
					t.Errorf("shard %d: %s, index %d", j, byIndex[j], ms[j].Index)
				}
			}
		})
	}
}
