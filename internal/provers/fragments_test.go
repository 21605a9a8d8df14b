package provers_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/provers"
)

// drawSizes draws m, n1 and n2 as the dataset sweeps do around their
// interesting region: for S and W, n1 in 6..16 and m about 1.3–1.6·n1
// give or take 3; for V, Z and A, n1 and n2 in 3..8 and m about 2.5·n1
// give or take 3. Some draws are impossible; sampleInstances skips them.
func drawSizes(r *rand.Rand, f fragments.Fragment) (m, n1, n2 int) {
	if f <= fragments.W {
		n1 = 6 + r.IntN(11)
		m = int(math.Round((1.3+0.3*r.Float64())*float64(n1))) + r.IntN(7) - 3
		return m, n1, 0
	}
	n1, n2 = 3+r.IntN(6), 3+r.IntN(6)
	m = int(math.Round(2.5*float64(n1))) + r.IntN(7) - 3
	return m, n1, n2
}

// sampleInstances draws count instances of f from a generator seeded
// with seed and the fragment, skipping the draws Validate rejects.
func sampleInstances(t *testing.T, f fragments.Fragment, count int, seed uint64) []fragments.Instance {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, uint64(f)))
	p := fragments.DefaultParams()
	var out []fragments.Instance
	for tries := 0; len(out) < count; tries++ {
		if tries == 100*count {
			t.Fatalf("fragment %v: only %d of %d draws were possible", f, len(out), tries)
		}
		m, n1, n2 := drawSizes(r, f)
		if fragments.Validate(f, p, m, n1, n2) != nil {
			continue
		}
		in, err := fragments.Sample(r, f, p, m, n1, n2)
		if err != nil {
			t.Fatalf("fragment %v, m=%d n1=%d n2=%d: %v", f, m, n1, n2, err)
		}
		out = append(out, in)
	}
	return out
}

// printouts holds one fragment's instances printed into batches: the
// SMT-LIB printouts separated by (reset) for cvc5, the same inside
// (push)/(pop) for z3 (see scoped; z3's (reset) costs 20 ms or more, its
// (pop) next to nothing), and the TPTP printouts with formulas named by
// instance and sentence, for E.
type printouts struct{ smtReset, smtPush, tptp provers.Batch }

// printInstances prints the instances, varying the printers' options from
// one instance to the next so that quoted names, another sort and
// another role reach the parsers too.
func printInstances(t *testing.T, ins []fragments.Instance) *printouts {
	t.Helper()
	var p printouts
	for i, in := range ins {
		fs := in.Formulas()
		smt := fol.SMTLIBConfig{}
		tptp := fol.TPTPConfig{Names: names(fmt.Sprintf("i%d_s%%d", i), len(fs))}
		if i%2 == 1 {
			smt = fol.SMTLIBConfig{Sort: "Person", Names: names("sentence %d", len(fs))}
			tptp = fol.TPTPConfig{Names: names(fmt.Sprintf("instance %d sentence %%d", i), len(fs)), Role: "hypothesis"}
		}
		var b strings.Builder
		if err := smt.FprintProblem(&b, fs); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		p.smtReset.Add(b.String() + "(reset)\n")
		p.smtPush.Add(scoped(t, i, b.String(), ""))
		b.Reset()
		if err := tptp.FprintProblem(&b, fs); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		p.tptp.Add(b.String())
	}
	return &p
}

// scoped returns the SMT-LIB printout of problem i of a batch inside
// (push)/(pop). Its (set-logic UF) line is dropped, as SMT-LIB allows one
// per run; problem 0 sets the logic for all, after the options in
// preamble.
func scoped(t *testing.T, i int, printout, preamble string) string {
	t.Helper()
	body, ok := strings.CutPrefix(printout, "(set-logic UF)\n")
	if !ok {
		t.Fatalf("instance %d: the printout does not start with (set-logic UF):\n%s", i, printout)
	}
	if i > 0 {
		preamble = ""
	} else {
		preamble += "(set-logic UF)\n"
	}
	return preamble + "(push)\n" + body + "(pop)\n"
}

func names(format string, m int) []string {
	out := make([]string, m)
	for j := range out {
		out[j] = fmt.Sprintf(format, j+1)
	}
	return out
}

// withBrokenProblem returns b with a bad line added to the end of problem
// k, to show that an error in the batch is found and traced to k.
func withBrokenProblem(b *provers.Batch, k int, bad string) *provers.Batch {
	var out provers.Batch
	for i := range b.Len() {
		text := b.Problem(i)
		if i == k {
			text += bad
		}
		out.Add(text)
	}
	return &out
}

// TestFragmentPrintoutsParse prints 200 random instances of each fragment
// to SMT-LIB (with :named assertions) and TPTP and has z3, cvc5 and E
// read them without an input error. Each fragment costs one process per
// tool, each reading all the instances from one file (see printouts) in
// its parse-only mode. Before that, each tool reads the same file with
// a bad line added to the middle problem and must flag it there, which
// shows that a rejected printout would fail the test.
func TestFragmentPrintoutsParse(t *testing.T) {
	const count = 200
	for _, f := range fragments.All() {
		p := printInstances(t, sampleInstances(t, f, count, 1))
		for _, c := range []struct {
			tool  provers.Tool
			batch *provers.Batch
			bad   string
		}{
			{provers.Z3, &p.smtPush, "(assert (nlsat_undeclared))\n"},
			{provers.CVC5, &p.smtReset, "(assert (nlsat_undeclared))\n"},
			{provers.E, &p.tptp, "fof(nlsat_broken, axiom, nlsat_p(X)).\n"},
		} {
			t.Run(f.String()+"/"+c.tool.Name, func(t *testing.T) {
				requireTool(t, c.tool)
				parseBatch(t, c.tool, withBrokenProblem(c.batch, count/2, c.bad), count/2)
				parseBatch(t, c.tool, c.batch, -1)
			})
		}
	}
}

// parseBatch has tool parse b and fails unless its first input error is
// in problem wantBad, or it has none when wantBad is -1.
func parseBatch(t *testing.T, tool provers.Tool, b *provers.Batch, wantBad int) {
	t.Helper()
	run, err := tool.ParseText(context.Background(), b.String(), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if run.Killed {
		t.Fatalf("killed after %v", run.Elapsed)
	}
	line, msg, bad := run.InputError()
	i, text := b.ProblemAt(line)
	switch {
	case wantBad >= 0 && !bad:
		t.Fatalf("the error detector missed broken problem %d\n%v", wantBad, run)
	case wantBad >= 0 && i != wantBad:
		t.Fatalf("error %q at line %d is in problem %d, want problem %d", msg, line, i, wantBad)
	case wantBad < 0 && bad:
		t.Fatalf("%s rejects problem %d at line %d: %s\n%s", tool.Name, i, line, msg, text)
	}
}
