package job

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDoneStamp: a stamp says done for its digest while every file it
// lists is there unchanged, and not for another digest, an edited or
// missing file, or no stamp; DirFiles skips hidden files.
func TestDoneStamp(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "S"), 0o755)
	for _, f := range []string{"a.csv", "S/b.png", ".checkpoint.json"} {
		os.WriteFile(filepath.Join(dir, f), []byte(f), 0o644)
	}
	files, err := DirFiles(dir)
	if err != nil || !slices.Equal(files, []string{"S/b.png", "a.csv"}) {
		t.Fatalf("DirFiles: %v, %v", files, err)
	}
	stamp := DoneDir(dir)
	if IsDone(stamp, "d1") {
		t.Error("done without a stamp")
	}
	if err := WriteDone(stamp, "d1", files); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		edit   func()
		digest string
		want   bool
	}{
		{"as written", func() {}, "d1", true},
		{"another digest", func() {}, "d2", false},
		{"a file edited", func() { os.WriteFile(filepath.Join(dir, "a.csv"), []byte("x"), 0o644) }, "d1", false},
		{"a file restored", func() { os.WriteFile(filepath.Join(dir, "a.csv"), []byte("a.csv"), 0o644) }, "d1", true},
		{"a file gone", func() { os.Remove(filepath.Join(dir, "S", "b.png")) }, "d1", false},
	}
	for _, tt := range tests {
		tt.edit()
		if got := IsDone(stamp, tt.digest); got != tt.want {
			t.Errorf("%s: IsDone = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := DoneFile(filepath.Join("out", "x.jsonl")); got != filepath.Join("out", ".x.jsonl.done.json") {
		t.Errorf("DoneFile: %s", got)
	}
}
