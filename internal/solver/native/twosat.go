package native

import "math/bits"

// twoSAT decides small 2-CNFs. A literal is var*2 + neg. A clause has one
// or two literals; an empty clause makes the problem unsatisfiable. The
// solver is reused between calls to avoid allocation.
//
// Up to maskVars variables the implication graph is kept as one word of
// implied literals per literal and propagation is bit-parallel; above, as
// adjacency lists. Both find the same model (see solve).
type twoSAT struct {
	nvars int
	small bool
	mimp  [2 * maskVars]uint64 // small: mimp[l] = literals implied when l is true
	mtrue uint64               // small: the literals set true
	imp   [][]int              // imp[l] = literals implied when l is true
	val   []int8               // 0 unassigned, 1 true, -1 false (per variable)
	trail []int
	stack []int
	empty bool
}

// maskVars is the number of variables up to which twoSAT uses bitmasks.
const maskVars = 32

// evenLits has the bit of every positive literal.
const evenLits = 0x5555555555555555

// negLits returns the negations of the literals of m.
func negLits(m uint64) uint64 { return (m&evenLits)<<1 | (m>>1)&evenLits }

// reset prepares the solver for a problem over nvars variables.
func (s *twoSAT) reset(nvars int) {
	s.nvars = nvars
	s.empty = false
	s.small = nvars <= maskVars
	if s.small {
		clear(s.mimp[:2*nvars])
		s.mtrue = 0
		return
	}
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
}

// clause adds a ∨ b (pass a == b for a unit clause).
func (s *twoSAT) clause(a, b int) {
	if s.small {
		s.mimp[a^1] |= 1 << b
		s.mimp[b^1] |= 1 << a
		return
	}
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
	if s.small {
		return s.solveMasks()
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

// solveMasks is solve for the bit-parallel representation. assume's
// propagation sets exactly the literals reachable from l that are not
// already true (the true literals are closed under implication), and
// fails iff one of them is false or two are complementary; so taking the
// reachable set at once gives the same model.
func (s *twoSAT) solveMasks() bool {
	for v := 0; v < s.nvars; v++ {
		if s.mtrue&(3<<(2*v)) != 0 {
			continue
		}
		if !s.assumeMask(2*v+1) && !s.assumeMask(2*v) {
			return false
		}
	}
	return true
}

func (s *twoSAT) assumeMask(l int) bool {
	reach := uint64(1) << l
	todo := reach
	for todo != 0 {
		x := bits.TrailingZeros64(todo)
		todo &= todo - 1
		add := s.mimp[x] &^ reach &^ s.mtrue
		reach |= add
		todo |= add
	}
	if reach&negLits(s.mtrue|reach) != 0 {
		return false
	}
	s.mtrue |= reach
	return true
}

// value reports the model's value of variable v after solve.
func (s *twoSAT) value(v int) bool {
	if s.small {
		return s.mtrue&(1<<(2*v)) != 0
	}
	return s.val[v] > 0
}
