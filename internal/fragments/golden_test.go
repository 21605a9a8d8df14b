package fragments

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

// TestTemplatesGolden writes every shape's id, English and formula (in
// fol's text syntax) side by side, in canonical shape order, and compares
// with testdata/templates.golden. Regenerate with go test -update.
func TestTemplatesGolden(t *testing.T) {
	byID := map[string]templateCase{}
	for _, tc := range templateCases {
		byID[tc.id] = tc
	}
	var b strings.Builder
	for _, sh := range A.Shapes() {
		tc, ok := byID[sh.ID()]
		if !ok {
			t.Fatalf("no template case for %s", sh.ID())
		}
		s := sen(t, tc.id, tc.o, tc.p, tc.q, tc.r, tc.s)
		fmt.Fprintf(&b, "%s | %s | %s\n", s.ID(), s.English(), fol.String(s.Formula()))
	}
	compareGolden(t, "templates.golden", b.String())
}

func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output; run go test -update and review the diff.\ngot:\n%s", path, got)
	}
}
