// Package golden compares what a test produced with a golden file and,
// under go test -update, rewrites the file instead. Tests of every
// package use it; it registers the -update flag once.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Update reports whether this test run rewrites golden files.
func Update() bool { return *update }

// Check compares got with the golden file path (relative to the test's
// package, such as testdata/x.golden), or with -update writes got there.
// A difference is reported at its first line, with the file's name and
// how to accept the change.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("%s differs at line %d (run go test -update and review the diff):\ngot  %s\nwant %s", path, i+1, g, w)
			return
		}
	}
}
