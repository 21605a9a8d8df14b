package provers_test

import (
	"fmt"

	"github.com/nlsat/nlsat/internal/provers"
)

// z3's output for three (check-sat) commands, the second followed by
// (get-unsat-core), the third stopped by its time limit.
func ExampleSMTAnswers() {
	out := "sat\nunsat\n(s1 s3)\nunknown\n"
	fmt.Println(provers.SMTAnswers(out))
	fmt.Println(provers.SMTCore(out))
	// Output:
	// [sat unsat unknown]
	// [s1 s3]
}

// A batch traces the line of an error back to the problem it belongs to.
func ExampleBatch() {
	var b provers.Batch
	b.Add("fof(a1, axiom, p(a)).\n")
	b.Add("fof(b1, axiom, q(b)).\nfof(b2, axiom, r(b)).\n")
	i, text := b.ProblemAt(3)
	fmt.Print(i, "\n", text)
	// Output:
	// 1
	// fof(b1, axiom, q(b)).
	// fof(b2, axiom, r(b)).
}
