package provers_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/provers"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// agreeLimit is the time limit per instance on both sides. The binding
// decides every instance of the test within it; the program, which gets
// the quantified problem without the binding's grounded checks, decides
// about as many within it as within a second (77, 57 and 47 of V's, Z's
// and A's 100 against 77, 58 and 51), so a longer limit mostly spends
// time on instances it will not decide. NLSAT_FULL=1 gives it a second.
var agreeLimit = func() time.Duration {
	if os.Getenv("NLSAT_FULL") == "1" {
		return time.Second
	}
	return 250 * time.Millisecond
}()

// agreementCount is the number of instances per fragment: 500 with
// NLSAT_FULL=1, 50 under -short, and 100 otherwise. An instance that a
// side cannot decide costs it the full limit, and the z3 program leaves
// about a fifth of the V, two fifths of the Z and half of the A instances
// undecided (the binding, with its restarts and finite-model search,
// almost none), so the default takes about 35 seconds on a 2-core
// machine, and the full run with its longer limit about ten minutes.
func agreementCount() int {
	switch {
	case os.Getenv("NLSAT_FULL") == "1":
		return 500
	case testing.Short():
		return 50
	}
	return 100
}

// tally counts the outcomes of one fragment.
type tally struct {
	agree, disagree, bindingUnknown, programUnknown, bothUnknown int
	sat, unsat                                                   int
}

func (c tally) String() string {
	return fmt.Sprintf("%d agree (%d sat, %d unsat), %d disagree, %d unknown to the binding only, %d to the program only, %d to both",
		c.agree, c.sat, c.unsat, c.disagree, c.bindingUnknown, c.programUnknown, c.bothUnknown)
}

// TestZ3BindingAgreesWithZ3Program decides random instances of every
// fragment with our binding to libz3 and with the z3 program reading our
// SMT-LIB printout, each with a limit of one second per instance, and
// requires the two to agree wherever both decide. Every sat answer of the
// binding must carry a model that makes every sentence true. The program
// reads all of a fragment's instances from one file, each inside
// (push)/(pop), and runs while the binding works.
func TestZ3BindingAgreesWithZ3Program(t *testing.T) {
	if testing.Short() {
		t.Skip("decides hundreds of instances with two Z3s")
	}
	if !z3.Available() {
		t.Skip("the z3 binding is not built in (no cgo or -tags noz3)")
	}
	requireTool(t, provers.Z3)
	b, err := z3.New(z3.Options{Timeout: agreeLimit})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	count := agreementCount()
	for _, f := range fragments.All() {
		t.Run(f.String(), func(t *testing.T) { agreeOn(t, b, f, count) })
	}
}

// agreeOn runs the comparison on count instances of fragment f.
func agreeOn(t *testing.T, b *z3.Backend, f fragments.Fragment, count int) {
	start := time.Now()
	ins := sampleInstances(t, f, count, 2)
	batch := programBatch(t, ins)
	program := make(chan programAnswers, 1)
	go func() { program <- decideWithProgram(batch) }()
	bindStart := time.Now()
	bound := decideWithBinding(t, b, ins)
	bindTime := time.Since(bindStart)
	pa := <-program
	if pa.err != nil {
		t.Fatal(pa.err)
	}
	c := compareAnswers(t, ins, bound, pa.answers)
	t.Logf("%d instances in %v (binding %v, program %v): %v", count, time.Since(start).Round(time.Millisecond),
		bindTime.Round(time.Millisecond), pa.elapsed.Round(time.Millisecond), c)
	if c.agree < count/5 {
		t.Errorf("only %d of %d instances decided by both: too few for the test to mean much", c.agree, count)
	}
}

// programAnswers are the z3 program's answers, "sat", "unsat" or
// "unknown", one per instance.
type programAnswers struct {
	answers []string
	elapsed time.Duration
	err     error
}

// programBatch prints every instance for the z3 program, each inside
// (push)/(pop) (see scoped) under a per-query time limit.
func programBatch(t *testing.T, ins []fragments.Instance) *provers.Batch {
	t.Helper()
	var batch provers.Batch
	preamble := fmt.Sprintf("(set-option :timeout %d)\n", agreeLimit.Milliseconds())
	for i, in := range ins {
		var b strings.Builder
		if err := (fol.SMTLIBConfig{CheckSat: true}).FprintProblem(&b, in.Formulas()); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		batch.Add(scoped(t, i, b.String(), preamble))
	}
	return &batch
}

// decideWithProgram has one z3 process decide the batch. It runs on its
// own goroutine and so returns its error rather than failing the test.
func decideWithProgram(batch *provers.Batch) programAnswers {
	n := batch.Len()
	run, err := provers.Z3.RunText(context.Background(), batch.String(), time.Duration(n)*2*agreeLimit+10*time.Second)
	if err != nil {
		return programAnswers{err: err}
	}
	if line, msg, bad := run.InputError(); bad {
		i, text := batch.ProblemAt(line)
		return programAnswers{err: fmt.Errorf("z3 rejects instance %d at line %d: %s\n%s", i, line, msg, text)}
	}
	answers := provers.SMTAnswers(run.Stdout)
	if len(answers) != n || run.Killed {
		return programAnswers{err: fmt.Errorf("%d answers for %d instances\n%v", len(answers), n, run)}
	}
	return programAnswers{answers: answers, elapsed: run.Elapsed}
}

// decideWithBinding decides every instance with b and checks each
// certificate: a sat answer must come with a model of all the sentences,
// an unsat answer with a core of valid, increasing sentence indices.
func decideWithBinding(t *testing.T, b *z3.Backend, ins []fragments.Instance) []solver.Status {
	t.Helper()
	out := make([]solver.Status, len(ins))
	for i, in := range ins {
		p := &solver.Problem{Sentences: in.Formulas()}
		r, err := b.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("instance %d: %v\n%s", i, err, in.Text())
		}
		out[i] = r.Status
		switch r.Status {
		case solver.Sat:
			if err := solver.CheckModel(p, r.Model); err != nil {
				t.Errorf("instance %d: sat without a model: %v\n%s", i, err, in.Text())
			}
		case solver.Unsat:
			if !validCore(r.Core, len(p.Sentences)) {
				t.Errorf("instance %d: unsat with core %v of %d sentences", i, r.Core, len(p.Sentences))
			}
		}
	}
	return out
}

func validCore(core []int, m int) bool {
	for j, k := range core {
		if k < 0 || k >= m || j > 0 && core[j-1] >= k {
			return false
		}
	}
	return len(core) > 0
}

// compareAnswers tallies the two sides and reports every disagreement.
func compareAnswers(t *testing.T, ins []fragments.Instance, bound []solver.Status, program []string) tally {
	t.Helper()
	var c tally
	for i, s := range bound {
		got, want := s.String(), program[i]
		switch {
		case got == "unknown" && want == "unknown":
			c.bothUnknown++
		case got == "unknown":
			c.bindingUnknown++
		case want == "unknown":
			c.programUnknown++
		case got != want:
			c.disagree++
			t.Errorf("instance %d: the binding says %s, the z3 program %s\n%s", i, got, want, describe(ins[i]))
		default:
			c.agree++
			if s == solver.Sat {
				c.sat++
			} else {
				c.unsat++
			}
		}
	}
	return c
}

// describe lists an instance's sentences with their ids and formulas.
func describe(in fragments.Instance) string {
	var b strings.Builder
	for i, s := range in.Sentences {
		fmt.Fprintf(&b, "%s\t%s\t%s\n", s.ID(), in.English()[i], fol.String(s.Formula()))
	}
	return b.String()
}
