package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of stopping.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, a ...any) { r.errs = append(r.errs, format) }
func (r *recorder) Fatalf(format string, a ...any) { r.errs = append(r.errs, format) }
func (r *recorder) Helper()                        {}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	os.WriteFile(path, []byte("a\nb\n"), 0o644)
	for _, tt := range []struct {
		name, got string
		fails     bool
	}{{"same", "a\nb\n", false}, {"other line", "a\nc\n", true}, {"longer", "a\nb\nc\n", true}} {
		r := &recorder{TB: t}
		Check(r, path, []byte(tt.got))
		if (len(r.errs) > 0) != tt.fails {
			t.Errorf("%s: failures %v, want failing %v", tt.name, r.errs, tt.fails)
		}
	}
	r := &recorder{TB: t}
	Check(r, filepath.Join(t.TempDir(), "missing.golden"), nil)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "-update") {
		t.Errorf("a missing file: %v", r.errs)
	}
}
