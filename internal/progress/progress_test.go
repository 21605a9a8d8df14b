package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestLogLines(t *testing.T) {
	var w bytes.Buffer
	p := New(&w, "work", 10, false)
	p.logEvery = 0 // log every instance
	p.Start(4)
	p.Add(Sat, true)
	p.Add(Unknown, false) // drawn again: not counted towards the total
	p.Add(Unsat, true)
	p.Finish()
	lines := strings.Split(strings.TrimSpace(w.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "nlsat: work: 6/10 instances (1 sat, 1 unsat, 1 unknown)") {
		t.Errorf("log:\n%s", w.String())
	}
	w.Reset()
	u := New(&w, "set", 10, false).Units("accepted", "collected so far")
	u.logEvery = 0
	u.Add(Sat, false)
	u.Add(Unsat, false)
	u.Set(1)
	u.Add(Sat, true)
	u.Finish()
	if !strings.Contains(w.String(), "nlsat: set: 2/10 accepted (collected so far: 2 sat, 1 unsat, 0 unknown)") {
		t.Errorf("log of a bar with its units:\n%s", w.String())
	}
	w.Reset()
	q := New(&w, "work", 10, true)
	q.logEvery = time.Nanosecond
	q.Add(Sat, true)
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
		p.Add(Sat, true)
		p.Add(Unknown, false)
		if p.Done() != 41 {
			t.Errorf("quiet=%v: Done() = %d after Start(40) and one instance, want 41", quiet, p.Done())
		}
		p.Finish()
	}
}

// TestTerminalWidth drives the terminal line at 80 columns (and at widths
// down to 20) through a run, past its total and with long tallies: every
// line drawn fits the width, is redrawn in place (a carriage return, no
// newline) and the last one is cleared by Finish.
func TestTerminalWidth(t *testing.T) {
	tests := []struct {
		name  string
		what  string
		total int
		names []string
		width int
	}{
		{"generate", "generate A", 4000, nil, 80},
		{"split set", "split A,S,W,V,Z train", 120_000, nil, 80},
		{"entail", "entail A", 3000, []string{"entailment", "neutral", "contradiction"}, 80},
		{"unknown total", "split A writing train.jsonl", -1, nil, 80},
		{"narrow", "split A validation pilot", 20_000, nil, 40},
		{"very narrow", "split A validation pilot", 20_000, nil, 20},
		{"wide", "generate S", 50, nil, 200},
	}
	for _, tt := range tests {
		var w bytes.Buffer
		p := newBar(&w, tt.what, tt.total, func() int { return tt.width })
		p.names = tt.names
		p.Start(3)
		for i := range max(tt.total, 500) + 30 { // past the total too
			p.Add(i%3, true)
			p.mu.Lock()
			p.draw(time.Now().Add(time.Duration(i) * time.Second))
			p.mu.Unlock()
		}
		p.Finish()
		out := w.String()
		if strings.Contains(out, "\n") {
			t.Errorf("%s: a newline in terminal output", tt.name)
		}
		if !strings.HasSuffix(out, "\r\x1b[K") {
			t.Errorf("%s: the line is not cleared at the end: %q", tt.name, out[max(0, len(out)-100):])
		}
		lines := strings.Split(strings.ReplaceAll(out, "\x1b[K", ""), "\r")
		longest := ""
		for _, l := range lines {
			if columns(l) >= tt.width {
				t.Errorf("%s: a line of %d columns at width %d: %q", tt.name, columns(l), tt.width, l)
				break
			}
			if len(l) > len(longest) {
				longest = l
			}
		}
		if !strings.HasPrefix(longest, tt.what[:min(len(tt.what), tt.width/2)]) {
			t.Errorf("%s: the line does not begin with what: %q", tt.name, longest)
		}
	}
}

// TestLineParts: at 80 columns a set's line shows its bar, count and
// estimate; past the total it shows the count alone, with no estimate.
func TestLineParts(t *testing.T) {
	now := time.Now()
	p := newBar(&bytes.Buffer{}, "split A train", 1000, nil)
	p.start = now.Add(-10 * time.Second)
	p.done = 250
	got := p.line(now, 80)
	for _, want := range []string{"split A train  25% [#", "] 250/1000", "25/s", "10s, ETA 30s"} {
		if !strings.Contains(got, want) {
			t.Errorf("line %q lacks %q", got, want)
		}
	}
	p.done = 1300
	got = p.line(now, 80)
	if strings.Contains(got, "ETA") || strings.Contains(got, "/1000") || !strings.Contains(got, " 1300 ") {
		t.Errorf("past the total: %q", got)
	}
	u := newBar(&bytes.Buffer{}, "split A main", 1000, nil).Units("accepted", "collected so far")
	u.start, u.done = now.Add(-10*time.Second), 250
	u.counts[Sat], u.counts[Unsat] = 200, 100
	got = u.line(now, 120)
	for _, want := range []string{"] 250/1000 accepted (collected so far: 200 sat, 100 unsat, 0 unknown) 25/s"} {
		if !strings.Contains(got, want) {
			t.Errorf("line %q lacks %q", got, want)
		}
	}
	q := newBar(&bytes.Buffer{}, "split A auditing the files", -1, nil)
	q.start = now.Add(-75 * time.Second)
	if got := q.line(now, 80); got != "split A auditing the files 1m15s" {
		t.Errorf("unknown total: %q", got)
	}
}
