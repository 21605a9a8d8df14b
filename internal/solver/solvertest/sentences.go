package solvertest

import (
	"os"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// ReadSentences returns the formulas of file, an instance written one
// English sentence per line; a file that cannot be read or parsed fails
// tb.
func ReadSentences(tb testing.TB, file string) []fol.Formula {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sents, err := fragments.ParseLines(f)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return fragments.Formulas(sents)
}
