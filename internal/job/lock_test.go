package job

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/inputerr"
)

// TestLockOutput: a second lock on the same output is refused at once with
// an input error naming the holder's process and host; a lock on another
// output is not; once released, the output can be locked again and no
// lock file is left.
func TestLockOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "new", "ds")
	first, err := LockOutput(out, true)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	_, err = LockOutput(out+"/", false)
	var ie *inputerr.Error
	if !errors.As(err, &ie) {
		t.Fatalf("second lock: got %v, want an input error", err)
	}
	want := regexp.MustCompile(`^` + regexp.QuoteMeta(out) + `/ is being written by another run \(pid \d+ on host ` + regexp.QuoteMeta(host) + ` since \S+, lock ` + regexp.QuoteMeta(LockName(out)) + `\)`)
	if !want.MatchString(err.Error()) || !strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())+" ") {
		t.Errorf("second lock: %v", err)
	}
	other, err := LockOutput(filepath.Join(dir, "new", "other"), false)
	if err != nil {
		t.Fatalf("another output: %v", err)
	}
	other.Release()
	first.Release()
	first.Release() // twice is harmless
	again, err := LockOutput(out, false)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again.Release()
	if entries, _ := os.ReadDir(filepath.Join(dir, "new")); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if _, err := LockOutput(filepath.Join(dir, "no", "such", "x.jsonl"), false); err == nil || !strings.HasPrefix(err.Error(), "cannot write "+filepath.Join(dir, "no", "such", "x.jsonl")) {
		t.Errorf("missing parent: got %v", err)
	}
}
