package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/solver/z3"
)

func TestIntRange(t *testing.T) {
	tests := []struct {
		in     string
		lo, hi int
		ok     bool
	}{
		{"16", 16, 16, true}, {"12-20", 12, 20, true}, {" 3 - 8 ", 3, 8, true},
		{"20-12", 0, 0, false}, {"-3", 0, 0, false}, {"a-b", 0, 0, false}, {"", 0, 0, false}, {"1-", 0, 0, false},
	}
	for _, tt := range tests {
		var r intRange
		err := r.Set(tt.in)
		if (err == nil) != tt.ok || (tt.ok && (r.Lo != tt.lo || r.Hi != tt.hi)) {
			t.Errorf("Set(%q) = %v, %d-%d; want ok=%v %d-%d", tt.in, err, r.Lo, r.Hi, tt.ok, tt.lo, tt.hi)
		}
	}
}

// FuzzIntRange: Set never panics, and what it accepts prints back to a
// string that Set reads as the same range.
func FuzzIntRange(f *testing.F) {
	for _, s := range []string{"16", "12-20", "0-0", "9-3", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var r intRange
		if r.Set(s) != nil {
			return
		}
		var again intRange
		if err := again.Set(r.String()); err != nil || again != r {
			t.Fatalf("%q -> %q -> %+v, %v", s, r.String(), again, err)
		}
	})
}

// TestFlagConventions checks what every command shares: -q, the same
// --timeout default, --fragment (never --fragments), and no input flag
// beside positional files but the deprecated spellings.
func TestFlagConventions(t *testing.T) {
	for _, c := range newRootCmd(streams{}).Commands() {
		if f := c.Flags().ShorthandLookup("q"); f == nil || f.Name != "quiet" {
			t.Errorf("%s: no -q, --quiet", c.Name())
		}
		if f := c.Flags().Lookup("timeout"); f != nil && f.DefValue != defaultTimeout.String() {
			t.Errorf("%s: --timeout defaults to %s, want %s", c.Name(), f.DefValue, defaultTimeout)
		}
		for _, old := range []string{"fragments", "in"} {
			if f := c.Flags().Lookup(old); f != nil && (!f.Hidden || len(f.Annotations["nlsat-deprecated"]) == 0) {
				t.Errorf("%s: --%s is not marked deprecated", c.Name(), old)
			}
		}
	}
}

// TestDeprecatedSpellings runs the old spellings, which scripts may use.
func TestDeprecatedSpellings(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := nlsat(context.Background(), "", "phase-sweep", "-q", "--fragment", "S", "--n1", "6", "--m", "4-6", "--samples", "4", "--out", dir); code != 0 {
		t.Fatalf("phase-sweep: exit %d: %s", code, errs)
	}
	code, _, errs := nlsat(context.Background(), "", "plot", "-q", "--in", dir, "--out", filepath.Join(dir, "figs"))
	if code != 0 || errs != "nlsat: --in is deprecated; give the sweep as an argument: nlsat plot SWEEP --out DIR\n" {
		t.Errorf("plot --in: exit %d, stderr %q", code, errs)
	}
	if !z3.Available() {
		t.Skip("crosscheck needs Z3 (built with -tags noz3)")
	}
	code, out, errs := nlsat(context.Background(), "", "crosscheck", "--fragments", "S,W", "--count", "2", "-q")
	if code != 0 || !strings.Contains(errs, "--fragments is deprecated; use --fragment") || !strings.Contains(out, "W") {
		t.Errorf("crosscheck --fragments: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
