// Package figuretest checks figures against golden images in tests: a
// PNG pixel by pixel (cmpimg, with a small tolerance so that a change of
// rasteriser rounding is not a failure), an SVG byte for byte. Under
// go test -update it rewrites the golden image instead.
package figuretest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.sr.ht/~sbinet/cmpimg"

	"github.com/nlsat/nlsat/internal/golden"
)

// Delta is the tolerance of PNG comparisons (cmpimg's normalised delta).
const Delta = 0.01

// Check compares got with the golden image path (its extension gives the
// format), or with -update writes got there. On a difference it saves
// got beside the test's temporary files and names it.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if golden.Update() {
		golden.Check(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	typ := strings.TrimPrefix(filepath.Ext(path), ".")
	ok, err := cmpimg.EqualApprox(typ, got, want, Delta)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !ok {
		saved := filepath.Join(t.TempDir(), "got-"+filepath.Base(path))
		os.WriteFile(saved, got, 0o644)
		t.Errorf("%s differs from what was drawn (saved as %s until the test ends; run go test -update and look at the image)", path, saved)
	}
}
