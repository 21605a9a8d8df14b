package backends

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

func TestFactory(t *testing.T) {
	if !slices.Equal(Names(true), []string{"native", "z3", "both", "none"}) || slices.Contains(Names(false), "none") {
		t.Errorf("names %v / %v", Names(true), Names(false))
	}
	newNative, name, err := Factory("native", Options{})
	if err != nil || newNative == nil || !strings.Contains(name, "native") {
		t.Fatalf("native: %v, %q", err, name)
	}
	if f, name, err := Factory("none", Options{}); f != nil || name != "none" || err != nil {
		t.Errorf("none: %v, %q, %v", f != nil, name, err)
	}
	var ie *inputerr.Error
	if _, _, err := Factory("oracle", Options{}); !errors.As(err, &ie) {
		t.Errorf("an unknown name: %v, want an inputerr.Error", err)
	}
	for _, n := range []string{"z3", "both"} {
		f, name, err := Factory(n, Options{})
		switch {
		case !z3.Available():
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), "without Z3") {
				t.Errorf("%s without libz3: %v", n, err)
			}
		case err != nil || f == nil || !strings.Contains(name, "z3"):
			t.Errorf("%s: %v, %q", n, err, name)
		}
	}
}

func TestMemory(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"512MB", 512 << 20}, {"2GiB", 2 << 30}, {"1.5g", 3 << 29}, {"65536", 65536}, {"16k", 16 << 10}, {" 4 GB ", 4 << 30},
	} {
		var m Memory
		if err := m.Set(tc.in); err != nil || int64(m) != tc.want {
			t.Errorf("%q: got %d, %v; want %d", tc.in, m, err, tc.want)
		}
	}
	for _, bad := range []string{"", "x", "-1G", "0", "2XB", "1e30"} {
		var m Memory
		if err := m.Set(bad); err == nil {
			t.Errorf("%q: accepted as %d", bad, m)
		}
	}
	if m := DefaultMaxMemory; m.String() != "2 GiB" {
		t.Errorf("default: %s", m.String())
	}
}

func TestPaperLabeller(t *testing.T) {
	if !slices.Equal(Labellers(), []string{"native", "paper"}) || slices.Contains(Names(true), "paper") {
		t.Errorf("labellers %v, names %v: paper must be a labeller, never a solver", Labellers(), Names(true))
	}
	f, desc, err := PaperLabeller(0)
	if !z3.Available() {
		var ie *inputerr.Error
		if !errors.As(err, &ie) {
			t.Errorf("without libz3: %v, want an inputerr.Error", err)
		}
		return
	}
	if err != nil || f == nil || !strings.HasPrefix(desc, "paper: one plain Z3 ") || !strings.Contains(desc, "timeout 10s") {
		t.Errorf("got %v, %q", err, desc)
	}
}
