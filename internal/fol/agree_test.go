package fol

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/provers"
)

// TestProversAgree decides random problems with z3 and cvc5 (from the
// SMT-LIB printer) and E (from the TPTP printer): where two of them
// answer, the answers must agree, which checks that both printers give the
// formulas the same meaning. z3's unsat cores must name only assertions
// of the problem. Problems are one process per prover with a 2-second
// limit; the test is skipped under -short.
func TestProversAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external provers for several seconds; skipped under -short")
	}
	var have []provers.Tool
	for _, p := range []provers.Tool{provers.Z3, provers.CVC5, provers.E} {
		if p.Available() {
			have = append(have, p)
		}
	}
	if len(have) < 2 {
		t.Skip("need two of z3, cvc5 and eprover: apt-get install z3 cvc5 eprover")
	}
	r := rand.New(rand.NewPCG(3, 4))
	compared, tally := 0, map[string]int{}
	for i := 0; i < 30; i++ {
		fs := genConfig{depth: 2}.randProblem(r, 8)
		answers := decideAll(t, i, fs, have)
		tally[answers[0].answer]++
		for j := 1; j < len(answers); j++ {
			a, b := answers[0], answers[j]
			if a.answer == "" || b.answer == "" {
				continue
			}
			compared++
			if a.answer != b.answer {
				t.Errorf("problem %d: %s says %s, %s says %s:\n%s",
					i, a.tool, a.answer, b.tool, b.answer, problemText(fs))
			}
		}
	}
	t.Logf("%d pairs of answers compared; first answers: %v", compared, tally)
	if compared < 10 {
		t.Errorf("only %d pairs of answers compared; the provers decided too little for the test to mean much", compared)
	}
}

type toolAnswer struct{ tool, answer string }

// decideAll runs every tool on problem i and returns their answers
// ("sat", "unsat" or "" when undecided), the first decided answer first.
func decideAll(t *testing.T, i int, fs []Formula, tools []provers.Tool) []toolAnswer {
	t.Helper()
	var smt, tptp strings.Builder
	if err := (SMTLIBConfig{GetUnsatCore: true}).FprintProblem(&smt, fs); err != nil {
		t.Fatal(err)
	}
	if err := (TPTPConfig{}).FprintProblem(&tptp, fs); err != nil {
		t.Fatal(err)
	}
	var out []toolAnswer
	for _, p := range tools {
		text, answer := smt.String(), provers.SMTAnswer
		if p == provers.E {
			text, answer = tptp.String(), provers.SZSAnswer
		}
		run := runTool(t, p, text, 2*time.Second)
		a := answer(run.Stdout)
		if p == provers.Z3 && a == "unsat" {
			checkCore(t, i, provers.SMTCore(run.Stdout), seqNames("s%d", len(fs)))
		}
		if a == "unknown" {
			a = ""
		}
		out = append(out, toolAnswer{p.Name, a})
	}
	slices.SortStableFunc(out, func(a, b toolAnswer) int {
		return boolInt(a.answer == "") - boolInt(b.answer == "")
	})
	return out
}

func checkCore(t *testing.T, i int, core, names []string) {
	t.Helper()
	if len(core) == 0 {
		t.Errorf("problem %d: z3 says unsat but gives no core", i)
	}
	for _, n := range core {
		if !slices.Contains(names, n) {
			t.Errorf("problem %d: core name %q is not an assertion name", i, n)
		}
	}
}

func problemText(fs []Formula) string {
	var s string
	for _, f := range fs {
		s += String(f) + "\n"
	}
	return s
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
