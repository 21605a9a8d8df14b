package main

import "testing"

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
