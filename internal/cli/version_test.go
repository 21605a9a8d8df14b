package cli

import (
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/solver/z3"
)

func TestVersion(t *testing.T) {
	lines := strings.Split(Version(), "\n")
	if len(lines) != 4 || lines[2] != "go: "+runtime.Version() || !strings.HasPrefix(lines[1], "commit: ") {
		t.Fatalf("Version() = %q", Version())
	}
	want := regexp.MustCompile(`^Z3 backend: libz3 [0-9]+\.[0-9]+\.[0-9]+$`)
	if !z3.Available() {
		want = regexp.MustCompile(`^Z3 backend: not compiled in \(built with -tags noz3\)$`)
	}
	if !want.MatchString(lines[3]) {
		t.Errorf("got %q, want %v", lines[3], want)
	}
}
