package provers_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/provers"
)

// TestBatchProblemAt adds random problems of 1 to 5 lines and checks
// that every line of the text leads back to the problem it came from.
func TestBatchProblemAt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b provers.Batch
	var problems []string
	var owner []int // owner[n-1] is the problem of line n
	for i := 0; i < 50; i++ {
		var p strings.Builder
		for j := 0; j < 1+r.IntN(5); j++ {
			fmt.Fprintf(&p, "problem %d line %d\n", i, j)
			owner = append(owner, i)
		}
		b.Add(p.String())
		problems = append(problems, p.String())
	}
	if b.Len() != len(problems) {
		t.Fatalf("Len = %d, want %d", b.Len(), len(problems))
	}
	if b.String() != strings.Join(problems, "") {
		t.Fatal("String is not the problems joined")
	}
	for n := 1; n <= len(owner); n++ {
		if i, text := b.ProblemAt(n); i != owner[n-1] || text != problems[owner[n-1]] {
			t.Errorf("line %d: got problem %d %q, want %d", n, i, text, owner[n-1])
		}
		if got := b.Problem(owner[n-1]); got != problems[owner[n-1]] {
			t.Errorf("Problem(%d) = %q, want %q", owner[n-1], got, problems[owner[n-1]])
		}
	}
	for _, n := range []int{0, -3, len(owner) + 2} {
		if i, text := b.ProblemAt(n); i != -1 || text != "" {
			t.Errorf("line %d: got problem %d %q, want none", n, i, text)
		}
	}
}
