package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"github.com/nlsat/nlsat/internal/solver/z3"
)

func TestIntRange(t *testing.T) {
	tests := []struct {
		in           string
		stepped      bool
		lo, hi, step int
		ok           bool
	}{
		{"16", false, 16, 16, 1, true}, {"12-20", false, 12, 20, 1, true}, {" 3 - 8 ", false, 3, 8, 1, true},
		{"20-12", false, 0, 0, 0, false}, {"-3", false, 0, 0, 0, false}, {"a-b", false, 0, 0, 0, false}, {"", false, 0, 0, 0, false}, {"1-", false, 0, 0, 0, false},
		{"6-16:2", false, 0, 0, 0, false}, // generate's --n1 takes no step
		{"6-16:2", true, 6, 16, 2, true}, {"3-8", true, 3, 8, 1, true}, {"6:3", true, 6, 6, 1, true},
		{"6-16:0", true, 0, 0, 0, false}, {"6-16:x", true, 0, 0, 0, false}, {"6-16:", true, 0, 0, 0, false},
	}
	for _, tt := range tests {
		r := intRange{stepped: tt.stepped}
		err := r.Set(tt.in)
		if (err == nil) != tt.ok || (tt.ok && (r.Lo != tt.lo || r.Hi != tt.hi || r.Step != tt.step)) {
			t.Errorf("Set(%q) = %v, %d-%d:%d; want ok=%v %d-%d:%d", tt.in, err, r.Lo, r.Hi, r.Step, tt.ok, tt.lo, tt.hi, tt.step)
		}
	}
}

// FuzzIntRange: Set never panics, and what it accepts prints back to a
// string that Set reads as the same range.
func FuzzIntRange(f *testing.F) {
	for _, s := range []string{"16", "12-20", "0-0", "9-3", "x"} {
		f.Add(s)
	}
	f.Add("6-16:2")
	f.Fuzz(func(t *testing.T, s string) {
		for _, stepped := range []bool{false, true} {
			r := intRange{stepped: stepped}
			if r.Set(s) != nil {
				continue
			}
			again := intRange{stepped: stepped}
			if err := again.Set(r.String()); err != nil || again != r {
				t.Fatalf("%q -> %q -> %+v, %v", s, r.String(), again, err)
			}
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

// TestFlagHelpWrapped: every command's help, at 80 columns and at 70,
// gives its flags in lines that fit, each flag still named, and every word
// of every description still there.
func TestFlagHelpWrapped(t *testing.T) {
	defer func(w func() int) { helpWidth = w }(helpWidth)
	for _, width := range []int{80, 70} {
		helpWidth = func() int { return width }
		for _, c := range newRootCmd(streams{}).Commands() {
			code, out, _ := nlsat(context.Background(), "", c.Name(), "--help")
			if code != 0 {
				t.Fatalf("%s --help: exit %d", c.Name(), code)
			}
			_, flags, ok := strings.Cut(out, "\nFlags:\n")
			if !ok {
				t.Errorf("%s --help: no Flags section", c.Name())
				continue
			}
			for _, l := range strings.Split(flags, "\n") {
				if n := utf8.RuneCountInString(l); n > width {
					t.Errorf("%s --help at %d columns: a flag line of %d: %q", c.Name(), width, n, l)
				}
			}
			words := strings.Fields(flags)
			c.Flags().VisitAll(func(f *pflag.Flag) {
				if f.Hidden {
					return
				}
				if !slices.Contains(words, "--"+f.Name) {
					t.Errorf("%s --help: --%s missing", c.Name(), f.Name)
				}
				for _, w := range strings.Fields(f.Usage) {
					if !slices.Contains(words, w) && !strings.Contains(flags, w) {
						t.Errorf("%s --help: word %q of --%s missing", c.Name(), w, f.Name)
						return
					}
				}
			})
		}
	}
}
