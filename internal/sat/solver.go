package sat

import "slices"

// Lit is a literal: variable v positive is 2v, negative 2v+1.
type Lit int32

// Pos returns the positive literal of variable v.
func Pos(v int) Lit { return Lit(2 * v) }

// Neg returns the negative literal of variable v.
func Neg(v int) Lit { return Lit(2*v + 1) }

// Mk returns variable v's literal that is true when v has value b.
func Mk(v int, b bool) Lit {
	if b {
		return Pos(v)
	}
	return Neg(v)
}

// Not returns the negation of l.
func (l Lit) Not() Lit { return l ^ 1 }

// Var returns l's variable.
func (l Lit) Var() int { return int(l >> 1) }

// IsNeg reports whether l is a negative literal.
func (l Lit) IsNeg() bool { return l&1 != 0 }

// Status is a solver answer; the zero value is Unknown.
type Status int8

// The answers of Solve.
const (
	Unknown Status = iota
	Sat
	Unsat
)

// Options bound a Solve call.
type Options struct {
	// Stop, if set, is called every few conflicts; Solve returns Unknown
	// once it reports true.
	Stop func() bool
	// MaxConflicts bounds the conflicts of one Solve (0: no bound).
	MaxConflicts int
}

// clause is a clause's header; its literals are lits[off : off+n] of the
// solver's arena. The first two literals are the watched ones.
type clause struct {
	off, n  int32
	lbd     int32
	act     float32
	learnt  bool
	deleted bool
}

// watcher is an entry of a watch list: clause cref, and a literal of it
// whose truth satisfies the clause (for a binary clause, the other one).
type watcher struct {
	cref    int32
	blocker Lit
	bin     bool
}

// Solver is a CDCL SAT solver. The zero value is an empty solver with no
// variables; it is not safe for concurrent use.
type Solver struct {
	Options Options

	nvars    int
	assign   []int8 // per variable: 0 unassigned, 1 true, -1 false
	level    []int32
	reason   []int32 // clause index, -1 for a decision or a unit
	phase    []bool  // saved polarity: true means positive
	nodec    []bool  // not a decision variable (see SetDecision)
	activity []float64
	heap     varHeap // the bumped variables, by activity
	bumped   []bool  // activity above zero: the variable is kept in heap
	decs     []int32 // the decision variables, in increasing order
	dpos     []int32 // per variable, its index in decs, -1 for none
	cursor   int     // no unbumped variable of decs[:cursor] is unassigned
	seen     []bool

	arena   []Lit
	clauses []clause
	watches [][]watcher // watches[l]: clauses watching literal l
	wcap    int         // the capacities of watches[:2*nvars], summed
	wasted  int         // arena literals of deleted clauses
	nlearnt int

	trail    []Lit
	trailLim []int32
	qhead    int

	varInc, claInc float64
	unsat          bool // an empty clause was derived at level 0

	assumptions []Lit
	core        []Lit
	model       []bool
	modelTop    int     // trail[:modelTop], level 0, is written in model
	modelUp     []int32 // variables true in model above level 0
	learnt      []Lit   // scratch for analyze
	stack       []Lit
	conflicts   int
	maxLearnt   int
}

// Reset empties s (no variables, no clauses), keeping its memory.
func (s *Solver) Reset() {
	opts := s.Options
	for i := range s.watches {
		s.watches[i] = s.watches[i][:0]
	}
	*s = Solver{Options: opts, assign: s.assign[:0], level: s.level[:0], reason: s.reason[:0],
		phase: s.phase[:0], nodec: s.nodec[:0], activity: s.activity[:0], heap: varHeap{idx: s.heap.idx[:0], heap: s.heap.heap[:0]}, bumped: s.bumped[:0],
		decs: s.decs[:0], dpos: s.dpos[:0],
		seen: s.seen[:0], arena: s.arena[:0], clauses: s.clauses[:0], watches: s.watches[:0],
		trail: s.trail[:0], trailLim: s.trailLim[:0], core: s.core[:0], model: s.model[:0], modelUp: s.modelUp[:0],
		learnt: s.learnt[:0], stack: s.stack[:0], assumptions: s.assumptions[:0]}
	s.varInc, s.claInc = 1, 1
}

// NumVars returns the number of variables.
func (s *Solver) NumVars() int { return s.nvars }

// Conflicts returns the number of conflicts of the last Solve.
func (s *Solver) Conflicts() int { return s.conflicts }

// NumClauses returns the number of clauses, learnt ones included.
func (s *Solver) NumClauses() int { return len(s.clauses) }

// AddVars adds n variables and returns the first one's index.
func (s *Solver) AddVars(n int) int {
	if s.varInc == 0 {
		s.varInc, s.claInc = 1, 1
	}
	first := s.nvars
	for range n {
		v := s.nvars
		s.nvars++
		s.assign = append(s.assign, 0)
		s.level = append(s.level, 0)
		s.reason = append(s.reason, -1)
		s.phase = append(s.phase, false)
		s.nodec = append(s.nodec, false)
		s.activity = append(s.activity, 0)
		s.seen = append(s.seen, false)
		s.model = append(s.model, false)
		s.heap.idx = append(s.heap.idx, -1)
		s.bumped = append(s.bumped, false)
		s.dpos = append(s.dpos, int32(len(s.decs)))
		s.decs = append(s.decs, int32(v))
		s.cursor = min(s.cursor, len(s.decs)-1)
	}
	for len(s.watches) < 2*s.nvars {
		if len(s.watches) < cap(s.watches) {
			s.watches = s.watches[:len(s.watches)+1]
			s.watches[len(s.watches)-1] = s.watches[len(s.watches)-1][:0]
			s.wcap += cap(s.watches[len(s.watches)-1])
			continue
		}
		s.watches = append(s.watches, nil)
	}
	return first
}

// SetPhase sets the polarity v is first tried with.
func (s *Solver) SetPhase(v int, b bool) { s.phase[v] = b }

// SetDecision(v, false) makes v a variable Solve never branches on; unless
// propagation sets it, it is false in a model. That is sound only for a
// variable that occurs in no clause positively (an activation literal
// assumed or not, whose clauses all contain its negation), and it saves
// the solver work on each query for every such variable.
func (s *Solver) SetDecision(v int, b bool) {
	s.nodec[v] = !b
	switch {
	case !b && s.dpos[v] >= 0:
		s.undec(v)
	case b && s.dpos[v] < 0:
		s.redec(v)
	}
	if b && s.assign[v] == 0 {
		s.release(v)
	}
}

// undec removes v from decs. The variables an activation literal is
// given are the last ones, so nothing moves.
func (s *Solver) undec(v int) {
	i := int(s.dpos[v])
	copy(s.decs[i:], s.decs[i+1:])
	s.decs = s.decs[:len(s.decs)-1]
	s.dpos[v] = -1
	if s.cursor > i {
		s.cursor--
	}
	for ; i < len(s.decs); i++ {
		s.dpos[s.decs[i]] = int32(i)
	}
}

// redec puts v back into decs, in its place.
func (s *Solver) redec(v int) {
	i, _ := slices.BinarySearch(s.decs, int32(v))
	s.decs = slices.Insert(s.decs, i, int32(v))
	for j := i; j < len(s.decs); j++ {
		s.dpos[s.decs[j]] = int32(j)
	}
	if i <= s.cursor {
		s.cursor++ // it stays on its variable
	}
}

// release makes the unassigned variable v available to pickVar again.
func (s *Solver) release(v int) {
	switch {
	case s.nodec[v]:
	case !s.bumped[v]:
		s.cursor = min(s.cursor, int(s.dpos[v]))
	case s.heap.idx[v] < 0:
		s.heap.insert(v, s.activity)
	}
}

// Bytes estimates the memory s holds, for budgets.
func (s *Solver) Bytes() int {
	return 4*cap(s.arena) + 24*cap(s.clauses) + 12*s.wcap + 40*s.nvars
}

// watch appends w to the watches of l.
func (s *Solver) watch(l Lit, w watcher) {
	ws := s.watches[l]
	c := cap(ws)
	ws = append(ws, w)
	s.wcap += cap(ws) - c
	s.watches[l] = ws
}

func (s *Solver) value(l Lit) int8 {
	a := s.assign[l>>1]
	if l&1 != 0 {
		return -a
	}
	return a
}

// Value returns v's value in the model of the last Sat answer.
func (s *Solver) Value(v int) bool { return s.model[v] }

// LitValue reports whether l is true in the model of the last Sat answer.
func (s *Solver) LitValue(l Lit) bool { return s.model[l.Var()] != l.IsNeg() }

// Core returns, after an Unsat answer, assumptions that are unsatisfiable
// together with the clauses (empty when the clauses alone are). The slice
// is valid until the next call.
func (s *Solver) Core() []Lit { return s.core }

func (s *Solver) decisionLevel() int { return len(s.trailLim) }

func (s *Solver) enqueue(l Lit, from int32) {
	v := l.Var()
	if l.IsNeg() {
		s.assign[v] = -1
	} else {
		s.assign[v] = 1
	}
	s.level[v] = int32(s.decisionLevel())
	s.reason[v] = from
	s.trail = append(s.trail, l)
}

// AddClause adds the clause of lits (at level 0, between Solve calls). It
// returns false when the clauses have become unsatisfiable.
func (s *Solver) AddClause(lits ...Lit) bool {
	if s.unsat {
		return false
	}
	s.cancelUntil(0)
	buf := s.stack[:0]
	for _, l := range lits {
		switch s.value(l) {
		case 1:
			s.stack = buf
			return true
		case -1:
			continue
		}
		dup := false
		for _, m := range buf {
			if m == l {
				dup = true
				break
			}
			if m == l.Not() {
				s.stack = buf
				return true
			}
		}
		if !dup {
			buf = append(buf, l)
		}
	}
	s.stack = buf
	switch len(buf) {
	case 0:
		s.unsat = true
		return false
	case 1:
		s.enqueue(buf[0], -1)
		if s.propagate() >= 0 {
			s.unsat = true
			return false
		}
		return true
	}
	s.attach(buf, false, 0)
	return true
}

// attach stores a clause of at least two literals and watches its first
// two; it returns its index.
func (s *Solver) attach(lits []Lit, learnt bool, lbd int) int32 {
	cref := int32(len(s.clauses))
	s.clauses = append(s.clauses, clause{off: int32(len(s.arena)), n: int32(len(lits)), lbd: int32(lbd), learnt: learnt})
	s.arena = append(s.arena, lits...)
	bin := len(lits) == 2
	s.watch(lits[0], watcher{cref, lits[1], bin})
	s.watch(lits[1], watcher{cref, lits[0], bin})
	if learnt {
		s.nlearnt++
	}
	return cref
}

func (s *Solver) lits(cref int32) []Lit {
	c := &s.clauses[cref]
	return s.arena[c.off : c.off+c.n]
}

// propagate runs unit propagation; it returns a conflicting clause or -1.
func (s *Solver) propagate() int32 {
	for s.qhead < len(s.trail) {
		p := s.trail[s.qhead]
		s.qhead++
		falseLit := p.Not()
		ws := s.watches[falseLit]
		i, j := 0, 0
		confl := int32(-1)
		for i < len(ws) {
			w := ws[i]
			i++
			bv := s.value(w.blocker)
			if bv == 1 {
				// A blocker true at level 0 satisfies the clause for
				// good: its watch is dropped, or every later visit would
				// skip it again. Clauses switched off by an activation
				// literal set false at level 0 pile up so in incremental
				// use, and their watches cost each query a scan.
				if s.level[w.blocker.Var()] != 0 {
					ws[j] = w
					j++
				}
				continue
			}
			if w.bin {
				if s.clauses[w.cref].deleted {
					continue
				}
				ws[j] = w
				j++
				if bv == -1 {
					confl = w.cref
					break
				}
				s.enqueue(w.blocker, w.cref)
				continue
			}
			c := &s.clauses[w.cref]
			if c.deleted {
				continue
			}
			lits := s.arena[c.off : c.off+c.n]
			if lits[0] == falseLit {
				lits[0], lits[1] = lits[1], lits[0]
			}
			first := lits[0]
			if first != w.blocker && s.value(first) == 1 {
				ws[j] = watcher{w.cref, first, false}
				j++
				continue
			}
			moved := false
			for k := 2; k < len(lits); k++ {
				if s.value(lits[k]) != -1 {
					lits[1], lits[k] = lits[k], lits[1]
					s.watch(lits[1], watcher{w.cref, first, false})
					moved = true
					break
				}
			}
			if moved {
				continue
			}
			ws[j] = watcher{w.cref, first, false}
			j++
			if s.value(first) == -1 {
				confl = w.cref
				break
			}
			s.enqueue(first, w.cref)
		}
		if confl >= 0 {
			for i < len(ws) {
				ws[j] = ws[i]
				i++
				j++
			}
			s.watches[falseLit] = ws[:j]
			s.qhead = len(s.trail)
			return confl
		}
		s.watches[falseLit] = ws[:j]
	}
	return -1
}

func (s *Solver) cancelUntil(lvl int) {
	if s.decisionLevel() <= lvl {
		return
	}
	lim := int(s.trailLim[lvl])
	for i := len(s.trail) - 1; i >= lim; i-- {
		v := s.trail[i].Var()
		s.phase[v] = s.assign[v] > 0
		s.assign[v] = 0
		s.reason[v] = -1
		s.release(v)
	}
	s.trail = s.trail[:lim]
	s.trailLim = s.trailLim[:lvl]
	s.qhead = lim
}
