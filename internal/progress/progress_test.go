package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/solver"
)

func TestLogLines(t *testing.T) {
	var w bytes.Buffer
	p := New(&w, "work", 10, false)
	p.logEvery = 0 // log every instance
	p.Start(4)
	p.Add(solver.Sat, true)
	p.Add(solver.Unknown, false) // drawn again: not counted towards the total
	p.Add(solver.Unsat, true)
	p.Finish()
	lines := strings.Split(strings.TrimSpace(w.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "nlsat: work: 6/10 instances (1 sat, 1 unsat, 1 unknown)") {
		t.Errorf("log:\n%s", w.String())
	}
	w.Reset()
	q := New(&w, "work", 10, true)
	q.logEvery = time.Nanosecond
	q.Add(solver.Sat, true)
	if w.Len() != 0 {
		t.Errorf("quiet progress wrote %q", w.String())
	}
	if IsTerminal(&w) {
		t.Error("a buffer is not a terminal")
	}
}

// TestStartAfterResume: a resumed run's bar starts at the work already
// done, on a terminal or not, and counts on from there.
func TestStartAfterResume(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		p := New(&bytes.Buffer{}, "resumed", 100, quiet)
		p.Start(40)
		p.Add(solver.Sat, true)
		p.Add(solver.Unknown, false)
		if p.Done() != 41 {
			t.Errorf("quiet=%v: Done() = %d after Start(40) and one instance, want 41", quiet, p.Done())
		}
		p.Finish()
	}
}
