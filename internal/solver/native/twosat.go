package native

// twoSAT decides small 2-CNFs. A literal is var*2 + neg. A clause has one
// or two literals; an empty clause makes the problem unsatisfiable. The
// solver is reused between calls to avoid allocation.
type twoSAT struct {
	nvars int
	imp   [][]int // imp[l] = literals implied when l is true
	val   []int8  // 0 unassigned, 1 true, -1 false (per variable)
	trail []int
	stack []int
	empty bool
}

// reset prepares the solver for a problem over nvars variables.
func (s *twoSAT) reset(nvars int) {
	s.nvars = nvars
	if cap(s.imp) < 2*nvars {
		s.imp = make([][]int, 2*nvars)
		s.val = make([]int8, nvars)
	}
	s.imp = s.imp[:2*nvars]
	s.val = s.val[:nvars]
	for i := range s.imp {
		s.imp[i] = s.imp[i][:0]
	}
	clear(s.val)
	s.trail = s.trail[:0]
	s.empty = false
}

// clause adds a ∨ b (pass a == b for a unit clause).
func (s *twoSAT) clause(a, b int) {
	s.imp[a^1] = append(s.imp[a^1], b)
	if a != b {
		s.imp[b^1] = append(s.imp[b^1], a)
	}
}

// addEmpty records an empty clause.
func (s *twoSAT) addEmpty() { s.empty = true }

func (s *twoSAT) isTrue(l int) bool {
	v := s.val[l>>1]
	return v != 0 && (v > 0) == (l&1 == 0)
}

func (s *twoSAT) isFalse(l int) bool {
	v := s.val[l>>1]
	return v != 0 && (v > 0) != (l&1 == 0)
}

// assume sets l true and propagates; on conflict it undoes everything it
// set and returns false.
func (s *twoSAT) assume(l int) bool {
	start := len(s.trail)
	stack := append(s.stack[:0], l)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.isTrue(x) {
			continue
		}
		if s.isFalse(x) {
			s.undo(start)
			s.stack = stack[:0]
			return false
		}
		s.set(x)
		stack = append(stack, s.imp[x]...)
	}
	s.stack = stack[:0]
	return true
}

func (s *twoSAT) set(l int) {
	if l&1 == 0 {
		s.val[l>>1] = 1
	} else {
		s.val[l>>1] = -1
	}
	s.trail = append(s.trail, l>>1)
}

func (s *twoSAT) undo(to int) {
	for _, v := range s.trail[to:] {
		s.val[v] = 0
	}
	s.trail = s.trail[:to]
}

// solve reports whether the clauses are satisfiable; if so, val holds a
// model (unconstrained variables are false when possible). Units are
// implications ¬l → l and are found by trying l false first.
func (s *twoSAT) solve() bool {
	if s.empty {
		return false
	}
	for v := 0; v < s.nvars; v++ {
		if s.val[v] != 0 {
			continue
		}
		// Committing a conflict-free propagation is safe for 2-CNF: every
		// clause it touches is satisfied and the others are untouched.
		if !s.assume(2*v+1) && !s.assume(2*v) {
			return false
		}
	}
	return true
}

// value reports the model's value of variable v after solve.
func (s *twoSAT) value(v int) bool { return s.val[v] > 0 }
