package sat

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// brute reports whether cnf ∧ units has a model over n variables.
func brute(n int, cnf [][]Lit, units []Lit) bool {
	for m := 0; m < 1<<n; m++ {
		val := func(l Lit) bool { return (m>>l.Var())&1 == 1 != l.IsNeg() }
		ok := true
		for _, u := range units {
			ok = ok && val(u)
		}
		for _, c := range cnf {
			if !ok {
				break
			}
			sat := false
			for _, l := range c {
				sat = sat || val(l)
			}
			ok = sat
		}
		if ok {
			return true
		}
	}
	return false
}

func randCNF(rng *rand.Rand, n, m, k int) [][]Lit {
	cnf := make([][]Lit, m)
	for i := range cnf {
		w := 1 + rng.IntN(k)
		for range w {
			cnf[i] = append(cnf[i], Mk(rng.IntN(n), rng.IntN(2) == 0))
		}
	}
	return cnf
}

func satisfies(s *Solver, cnf [][]Lit, units []Lit) bool {
	for _, u := range units {
		if !s.LitValue(u) {
			return false
		}
	}
	for _, c := range cnf {
		if !slices.ContainsFunc(c, s.LitValue) {
			return false
		}
	}
	return true
}

// TestAgainstBruteForce compares Solve with exhaustive search on random
// CNFs around the 3-SAT threshold, under random assumptions, in one
// solver reused (Reset) from problem to problem: models must satisfy the
// clauses and assumptions, and a core must be a subset of the
// assumptions that is unsatisfiable with the clauses.
func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s Solver
	counts := [3]int{}
	for i := range 3000 {
		n := 1 + rng.IntN(14)
		cnf := randCNF(rng, n, rng.IntN(5*n), 3)
		var assume []Lit
		for range rng.IntN(4) {
			assume = append(assume, Mk(rng.IntN(n), rng.IntN(2) == 0))
		}
		s.Reset()
		s.AddVars(n)
		for _, c := range cnf {
			s.AddClause(c...)
		}
		got := s.Solve(assume...)
		counts[got]++
		want := brute(n, cnf, assume)
		switch {
		case (got == Sat) != want:
			t.Fatalf("problem %d: got %v, brute force sat=%v\n%v assume %v", i, got, want, cnf, assume)
		case got == Sat && !satisfies(&s, cnf, assume):
			t.Fatalf("problem %d: model does not satisfy", i)
		case got == Unsat:
			core := slices.Clone(s.Core())
			for _, l := range core {
				if !slices.Contains(assume, l) {
					t.Fatalf("problem %d: core %v not within assumptions %v", i, core, assume)
				}
			}
			if brute(n, cnf, core) {
				t.Fatalf("problem %d: core %v is satisfiable", i, core)
			}
		}
	}
	t.Logf("sat %d unsat %d", counts[Sat], counts[Unsat])
}

// TestIncremental adds clauses between calls and solves again, as the
// decider does with nogoods, and checks every answer by brute force.
func TestIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		n := 4 + rng.IntN(10)
		var s Solver
		s.AddVars(n)
		var cnf [][]Lit
		for step := range 12 {
			for _, c := range randCNF(rng, n, 1+rng.IntN(n), 3) {
				cnf = append(cnf, c)
				s.AddClause(c...)
			}
			assume := []Lit{Mk(rng.IntN(n), rng.IntN(2) == 0)}
			got, want := s.Solve(assume...), brute(n, cnf, assume)
			if (got == Sat) != want {
				t.Fatalf("problem %d step %d: got %v, want sat=%v", i, step, got, want)
			}
			if got == Sat && !satisfies(&s, cnf, assume) {
				t.Fatalf("problem %d step %d: bad model", i, step)
			}
		}
	}
}

// pigeons encodes n+1 pigeons in n holes, which is unsatisfiable.
func pigeons(s *Solver, n int) {
	s.AddVars((n + 1) * n)
	x := func(p, h int) int { return p*n + h }
	for p := 0; p <= n; p++ {
		var c []Lit
		for h := range n {
			c = append(c, Pos(x(p, h)))
		}
		s.AddClause(c...)
	}
	for h := range n {
		for p := 0; p <= n; p++ {
			for q := p + 1; q <= n; q++ {
				s.AddClause(Neg(x(p, h)), Neg(x(q, h)))
			}
		}
	}
}

func TestPigeonhole(t *testing.T) {
	for n := 1; n <= 7; n++ {
		var s Solver
		pigeons(&s, n)
		if got := s.Solve(); got != Unsat {
			t.Errorf("%d pigeons in %d holes: %v", n+1, n, got)
		}
	}
}

func TestStop(t *testing.T) {
	var s Solver
	pigeons(&s, 10)
	calls := 0
	s.Options.Stop = func() bool { calls++; return calls > 2 }
	if got := s.Solve(); got != Unknown {
		t.Errorf("stopped solve: %v", got)
	}
	s.Options = Options{MaxConflicts: 50}
	if got := s.Solve(); got != Unknown {
		t.Errorf("solve with 50 conflicts: %v", got)
	}
}

// TestLarge solves random 3-SAT instances with a planted model, big
// enough for restarts, clause deletion and compaction to happen.
func TestLarge(t *testing.T) {
	defer func(c int) { compactMin = c }(compactMin)
	compactMin = 64
	rng := rand.New(rand.NewPCG(5, 6))
	n := 500
	if testing.Short() {
		n = 300
	}
	for range 3 {
		planted := make([]bool, n)
		for i := range planted {
			planted[i] = rng.IntN(2) == 0
		}
		var s Solver
		s.AddVars(n)
		var cnf [][]Lit
		for len(cnf) < 4*n {
			c := randCNF(rng, n, 1, 3)[0]
			if len(c) == 3 && slices.ContainsFunc(c, func(l Lit) bool { return planted[l.Var()] != l.IsNeg() }) {
				cnf = append(cnf, c)
				s.AddClause(c...)
			}
		}
		if got := s.Solve(); got != Sat || !satisfies(&s, cnf, nil) {
			t.Fatalf("planted instance: %v", got)
		}
		t.Logf("n=%d: %d conflicts, %d clauses kept", n, s.conflicts, len(s.clauses))
	}
}

// TestDeterministic checks that a reused solver answers as a fresh one.
func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var used Solver
	for range 200 {
		n := 20
		cnf := randCNF(rng, n, 80, 3)
		var fresh Solver
		used.Reset()
		for _, s := range []*Solver{&fresh, &used} {
			s.AddVars(n)
			for _, c := range cnf {
				s.AddClause(c...)
			}
		}
		a, b := fresh.Solve(), used.Solve()
		if a != b {
			t.Fatalf("fresh %v, reused %v", a, b)
		}
		for v := range n {
			if a == Sat && fresh.Value(v) != used.Value(v) {
				t.Fatalf("models differ at %d", v)
			}
		}
	}
}

// TestNonDecision guards random clauses with activation variables that
// Solve never branches on (they occur only negatively) and assumes a random
// subset of them: answers, models and cores must match brute force.
func TestNonDecision(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var s Solver
	for i := range 1500 {
		n, na := 1+rng.IntN(10), 1+rng.IntN(4)
		cnf := randCNF(rng, n, rng.IntN(4*n), 3)
		for j := range cnf {
			if rng.IntN(2) == 0 {
				cnf[j] = append(cnf[j], Neg(n+rng.IntN(na)))
			}
		}
		var assume []Lit
		for a := range na {
			if rng.IntN(2) == 0 {
				assume = append(assume, Pos(n+a))
			}
		}
		s.Reset()
		s.AddVars(n + na)
		for a := range na {
			s.SetDecision(n+a, false)
		}
		for _, c := range cnf {
			s.AddClause(c...)
		}
		got, want := s.Solve(assume...), brute(n+na, cnf, assume)
		switch {
		case (got == Sat) != want:
			t.Fatalf("problem %d: got %v, want sat=%v", i, got, want)
		case got == Sat && !satisfies(&s, cnf, assume):
			t.Fatalf("problem %d: model does not satisfy", i)
		case got == Unsat && brute(n+na, cnf, s.Core()):
			t.Fatalf("problem %d: core %v is satisfiable", i, s.Core())
		}
	}
}

// TestRetired works one solver as the lazy type search does: clauses over
// a few variables guarded by activation variables that keep being added,
// assumed while live and retired for good by a unit at level 0, some of
// them turned back into decision variables. Answers, models and cores
// must match brute force over the live clauses, and Bytes the solver's
// watch lists.
func TestRetired(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var counts [3]int
	for i := range 100 {
		n := 2 + rng.IntN(9)
		var s Solver
		s.AddVars(n)
		type guarded struct {
			act    int
			clause []Lit
		}
		var live []guarded
		var retired []int
		for step := range 60 {
			act := s.AddVars(1)
			s.SetDecision(act, rng.IntN(4) == 0)
			if len(live) > 0 && rng.IntN(4) == 0 {
				s.SetDecision(live[rng.IntN(len(live))].act, false)
			}
			for _, c := range randCNF(rng, n, 1+rng.IntN(3), 3) {
				s.AddClause(append([]Lit{Neg(act)}, c...)...)
				live = append(live, guarded{act, c})
			}
			for j := 0; j < len(live); j++ {
				if rng.IntN(6) == 0 {
					a := live[j].act
					s.AddClause(Neg(a))
					retired = append(retired, a)
					live = slices.DeleteFunc(live, func(g guarded) bool { return g.act == a })
					j = -1
				}
			}
			var assume []Lit
			var cnf [][]Lit
			for _, g := range live {
				if !slices.Contains(assume, Pos(g.act)) {
					assume = append(assume, Pos(g.act))
				}
				cnf = append(cnf, g.clause)
			}
			assume = append(assume, Mk(rng.IntN(n), rng.IntN(2) == 0))
			got, want := s.Solve(assume...), brute(n, cnf, assume[len(assume)-1:])
			switch {
			case (got == Sat) != want:
				t.Fatalf("problem %d step %d: got %v, want sat=%v", i, step, got, want)
			case got == Sat && !satisfies(&s, cnf, assume):
				t.Fatalf("problem %d step %d: model does not satisfy", i, step)
			case got == Sat && slices.ContainsFunc(retired, s.Value):
				t.Fatalf("problem %d step %d: a retired variable is true", i, step)
			case got == Unsat:
				var core [][]Lit
				var units []Lit
				for _, l := range s.Core() {
					if l.Var() < n {
						units = append(units, l)
					}
					for _, g := range live {
						if Pos(g.act) == l {
							core = append(core, g.clause)
						}
					}
				}
				if brute(n, core, units) {
					t.Fatalf("problem %d step %d: core %v is satisfiable", i, step, s.Core())
				}
			}
			counts[got]++
			w := 0
			for _, ws := range s.watches {
				w += cap(ws)
			}
			if s.wcap != w {
				t.Fatalf("problem %d step %d: watch capacity %d, counted %d", i, step, s.wcap, w)
			}
			checkDecs(t, &s, true)
		}
	}
	if counts[Sat] < 1000 || counts[Unsat] < 1000 {
		t.Errorf("only %d sat and %d unsat queries", counts[Sat], counts[Unsat])
	}
}

// checkDecs checks that decs lists the decision variables in order, that
// dpos indexes it, and that no unbumped variable before the cursor is
// unassigned (with cursor).
func checkDecs(t *testing.T, s *Solver, cursor bool) {
	t.Helper()
	var want []int32
	for v := range s.nvars {
		if !s.nodec[v] {
			want = append(want, int32(v))
		}
		if p := s.dpos[v]; (p >= 0) != !s.nodec[v] || p >= 0 && s.decs[p] != int32(v) {
			t.Fatalf("variable %d at %d of %v", v, p, s.decs)
		}
	}
	if !slices.Equal(s.decs, want) {
		t.Fatalf("decs %v, want %v", s.decs, want)
	}
	for _, v := range s.decs[:min(s.cursor, len(s.decs))] {
		if cursor && s.assign[v] == 0 && !s.bumped[v] {
			t.Fatalf("variable %d is open before the cursor %d", v, s.cursor)
		}
	}
}

// TestDecsCursor changes decision variables with the cursor anywhere: it
// must stay on the variable it was on, or move to the next decision
// variable when that one is taken out.
func TestDecsCursor(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for range 2000 {
		var s Solver
		n := 1 + rng.IntN(12)
		s.AddVars(n)
		for v := range n {
			if rng.IntN(3) == 0 {
				s.AddClause(Mk(v, rng.IntN(2) == 0)) // assigned at level 0
			}
		}
		for range 3 * n {
			s.cursor = rng.IntN(len(s.decs) + 1)
			at := n // the variable under the cursor, n past the end
			if s.cursor < len(s.decs) {
				at = int(s.decs[s.cursor])
			}
			v := rng.IntN(n)
			b := rng.IntN(2) == 0
			s.SetDecision(v, b)
			checkDecs(t, &s, false)
			i, _ := slices.BinarySearch(s.decs, int32(at))
			if b && s.assign[v] == 0 { // release puts the cursor on v if it is before
				i = min(i, int(s.dpos[v]))
			}
			if s.cursor != i {
				t.Fatalf("cursor at %d of %v, want %d (variable %d) after %d %v", s.cursor, s.decs, i, at, v, b)
			}
		}
	}
}

func BenchmarkSmallQueries(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	cnf := randCNF(rng, 40, 150, 3)
	var s Solver
	for b.Loop() {
		s.Reset()
		s.AddVars(40)
		for _, c := range cnf {
			s.AddClause(c...)
		}
		for v := range 10 {
			s.Solve(Pos(v), Neg(v+10))
		}
	}
}
