package fol

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"testing"
	"time"
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
	tools := []proverTool{z3Tool, cvc5Tool, eproverTool}
	var have []proverTool
	for _, p := range tools {
		if _, err := exec.LookPath(p.name); err == nil {
			have = append(have, p)
		}
	}
	if len(have) < 2 {
		t.Skip("need two of z3, cvc5 and eprover: apt-get install z3 cvc5 eprover")
	}
	r := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	compared, tally := 0, map[string]int{}
	for i := 0; i < 30; i++ {
		fs := genConfig{depth: 2}.randProblem(r, 8)
		answers := decideAll(t, dir, i, fs, have)
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
func decideAll(t *testing.T, dir string, i int, fs []Formula, tools []proverTool) []toolAnswer {
	t.Helper()
	var smt, tptp = &batch{}, &batch{}
	cfg := SMTLIBConfig{GetUnsatCore: true}
	names := seqNames("s%d", len(fs))
	if err := printBoth(smt, tptp, cfg, fs); err != nil {
		t.Fatal(err)
	}
	smtFile := writeTemp(t, dir, fmt.Sprintf("p%d.smt2", i), smt.text.String())
	tptpFile := writeTemp(t, dir, fmt.Sprintf("p%d.p", i), tptp.text.String())
	var out []toolAnswer
	for _, p := range tools {
		file, answer := smtFile, smtAnswer
		if p.name == "eprover" {
			file, answer = tptpFile, szsAnswer
		}
		run := runProver(t, p, file, 2*time.Second)
		a := answer(run.stdout)
		if a == "unknown" {
			a = ""
		}
		if p.name == "z3" && a == "unsat" {
			checkCore(t, i, smtCore(run.stdout), names)
		}
		out = append(out, toolAnswer{p.name, a})
	}
	slices.SortStableFunc(out, func(a, b toolAnswer) int {
		return boolInt(a.answer == "") - boolInt(b.answer == "")
	})
	return out
}

func printBoth(smt, tptp *batch, cfg SMTLIBConfig, fs []Formula) error {
	if err := cfg.FprintProblem(&smt.text, fs); err != nil {
		return err
	}
	return TPTPConfig{}.FprintProblem(&tptp.text, fs)
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
