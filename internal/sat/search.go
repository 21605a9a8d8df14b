package sat

import "slices"

// Solve decides the clauses under the assumptions (literals taken as
// true for this call only). Sat leaves a model (Value); Unsat leaves in
// Core the assumptions it needed; Unknown means Options stopped it.
func (s *Solver) Solve(assumptions ...Lit) Status {
	s.core = s.core[:0]
	if s.unsat {
		return Unsat
	}
	if s.varInc == 0 {
		s.varInc, s.claInc = 1, 1
	}
	s.assumptions = append(s.assumptions[:0], assumptions...)
	s.conflicts = 0
	if s.maxLearnt == 0 {
		s.maxLearnt = max(len(s.clauses)/3, 2000)
	}
	status := Unknown
	for restart := 1; status == Unknown; restart++ {
		if s.stopped() {
			break
		}
		status = s.search(100 * luby(restart))
	}
	if status == Sat {
		s.saveModel()
	}
	s.cancelUntil(0)
	if status == Unknown {
		s.core = s.core[:0]
	}
	return status
}

func (s *Solver) stopped() bool {
	if s.Options.MaxConflicts > 0 && s.conflicts > s.Options.MaxConflicts {
		return true
	}
	return s.Options.Stop != nil && s.Options.Stop()
}

// search runs CDCL until a model, a refutation, or nconfl conflicts
// (Unknown: restart).
func (s *Solver) search(nconfl int) Status {
	for local := 0; ; {
		confl := s.propagate()
		if confl >= 0 {
			s.conflicts++
			local++
			if s.decisionLevel() == 0 {
				s.unsat = true
				return Unsat
			}
			learnt, back, lbd := s.analyze(confl)
			s.cancelUntil(back)
			if len(learnt) == 1 {
				s.enqueue(learnt[0], -1)
			} else {
				cref := s.attach(learnt, true, lbd)
				s.bumpClause(cref)
				s.enqueue(learnt[0], cref)
			}
			s.varInc /= 0.95
			s.claInc /= 0.999
			if s.conflicts&63 == 0 && s.stopped() {
				return Unknown
			}
			continue
		}
		if local >= nconfl {
			s.cancelUntil(0)
			return Unknown
		}
		if s.decisionLevel() == 0 {
			s.simplify()
		}
		if s.nlearnt-len(s.trail) >= s.maxLearnt {
			s.reduce()
		}
		next, st := s.pickAssumption()
		if st != Unknown {
			return st
		}
		if next < 0 {
			v := s.pickVar()
			if v < 0 {
				return Sat
			}
			next = Mk(v, s.phase[v])
		}
		s.trailLim = append(s.trailLim, int32(len(s.trail)))
		s.enqueue(next, -1)
	}
}

// pickAssumption returns the next assumption to decide (-1 when all are
// placed), or Unsat when one is false.
func (s *Solver) pickAssumption() (Lit, Status) {
	for s.decisionLevel() < len(s.assumptions) {
		p := s.assumptions[s.decisionLevel()]
		switch s.value(p) {
		case 1:
			s.trailLim = append(s.trailLim, int32(len(s.trail)))
		case -1:
			s.analyzeFinal(p)
			return 0, Unsat
		default:
			return p, Unknown
		}
	}
	return -1, Unknown
}

// pickVar returns the unassigned decision variable of highest activity,
// the lowest-numbered among equals, or -1. Variables never bumped (activity
// zero) are not kept in the heap, which in the many small queries is most
// of them; they are scanned in order from cursor, after the heap.
func (s *Solver) pickVar() int {
	for !s.heap.empty() {
		v := s.heap.pop(s.activity)
		if s.assign[v] == 0 && !s.nodec[v] {
			return v
		}
	}
	for ; s.cursor < len(s.decs); s.cursor++ {
		v := int(s.decs[s.cursor])
		if s.assign[v] == 0 && !s.bumped[v] {
			return v
		}
	}
	return -1
}

// saveModel writes the assignment into model: a variable is true when it
// is true on the trail (a non-decision variable left open is false). The
// trail's level-0 part only grows, so it is written once, and only the
// variables set true above level 0 are cleared before the next model:
// in incremental use most variables are activation literals retired at
// level 0, and a model costs the trail above it, not every variable.
func (s *Solver) saveModel() {
	for _, v := range s.modelUp {
		s.model[v] = false
	}
	s.modelUp = s.modelUp[:0]
	top := len(s.trail)
	if len(s.trailLim) > 0 {
		top = int(s.trailLim[0])
	}
	for _, l := range s.trail[s.modelTop:top] {
		s.model[l.Var()] = !l.IsNeg()
	}
	s.modelTop = top
	for _, l := range s.trail[top:] {
		if !l.IsNeg() {
			s.model[l.Var()] = true
			s.modelUp = append(s.modelUp, int32(l.Var()))
		}
	}
}

// analyze derives the first-UIP clause of conflict confl; it returns the
// clause (asserting literal first), the level to go back to and its LBD.
func (s *Solver) analyze(confl int32) ([]Lit, int, int) {
	learnt := append(s.learnt[:0], 0)
	pathC := 0
	p := Lit(-1)
	idx := len(s.trail) - 1
	for {
		if s.clauses[confl].learnt {
			s.bumpClause(confl)
		}
		for _, q := range s.lits(confl) {
			if q == p {
				continue
			}
			v := q.Var()
			if s.seen[v] || s.level[v] == 0 {
				continue
			}
			s.seen[v] = true
			s.bumpVar(v)
			if int(s.level[v]) >= s.decisionLevel() {
				pathC++
			} else {
				learnt = append(learnt, q)
			}
		}
		for !s.seen[s.trail[idx].Var()] {
			idx--
		}
		p = s.trail[idx]
		idx--
		confl = s.reason[p.Var()]
		s.seen[p.Var()] = false
		pathC--
		if pathC == 0 {
			break
		}
	}
	learnt[0] = p.Not()
	learnt = s.minimize(learnt)
	back := 0
	if len(learnt) > 1 {
		hi := 1
		for i := 2; i < len(learnt); i++ {
			if s.level[learnt[i].Var()] > s.level[learnt[hi].Var()] {
				hi = i
			}
		}
		learnt[1], learnt[hi] = learnt[hi], learnt[1]
		back = int(s.level[learnt[1].Var()])
	}
	lbd := s.lbd(learnt)
	for _, q := range learnt {
		s.seen[q.Var()] = false
	}
	s.learnt = learnt
	return learnt, back, lbd
}

// minimize drops literals implied by the others through their reason
// clauses (local minimisation); seen marks the clause's variables.
func (s *Solver) minimize(learnt []Lit) []Lit {
	j := 1
	for i := 1; i < len(learnt); i++ {
		v := learnt[i].Var()
		r := s.reason[v]
		if r < 0 {
			learnt[j] = learnt[i]
			j++
			continue
		}
		keep := false
		for _, q := range s.lits(r) {
			u := q.Var()
			if u != v && !s.seen[u] && s.level[u] > 0 {
				keep = true
				break
			}
		}
		if keep {
			learnt[j] = learnt[i]
			j++
		} else {
			s.seen[v] = false
		}
	}
	return learnt[:j]
}

func (s *Solver) lbd(lits []Lit) int {
	n := 0
	for i, l := range lits {
		lv := s.level[l.Var()]
		dup := false
		for _, m := range lits[:i] {
			if s.level[m.Var()] == lv {
				dup = true
				break
			}
		}
		if !dup {
			n++
		}
	}
	return n
}

// analyzeFinal sets Core to the assumptions that force p, an assumption
// found false, to be false (p included).
func (s *Solver) analyzeFinal(p Lit) {
	s.core = append(s.core[:0], p)
	if s.decisionLevel() == 0 {
		return
	}
	s.seen[p.Var()] = true
	for i := len(s.trail) - 1; i >= int(s.trailLim[0]); i-- {
		q := s.trail[i]
		v := q.Var()
		if !s.seen[v] {
			continue
		}
		s.seen[v] = false
		r := s.reason[v]
		if r < 0 {
			s.core = append(s.core, q) // a decision: an assumption
			continue
		}
		for _, l := range s.lits(r) {
			if u := l.Var(); u != v && s.level[u] > 0 {
				s.seen[u] = true
			}
		}
	}
	s.seen[p.Var()] = false
}

func (s *Solver) bumpVar(v int) {
	s.activity[v] += s.varInc
	if !s.bumped[v] {
		s.bumped[v] = true
		if s.assign[v] == 0 && !s.nodec[v] {
			s.heap.insert(v, s.activity)
		}
	}
	if s.activity[v] > 1e100 {
		for i := range s.activity {
			s.activity[i] *= 1e-100
		}
		s.varInc *= 1e-100
	}
	if s.heap.idx[v] >= 0 {
		s.heap.up(s.heap.idx[v], s.activity)
	}
}

func (s *Solver) bumpClause(cref int32) {
	c := &s.clauses[cref]
	c.act += float32(s.claInc)
	if c.act > 1e20 {
		for i := range s.clauses {
			s.clauses[i].act *= 1e-20
		}
		s.claInc *= 1e-20
	}
}

// reduce deletes about half of the learnt clauses of more than two
// literals, those with the worst LBD and activity, unless they are
// reasons.
func (s *Solver) reduce() {
	var cand []int32
	for i := range s.clauses {
		c := &s.clauses[i]
		if c.learnt && !c.deleted && c.n > 2 && !s.locked(int32(i)) {
			cand = append(cand, int32(i))
		}
	}
	slices.SortFunc(cand, func(a, b int32) int {
		ca, cb := &s.clauses[a], &s.clauses[b]
		if ca.lbd != cb.lbd {
			return int(cb.lbd - ca.lbd)
		}
		switch {
		case ca.act < cb.act:
			return -1
		case ca.act > cb.act:
			return 1
		}
		return int(a - b)
	})
	for _, i := range cand[:len(cand)/2] {
		s.clauses[i].deleted = true
		s.wasted += int(s.clauses[i].n)
		s.nlearnt--
	}
	s.maxLearnt += s.maxLearnt / 10
}

// locked reports whether clause cref is the reason of an assignment.
func (s *Solver) locked(cref int32) bool {
	for _, l := range s.lits(cref)[:2] {
		if s.reason[l.Var()] == cref && s.value(l) == 1 {
			return true
		}
	}
	return false
}

// simplify, at level 0, compacts the clause store once deleted clauses
// waste half of it: satisfied clauses and false literals are dropped and
// the watches rebuilt.
func (s *Solver) simplify() {
	if s.wasted < len(s.arena)/2 || s.wasted < compactMin {
		return
	}
	arena := make([]Lit, 0, len(s.arena)-s.wasted)
	out := s.clauses[:0]
	for i := range s.watches {
		s.watches[i] = s.watches[i][:0]
	}
	s.nlearnt = 0
	for _, c := range s.clauses {
		if c.deleted {
			continue
		}
		lits, sat := s.arena[c.off:c.off+c.n], false
		off := len(arena)
		for _, l := range lits {
			switch s.value(l) {
			case 1:
				sat = true
			case 0:
				arena = append(arena, l)
			}
		}
		if sat || len(arena)-off < 2 {
			// A satisfied clause is dropped; a clause with fewer than two
			// open literals at level 0 after propagation is satisfied too.
			arena = arena[:off]
			continue
		}
		c.off, c.n = int32(off), int32(len(arena)-off)
		cref := int32(len(out))
		out = append(out, c)
		l0, l1 := arena[off], arena[off+1]
		bin := c.n == 2
		s.watch(l0, watcher{cref, l1, bin})
		s.watch(l1, watcher{cref, l0, bin})
		if c.learnt {
			s.nlearnt++
		}
	}
	for _, l := range s.trail {
		s.reason[l.Var()] = -1
	}
	s.clauses, s.arena, s.wasted = out, arena, 0
}

// compactMin is the number of wasted literals below which simplify does
// not compact (a variable so that tests can lower it).
var compactMin = 1 << 16

// luby returns the i-th element (from 1) of the Luby sequence 1 1 2 1 1 2 4 ...
func luby(i int) int {
	for k := 1; ; k++ {
		if i == 1<<k-1 {
			return 1 << (k - 1)
		}
		if i < 1<<k-1 {
			return luby(i - (1<<(k-1) - 1))
		}
	}
}

// varHeap is a binary max-heap of variables by activity.
type varHeap struct {
	heap []int
	idx  []int // position in heap, -1 when absent
}

func (h *varHeap) empty() bool { return len(h.heap) == 0 }

func (h *varHeap) insert(v int, act []float64) {
	h.idx[v] = len(h.heap)
	h.heap = append(h.heap, v)
	h.up(len(h.heap)-1, act)
}

func (h *varHeap) less(a, b int, act []float64) bool {
	if act[a] != act[b] {
		return act[a] > act[b]
	}
	return a < b
}

func (h *varHeap) up(i int, act []float64) {
	v := h.heap[i]
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(v, h.heap[p], act) {
			break
		}
		h.heap[i] = h.heap[p]
		h.idx[h.heap[i]] = i
		i = p
	}
	h.heap[i] = v
	h.idx[v] = i
}

func (h *varHeap) pop(act []float64) int {
	top := h.heap[0]
	last := h.heap[len(h.heap)-1]
	h.heap = h.heap[:len(h.heap)-1]
	h.idx[top] = -1
	if len(h.heap) == 0 {
		return top
	}
	i := 0
	for {
		c := 2*i + 1
		if c >= len(h.heap) {
			break
		}
		if c+1 < len(h.heap) && h.less(h.heap[c+1], h.heap[c], act) {
			c++
		}
		if !h.less(h.heap[c], last, act) {
			break
		}
		h.heap[i] = h.heap[c]
		h.idx[h.heap[i]] = i
		i = c
	}
	h.heap[i] = last
	h.idx[last] = i
	return top
}
