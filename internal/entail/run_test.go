package entail

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// write runs a small entailment build of fragment f into dir in format
// fm with the given workers and returns the file's name.
func write(t *testing.T, f fragments.Fragment, count, workers int, dir string, fm dataset.Format) string {
	t.Helper()
	n1, n2 := generate.Range{Lo: 6, Hi: 8}, generate.Range{}
	if f.HasVerbs() {
		n1, n2 = generate.Range{Lo: 3, Hi: 4}, generate.Range{Lo: 3, Hi: 4}
	}
	plan, err := generate.NewPlan(generate.Options{Fragment: f, Sampler: fragments.DefaultSampler(), N1: &n1, N2: &n2,
		Seed: 5, Count: count, Solver: "native", SolverName: "native"})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, fmt.Sprintf("%s-j%d%s", f, workers, fm.Ext()))
	_, err = generate.Run(context.Background(), Triples, plan, generate.RunOptions{Out: out, Output: dataset.Output{Format: fm}, Workers: workers,
		NewBackend: func() (solver.Backend, error) { return native.New(native.Options{}), nil }})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readRecords(t *testing.T, name string) []Record {
	t.Helper()
	b, err := dataset.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestRunVerified re-checks a generated file: every record is valid,
// each (m, n1, n2) holds the three labels equally, every certificate
// proves its label (the subset with neg ψ or ψ is unsat for the native
// decider; a neutral problem's two sides have models that fol's
// evaluator accepts), and z3, where it is compiled in, decides both
// sides the same way wherever it decides them. The file is the same for
// 1 and 2 workers, and its Parquet form holds the same rows (read with parquet-go: the
// dataset reader knows instance records only).
func TestRunVerified(t *testing.T) {
	frags, count := []fragments.Fragment{fragments.S, fragments.V, fragments.A}, 9
	if testing.Short() {
		frags, count = frags[:2], 6
	}
	ctx := context.Background()
	b := native.New(native.Options{})
	var zb solver.Backend
	if z3.Available() {
		z, err := z3.New(z3.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer z.Close()
		zb = z
	} else {
		t.Log("z3 is not compiled in (-tags noz3): labels are checked by their certificates only")
	}
	dir := t.TempDir()
	for _, f := range frags {
		name := write(t, f, count, 1, dir, dataset.JSONL)
		recs := readRecords(t, name)
		if len(recs) != count {
			t.Fatalf("%s: %d records, want %d", f, len(recs), count)
		}
		strata := map[[3]int][3]int{}
		for _, r := range recs {
			if err := r.Validate(); err != nil {
				t.Error(err)
				continue
			}
			c := strata[[3]int{r.M, r.N1, r.N2}]
			c[r.Label]++
			strata[[3]int{r.M, r.N1, r.N2}] = c
			verify(ctx, t, b, zb, &r)
		}
		for k, c := range strata {
			if c[0] != c[1] || c[1] != c[2] {
				t.Errorf("%s: stratum %v has labels %v", f, k, c)
			}
		}
		j2, _ := os.ReadFile(write(t, f, count, 2, dir, dataset.JSONL))
		j1, _ := os.ReadFile(name)
		if !bytes.Equal(j1, j2) {
			t.Errorf("%s: -j 1 and -j 2 give different files", f)
		}
		pq, err := parquet.ReadFile[Record](write(t, f, count, 2, dir, dataset.Parquet))
		if err != nil {
			t.Fatal(err)
		}
		for i := range pq {
			a, _ := json.Marshal(pq[i])
			b, _ := json.Marshal(recs[i])
			if !bytes.Equal(a, b) {
				t.Errorf("%s: parquet row %d is %s, want %s", f, i, a, b)
			}
		}
	}
}

// z3Sides counts the sides verify gave z3, by its answer.
var (
	z3Mu    sync.Mutex
	z3Sides = map[solver.Status]int{}
)

// verify checks one record's label and certificate from its text. It
// reports with Error, never Fatal, so it may run on several goroutines.
func verify(ctx context.Context, t *testing.T, b, zb solver.Backend, r *Record) {
	t.Helper()
	lx := fragments.Default()
	var premises []fragments.Sentence
	for _, e := range r.Premises {
		s, err := lx.Parse(e)
		if err != nil {
			t.Error(err)
			return
		}
		premises = append(premises, s)
	}
	hyp, err := lx.Parse(r.Hypothesis)
	if err != nil || lx.English(hyp.Negation()) != r.NegatedHypothesis {
		t.Errorf("%s: hypothesis %q, negation %q: %v", r.ID, r.Hypothesis, r.NegatedHypothesis, err)
		return
	}
	l := Label(r.Label)
	sides := [][]fol.Formula{append(fragments.Formulas(premises), hyp.Formula()),
		append(fragments.Formulas(premises), hyp.Negation().Formula())}
	want := [2]solver.Status{solver.Sat, solver.Sat} // neutral
	switch l {
	case Contradiction:
		want[0] = solver.Unsat
	case Entailment:
		want[1] = solver.Unsat
	}
	if l == Neutral {
		for i, fs := range sides {
			v, err := solver.Decide(ctx, b, fs, solver.DecideOptions{})
			if err != nil || v.Status != solver.Sat {
				t.Errorf("%s: neutral side %d: %v %v", r.ID, i, v.Status, err)
				return
			}
			if k, err := fol.EvalAll(fs, v.Model); k >= 0 || err != nil {
				t.Errorf("%s: neutral side %d: the model falsifies formula %d (%v)", r.ID, i, k, err)
			}
		}
	} else {
		v, err := solver.Decide(ctx, b, Refutation(premises, hyp, l, r.Certificate.Subset), solver.DecideOptions{})
		if err != nil || v.Status != solver.Unsat {
			t.Errorf("%s: %v: the subset %v does not prove it (%v, %v)", r.ID, l, r.Certificate.Subset, v.Status, err)
		}
	}
	if zb == nil {
		return
	}
	for i, fs := range sides {
		v, err := zb.Solve(ctx, &solver.Problem{Sentences: fs})
		if err != nil {
			t.Error(err)
			return
		}
		z3Mu.Lock()
		z3Sides[v.Status]++
		z3Mu.Unlock()
		if v.Status != solver.Unknown && v.Status != want[i] {
			t.Errorf("%s: %v: z3 decides side %d %v, want %v", r.ID, l, i, v.Status, want[i])
		}
	}
}

// TestRunResumes interrupts runs after every few records and starts them
// again: each ends in the bytes of a run that was not interrupted, for
// JSONL and Parquet.
func TestRunResumes(t *testing.T) {
	n1, n2 := generate.Range{Lo: 6, Hi: 8}, generate.Range{}
	plan, err := generate.NewPlan(generate.Options{Fragment: fragments.S, Sampler: fragments.DefaultSampler(), N1: &n1, N2: &n2,
		Seed: 9, Count: 30, Solver: "native", SolverName: "native"})
	if err != nil {
		t.Fatal(err)
	}
	newBackend := func() (solver.Backend, error) { return native.New(native.Options{}), nil }
	dir := t.TempDir()
	for _, fm := range []dataset.Format{dataset.JSONL, dataset.Parquet} {
		whole := filepath.Join(dir, "whole"+fm.Ext())
		if _, err := generate.Run(context.Background(), Triples, plan, generate.RunOptions{Out: whole, Workers: 2, NewBackend: newBackend}); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "resumed"+fm.Ext())
		runs := 0
		for ; runs < 20; runs++ {
			ctx, cancel := context.WithCancel(context.Background())
			seen := 0
			_, err := generate.Run(ctx, Triples, plan, generate.RunOptions{Out: out, Workers: 1, NewBackend: newBackend, Every: -1,
				Progress: func(int, bool) {
					if seen++; seen == 4 {
						cancel()
					}
				}})
			cancel()
			if err == nil {
				break
			}
			if ctx.Err() == nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatalf("%s exists before the run has finished", out)
			}
		}
		if runs < 2 {
			t.Errorf("%s: the run finished after %d interruptions; the test interrupts nothing", fm, runs)
		}
		a, _ := os.ReadFile(whole)
		b, err := os.ReadFile(out)
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the resumed file differs from the whole run's (%v)", fm, err)
		}
	}
}
