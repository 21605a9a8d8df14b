package fol

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/provers"
)

// externalProblems returns the printers' table as one problem followed by
// n random problems of 1 to 20 sentences.
func externalProblems(n int) [][]Formula {
	r := rand.New(rand.NewPCG(7, 8))
	ps := [][]Formula{caseFormulas(allCases())}
	for i := 0; i < n; i++ {
		ps = append(ps, genConfig{depth: 1 + i%4}.randProblem(r, 20))
	}
	return ps
}

// smtConfigFor and tptpConfigFor vary the options from problem to problem
// so that quoted names and other sorts reach the parsers too.
func smtConfigFor(i, m int) SMTLIBConfig {
	switch i % 3 {
	case 1:
		return SMTLIBConfig{Names: seqNames("sentence %d of "+fmt.Sprint(i), m)}
	case 2:
		return SMTLIBConfig{Sort: "Person", GetUnsatCore: false}
	}
	return SMTLIBConfig{}
}

func tptpConfigFor(i, m int) TPTPConfig {
	if i%3 == 1 {
		return TPTPConfig{Names: seqNames("sentence %d of "+fmt.Sprint(i), m)}
	}
	return TPTPConfig{Names: seqNames("p"+fmt.Sprint(i)+"_s%d", m), Role: "hypothesis"}
}

func seqNames(format string, m int) []string {
	names := make([]string, m)
	for j := range names {
		names[j] = fmt.Sprintf(format, j+1)
	}
	return names
}

// TestExternalParsers prints the table and 200 random problems (50 under
// -short) to SMT-LIB and TPTP and has z3, cvc5 and E read them; any input
// error fails. The SMT-LIB problems share one file, separated by (reset),
// and the TPTP formulas another (they have distinct names and one
// signature), so the test costs three processes. Each tool is first shown
// a broken file to prove that its errors are recognised.
func TestExternalParsers(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 50
	}
	var smt, tptp provers.Batch
	for i, fs := range externalProblems(n) {
		var b strings.Builder
		if err := smtConfigFor(i, len(fs)).FprintProblem(&b, fs); err != nil {
			t.Fatalf("problem %d: %v", i, err)
		}
		smt.Add(b.String() + "(reset)\n")
		b.Reset()
		if err := tptpConfigFor(i, len(fs)).FprintProblem(&b, fs); err != nil {
			t.Fatalf("problem %d: %v", i, err)
		}
		tptp.Add(b.String())
	}
	for _, c := range []struct {
		tool   provers.Tool
		b      *provers.Batch
		broken string
	}{
		{provers.Z3, &smt, "(set-logic UF)\n(declare-sort U 0)\n(assert (forall ((x U)) (p x))\n"},
		{provers.CVC5, &smt, "(set-logic UF)\n(declare-sort U 0)\n(declare-fun p (U) Bool)\n(assert (p))\n"},
		{provers.E, &tptp, "fof(a, axiom, p(a) & q(a) | r(a)).\n"},
	} {
		t.Run(c.tool.Name, func(t *testing.T) {
			requireTool(t, c.tool)
			parse := func(text string) provers.Run {
				run, err := c.tool.ParseText(context.Background(), text, time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				return run
			}
			if line, _, bad := parse(c.broken).InputError(); !bad || line == 0 {
				t.Fatalf("the error detector missed a broken file:\n%s", c.broken)
			}
			run := parse(c.b.String())
			if line, msg, bad := run.InputError(); bad {
				i, text := c.b.ProblemAt(line)
				t.Fatalf("%s rejects problem %d at line %d: %s\n%s", c.tool.Name, i, line, msg, text)
			}
		})
	}
}
