package fragments

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/golden"
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
	golden.Check(t, filepath.Join("testdata", name), []byte(got))
}
