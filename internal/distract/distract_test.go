package distract

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// perFragment is the number of instances per fragment, mode and k in
// TestAdd: NLSAT_DISTRACT_N, else 60 (20 with -short; the full run
// behind the package note used 200).
func perFragment(t *testing.T) int {
	if s := os.Getenv("NLSAT_DISTRACT_N"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("NLSAT_DISTRACT_N: %v", err)
		}
		return n
	}
	if testing.Short() {
		return 20
	}
	return 60
}

// z3Backend returns a Z3 backend with a 2 s limit, or nil when Z3 is not
// built in.
func z3Backend(t *testing.T) solver.Backend {
	if !z3.Available() {
		t.Log("Z3 is not built in (noz3 or no cgo): the Z3 cross-check is skipped")
		return nil
	}
	zb, err := z3.New(z3.Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Logf("Z3 unavailable (%v): the Z3 cross-check is skipped", err)
		return nil
	}
	t.Cleanup(func() { zb.Close() })
	return zb
}

// TestAdd samples instances at the paper's sizes and adds k ∈ {1, 3, 5}
// distractors in each mode. For every instance it checks the shape of the
// result, that the label is unchanged according to a native backend Add
// never used (and Z3 on every tenth instance), each mode's own guarantee
// (fresh: the distractors alone are sat; implied: the premises are sat and
// entail each distractor), and that a second run with the same seed gives
// the same output.
func TestAdd(t *testing.T) {
	per := perFragment(t)
	zb := z3Backend(t)
	for _, f := range fragments.All() {
		for _, mode := range []Mode{Fresh, Implied} {
			for _, k := range []int{1, 3, 5} {
				t.Run(fmt.Sprintf("%s/%s/k=%d", f, mode, k), func(t *testing.T) {
					t.Parallel()
					testAdd(t, f, mode, k, per, zb)
				})
			}
		}
	}
}

func testAdd(t *testing.T, f fragments.Fragment, mode Mode, k, per int, zb solver.Backend) {
	b := native.New(native.Options{})
	var labels [3]int
	skipped := 0
	for i := range per {
		seed := uint64(1000*int(f) + 10*int(mode) + k)
		inst := sampleAt(t, rand.New(rand.NewPCG(seed, uint64(i))), f)
		rng := rand.New(rand.NewPCG(seed, uint64(i)+1<<32))
		res, err := Add(context.Background(), rng, b, inst, k, mode, fragments.DefaultParams())
		if errors.Is(err, solver.ErrUndecided) || errors.Is(err, ErrNoDistractor) {
			skipped++
			t.Logf("instance %d skipped: %v", i, err)
			continue
		}
		if err != nil {
			t.Fatalf("instance %d: %v\n%q", i, err, inst.English())
		}
		labels[res.Status]++
		checkShape(t, inst, res, k)
		checkLabel(t, inst, res, zb != nil && i%10 == 0, zb)
		switch mode {
		case Fresh:
			checkFresh(t, inst, res)
		case Implied:
			checkImplied(t, inst, res, zb != nil && i%10 == 0, zb)
		}
		again, err := Add(context.Background(), rand.New(rand.NewPCG(seed, uint64(i)+1<<32)), b, inst, k, mode, fragments.DefaultParams())
		if err != nil {
			t.Fatalf("instance %d, second run: %v", i, err)
		}
		if !slices.Equal(again.Instance.English(), res.Instance.English()) || !slices.Equal(again.Added, res.Added) ||
			!slices.Equal(again.Premises, res.Premises) {
			t.Errorf("instance %d: a second run with the same seed differs", i)
		}
	}
	t.Logf("labels: %d sat, %d unsat; %d skipped", labels[solver.Sat], labels[solver.Unsat], skipped)
	if labels[solver.Sat] == 0 || labels[solver.Unsat] == 0 {
		t.Errorf("labels %v: both sat and unsat instances must be tested", labels)
	}
	if skipped*20 > per {
		t.Errorf("%d of %d instances skipped, more than 5%%", skipped, per)
	}
}

// checkShape checks the positions, that the original sentences keep their
// order, and that each distractor is new, in the fragment and parses back.
func checkShape(t *testing.T, inst fragments.Instance, res Result, k int) {
	t.Helper()
	out := res.Instance.Sentences
	if len(out) != len(inst.Sentences)+k || len(res.Added) != k {
		t.Fatalf("got %d sentences and %d added, want %d and %d", len(out), len(res.Added), len(inst.Sentences)+k, k)
	}
	for i, j := range res.Added {
		if j < 0 || j >= len(out) || i > 0 && j <= res.Added[i-1] {
			t.Fatalf("added positions %v are not increasing within [0, %d)", res.Added, len(out))
		}
	}
	var kept []int
	for i := range out {
		if !slices.Contains(res.Added, i) {
			kept = append(kept, i)
		}
	}
	if got := pick(out, kept); !slices.Equal(got, inst.Sentences) {
		t.Errorf("the original sentences are not kept in order at %v", kept)
	}
	seen := map[string]bool{}
	for _, e := range res.Instance.English() {
		if seen[e] {
			t.Errorf("sentence %q occurs twice", e)
		}
		seen[e] = true
	}
	nouns, verbs := res.Instance.Nouns, res.Instance.Verbs
	for _, j := range res.Added {
		s := out[j]
		if err := s.Check(); err != nil || s.Fragment() > inst.Fragment {
			t.Errorf("distractor %s is not a sentence of %s: %v", s.ID(), inst.Fragment, err)
		}
		e := s.English()
		back, err := fragments.Parse(e)
		if err != nil || back != s {
			t.Errorf("distractor %q parses back as %+v, %v", e, back, err)
		}
		for _, w := range s.Nouns() {
			if !slices.Contains(nouns, w) {
				t.Errorf("noun %q of %q is missing from the instance's nouns", w, e)
			}
		}
		for _, w := range s.Verbs() {
			if !slices.Contains(verbs, w) {
				t.Errorf("verb %q of %q is missing from the instance's verbs", w, e)
			}
		}
	}
}

// checkLabel re-decides the instance before and after with a native
// backend Add never saw, and with Z3 when withZ3 (an Unknown from Z3 is
// not a disagreement).
func checkLabel(t *testing.T, inst fragments.Instance, res Result, withZ3 bool, zb solver.Backend) {
	t.Helper()
	nb := independent()
	before, after := solveWith(t, nb, inst.Formulas()), solveWith(t, nb, res.Instance.Formulas())
	if before != res.Status || after != res.Status {
		t.Errorf("label %v, but an independent native backend says %v before and %v after:\n%q",
			res.Status, before, after, res.Instance.English())
	}
	if !withZ3 {
		return
	}
	if z := solveWith(t, zb, res.Instance.Formulas()); z != solver.Unknown && z != res.Status {
		t.Errorf("label %v, but Z3 says %v after:\n%q", res.Status, z, res.Instance.English())
	}
}

// checkFresh checks that no distractor uses a word of the instance and
// that the distractors alone are satisfiable.
func checkFresh(t *testing.T, inst fragments.Instance, res Result) {
	t.Helper()
	ds := pick(res.Instance.Sentences, res.Added)
	nouns, verbs := instanceWords(inst)
	for _, s := range ds {
		for _, w := range append(s.Nouns(), s.Verbs()...) {
			if slices.Contains(nouns, w) || slices.Contains(verbs, w) {
				t.Errorf("fresh distractor %q uses the instance's word %q", s.English(), w)
			}
		}
	}
	if res.Premises != nil {
		t.Errorf("fresh mode returned premises %v", res.Premises)
	}
	if st := solveWith(t, independent(), fragments.Formulas(ds)); st != solver.Sat {
		t.Errorf("the fresh distractors alone are %v: %q", st, res.Instance.English())
	}
}

// checkImplied checks that the premises are original sentences (all of
// them for a sat instance), satisfiable, and that premises ∪ {¬ψ} is
// unsat for every distractor ψ, with native and, when withZ3, with Z3.
func checkImplied(t *testing.T, inst fragments.Instance, res Result, withZ3 bool, zb solver.Backend) {
	t.Helper()
	for _, j := range res.Premises {
		if slices.Contains(res.Added, j) || j < 0 || j >= len(res.Instance.Sentences) {
			t.Fatalf("premise %d is not an original sentence (added %v)", j, res.Added)
		}
	}
	if res.Status == solver.Sat && len(res.Premises) != len(inst.Sentences) {
		t.Errorf("sat instance: %d premises, want all %d sentences", len(res.Premises), len(inst.Sentences))
	}
	premises := fragments.Formulas(pick(res.Instance.Sentences, res.Premises))
	nb := independent()
	if st := solveWith(t, nb, premises); st != solver.Sat {
		t.Errorf("premises are %v, want sat", st)
	}
	for _, j := range res.Added {
		s := res.Instance.Sentences[j]
		refute := append(slices.Clone(premises), Negate(s).Formula())
		if st := solveWith(t, nb, refute); st != solver.Unsat {
			t.Errorf("premises with the negation of %q are %v: not entailed", s.English(), st)
		}
		if withZ3 {
			if st := solveWith(t, zb, refute); st == solver.Sat {
				t.Errorf("Z3: premises with the negation of %q are sat: not entailed", s.English())
			}
		}
	}
}
