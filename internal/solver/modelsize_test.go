package solver_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// z3AtMost asks the z3 program whether fs has a model of at most k
// elements: the sentences with their quantifiers expanded over k constants
// of an uninterpreted sort (a quantifier-free problem; fewer elements are
// allowed, as the constants may be equal). It shares no code with package
// ground.
func z3AtMost(t *testing.T, fs []fol.Formula, k int) string {
	sig, err := fol.SignatureOf(fs...)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("(set-logic QF_UF)\n(declare-sort U 0)\n")
	for i := 0; i < k; i++ {
		fmt.Fprintf(&b, "(declare-const e%d U)\n", i)
	}
	for p, a := range sig {
		fmt.Fprintf(&b, "(declare-fun |%s| (%s) Bool)\n", p, strings.TrimSpace(strings.Repeat("U ", a)))
	}
	for _, f := range fs {
		b.WriteString("(assert ")
		expand(&b, f, map[fol.Var]int{}, k)
		b.WriteString(")\n")
	}
	b.WriteString("(check-sat)\n")
	cmd := exec.Command("z3", "-T:60", "-in")
	cmd.Stdin = strings.NewReader(b.String())
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("z3: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// expand writes f in SMT-LIB with each quantifier expanded into a
// conjunction or disjunction over the constants e0 .. e(k-1).
func expand(b *strings.Builder, f fol.Formula, env map[fol.Var]int, k int) {
	nary := func(op string, fs []fol.Formula) {
		b.WriteString("(" + op)
		for _, g := range fs {
			b.WriteString(" ")
			expand(b, g, env, k)
		}
		b.WriteString(")")
	}
	quant := func(op string, v fol.Var, body fol.Formula) {
		old, had := env[v]
		b.WriteString("(" + op)
		for i := 0; i < k; i++ {
			env[v] = i
			b.WriteString(" ")
			expand(b, body, env, k)
		}
		b.WriteString(")")
		if had {
			env[v] = old
		} else {
			delete(env, v)
		}
	}
	switch g := f.(type) {
	case *fol.Atom:
		fmt.Fprintf(b, "(|%s|", g.Pred)
		for _, x := range g.Args {
			fmt.Fprintf(b, " e%d", env[x])
		}
		b.WriteString(")")
	case *fol.Not:
		nary("not", []fol.Formula{g.F})
	case *fol.And:
		nary("and", g.Fs)
	case *fol.Or:
		nary("or", g.Fs)
	case *fol.Implies:
		nary("=>", []fol.Formula{g.L, g.R})
	case *fol.Forall:
		quant("and true", g.V, g.Body)
	case *fol.Exists:
		quant("or false", g.V, g.Body)
	}
}

// TestModelSizeAgainstZ3 measures, on sat instances near the phase change
// at the paper's sizes (NLSAT_MODELSIZE instances drawn per fragment; the
// test is skipped without it), how often Decide's model_size equals the
// least size of a model found by Z3 over domains of 1 to 4 elements, where
// there is one. Shrink searches those sizes exhaustively, so anything
// short of all of them is a bug (or Z3 undecided); the issue asks for 95%.
func TestModelSizeAgainstZ3(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("NLSAT_MODELSIZE"))
	if n == 0 {
		t.Skip("set NLSAT_MODELSIZE to the number of sat instances per fragment (300 in the issue)")
	}
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("the z3 program is not installed")
	}
	b := native.New(native.Options{})
	for _, f := range fragments.All() {
		rng := rand.New(rand.NewPCG(300, uint64(f)))
		var same, differ, above, undecided, sat int
		var shrink time.Duration
		for sat < n {
			n1, n2 := 6+rng.IntN(11), 0
			m := int(float64(n1) * (1.2 + 0.8*rng.Float64()))
			if f.HasVerbs() {
				n1, n2 = 3+rng.IntN(6), 3+rng.IntN(6)
				m = int(float64(n1) * (2 + rng.Float64()))
			}
			in, err := fragments.Sample(rng, f, fragments.DefaultParams(), m, n1, n2)
			if err != nil {
				t.Fatal(err)
			}
			fs := in.Formulas()
			res, err := b.Solve(context.Background(), &solver.Problem{Sentences: fs})
			if err != nil || res.Status != solver.Sat {
				continue
			}
			sat++
			start := time.Now()
			v, err := solver.Decide(context.Background(), b, fs, solver.DecideOptions{})
			shrink += time.Since(start) - v.Elapsed
			if err != nil {
				t.Fatal(err)
			}
			least := 0
			for k := 1; k <= solver.MaxGround && least == 0; k++ {
				switch z3AtMost(t, fs, k) {
				case "sat":
					least = k
				case "unsat":
				default:
					least = -1
				}
			}
			switch {
			case least < 0:
				undecided++
			case least == 0:
				above++
			case least == v.Model.Size:
				same++
			default:
				differ++
				t.Errorf("%v: model_size %d, Z3 finds a model of %d elements\n%s", f, v.Model.Size, least, strings.Join(in.English(), "\n"))
			}
		}
		t.Logf("%v: %d sat: model_size equals Z3's least size (1-4) in %d of %d, differs in %d; %d without a model of at most 4; %d Z3 undecided; Decide beyond the decision %v per instance",
			f, sat, same, same+differ, differ, above, undecided, shrink/time.Duration(sat))
		if same+differ > 0 && float64(same) < 0.95*float64(same+differ) {
			t.Errorf("%v: below 95%%", f)
		}
	}
}
