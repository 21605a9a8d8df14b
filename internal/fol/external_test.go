package fol

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// batch is many problems printed into one file, with the line each starts
// on, so that an error a prover reports can be traced to its problem.
type batch struct {
	text   strings.Builder
	starts []int // 1-based first line of each problem
}

func (b *batch) add(t *testing.T, chunk string) {
	t.Helper()
	b.starts = append(b.starts, strings.Count(b.text.String(), "\n")+1)
	b.text.WriteString(chunk)
}

// problemAt returns the index and text of the problem holding line n.
func (b *batch) problemAt(n int) (int, string) {
	i, found := slices.BinarySearch(b.starts, n)
	if !found {
		i--
	}
	if i < 0 {
		return -1, ""
	}
	lines := strings.SplitAfter(b.text.String(), "\n")
	end := len(lines)
	if i+1 < len(b.starts) {
		end = b.starts[i+1] - 1
	}
	return i, strings.Join(lines[b.starts[i]-1:end], "")
}

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
	ps := externalProblems(n)
	var smt, tptp batch
	for i, fs := range ps {
		var b strings.Builder
		if err := smtConfigFor(i, len(fs)).FprintProblem(&b, fs); err != nil {
			t.Fatalf("problem %d: %v", i, err)
		}
		b.WriteString("(reset)\n")
		smt.add(t, b.String())
		b.Reset()
		if err := tptpConfigFor(i, len(fs)).FprintProblem(&b, fs); err != nil {
			t.Fatalf("problem %d: %v", i, err)
		}
		tptp.add(t, b.String())
	}
	dir := t.TempDir()
	smtFile := writeTemp(t, dir, "all.smt2", smt.text.String())
	tptpFile := writeTemp(t, dir, "all.p", tptp.text.String())
	eParse := eproverTool
	eParse.args = eproverParseArgs
	for _, c := range []struct {
		tool   proverTool
		file   string
		b      *batch
		broken string
	}{
		{z3Tool, smtFile, &smt, "(set-logic UF)\n(declare-sort U 0)\n(assert (forall ((x U)) (p x))\n"},
		{cvc5Tool, smtFile, &smt, "(set-logic UF)\n(declare-sort U 0)\n(declare-fun p (U) Bool)\n(assert (p))\n"},
		{eParse, tptpFile, &tptp, "fof(a, axiom, p(a) & q(a) | r(a)).\n"},
	} {
		t.Run(c.tool.name, func(t *testing.T) {
			requireProver(t, c.tool)
			ext := ".smt2"
			if c.tool.name == "eprover" {
				ext = ".p"
			}
			bad := runProver(t, c.tool, writeTemp(t, dir, "broken"+ext, c.broken), 2*time.Second)
			if !c.tool.failed(bad) || c.tool.errorLine(bad) == 0 {
				t.Fatalf("the error detector missed a broken file: %+v", bad)
			}
			run := runProver(t, c.tool, c.file, 2*time.Second)
			if c.tool.failed(run) {
				i, text := c.b.problemAt(c.tool.errorLine(run))
				t.Fatalf("%s rejects problem %d:\n%s\noutput:\n%s%s", c.tool.name, i, text, run.stdout, run.stderr)
			}
		})
	}
}
