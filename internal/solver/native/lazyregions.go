package native

import (
	"errors"
	"slices"

	"github.com/nlsat/nlsat/internal/sat"
)

// regionNodes is how many nodes the depth-first search of an unbounded
// lazy search may use before the problem goes to the region loop
// (regionSearch). Problems that need fewer keep the depth-first search's
// answers, models and speed; it is past this that the tree's lack of
// learning shows (see regionSearch).
const regionNodes = 32

// regions is the state of the region loop: a SAT solver whose variable v
// (from first on) says that region list[v] is forbidden (no member of the
// type set lies in it), with the clauses the rounds have found and the
// sentences each rests on, and the regions the lazy search now forbids.
// The solver's variables before first are the nouns of a key per fresh
// predicate (see regionSearch); their entries of list and depth are unused.
type regions[P pat] struct {
	l       *lazy[P]
	s       sat.Solver
	keys    int              // keys + c*nouns + i: noun i of fresh predicate c's key
	first   int              // the first region variable
	index   map[guard[P]]int // the variable of each region met
	list    []guard[P]       // per variable, its region
	clauses [][]sat.Lit      // every clause added, in order
	sups    []sset           // per clause, the sentences it rests on
	lits    int              // literals in clauses
	stack   []int            // the forbidden regions' variables; depth d is stack[d-1]
	depth   []int32          // per variable, its depth in stack, 0 if not forbidden
	pool    []pooled[P]      // the nogoods learnt in the loop on forbidden regions
	pooled  int              // regions named in pool
	want    []int            // scratch
	scratch []sat.Lit
}

// pooled is a nogood the loop learnt while the regions regs (variables)
// were forbidden: it holds whenever they all are, whatever their depths,
// and enter switches it on again when they are.
type pooled[P pat] struct {
	g    guard[P]
	regs []int32
	sup  sset
	live bool
}

// newRegions returns the region loop's state for l, with the key of every
// fresh predicate kept out of M's regions and of the nogoods learnt so far
// at the root.
func newRegions[P pat](l *lazy[P]) *regions[P] {
	t := l.t
	r := &regions[P]{l: l, index: map[guard[P]]int{}}
	r.s.Options = sat.Options{Stop: func() bool { return t.ctx.Err() != nil }}
	r.keys = r.s.AddVars(t.nn * len(t.n.csrc))
	r.first = r.s.NumVars()
	r.list = make([]guard[P], r.first)
	r.depth = make([]int32, r.first)
	for i, g := range t.n.mono {
		r.avoid(g, nil, l.with(nil, t.n.msrc[i]))
	}
	for _, g := range l.goods {
		r.avoid(g.g, nil, g.sup)
	}
	return r
}

// avoid adds, for every fresh predicate c whose keys region g can hold,
// the clause that c's key lies outside g if the regions vars are all
// forbidden; it rests on sup and c's sentence.
func (r *regions[P]) avoid(g guard[P], vars []int32, sup sset) {
	t := r.l.t
	for c, src := range t.n.csrc {
		if g.c >= 0 && g.c != c {
			continue
		}
		lits := r.scratch[:0]
		for _, v := range vars {
			lits = append(lits, sat.Neg(int(v)))
		}
		r.scratch = notCube(lits, g, r.keys+c*t.nn)
		r.add(r.l.with(sup, src), r.scratch...)
	}
}

// learnt records the nogood g the lazy search learnt on the branch
// depths lev from the sentences sup: the solver learns that keys avoid it
// while the regions at those depths are forbidden, and a nogood that rests
// on some region is pooled. It returns what nogood.pool holds.
func (r *regions[P]) learnt(g guard[P], lev lset, sup sset) int {
	var regs []int32
	for d := 1; d <= len(r.stack); d++ {
		if lev.has(d) {
			regs = append(regs, int32(r.stack[d-1]))
		}
	}
	r.avoid(g, regs, sup)
	if len(regs) == 0 {
		return 0 // it holds everywhere and is never left
	}
	r.pool = append(r.pool, pooled[P]{g: g, regs: regs, sup: sup, live: true})
	r.pooled += len(regs)
	return len(r.pool)
}

// variable returns the variable of region g, adding it if g is new: the
// keys avoid a forbidden region.
func (r *regions[P]) variable(g guard[P]) int {
	if v, ok := r.index[g]; ok {
		return v
	}
	v := r.s.AddVars(1)
	r.index[g] = v
	r.list = append(r.list, g)
	r.depth = append(r.depth, 0)
	r.avoid(g, []int32{int32(v)}, nil)
	return v
}

// add adds a clause that rests on the sentences sup.
func (r *regions[P]) add(sup sset, lits ...sat.Lit) {
	c := append([]sat.Lit(nil), lits...)
	r.clauses = append(r.clauses, c)
	r.sups = append(r.sups, sup)
	r.lits += len(c)
	r.s.AddClause(c...)
}

// bytes estimates the memory the region loop holds.
func (r *regions[P]) bytes() int64 {
	words := int64(0)
	if len(r.sups) > 0 {
		words = int64(len(r.sups[0]))
	}
	return int64(r.s.Bytes()) + 4*int64(r.lits) + int64(len(r.clauses))*(48+8*words) +
		int64(len(r.list))*int64(patBits[P]()/4+48) +
		int64(len(r.pool))*int64(patBits[P]()/4+72) + 4*int64(r.pooled)
}

// regionSearch is the lazy search's exact method for problems its
// depth-first search does not settle within regionNodes nodes. The
// depth-first search learns nogoods within a branch but forgets, on
// leaving it, why the branch failed: the same combinations of forbidden
// regions are refuted again and again in other parts of the tree. The
// region loop keeps them. Its choices are the same as the tree's, which
// regions to forbid, but made by a SAT solver over one variable per
// region ("no member lies in it") and, per fresh predicate c, one per noun
// of c's key, with these clauses:
//
//   - a conflict between members in regions x and y gives x ∨ y: no type
//     set has members in both, so one of them must be forbidden (this is
//     the tree's branching, as a clause);
//   - a BUILD that finds no key for an existential while regions z1 … zk
//     are forbidden (the branch depths its refutation used) gives
//     ¬z1 ∨ … ∨ ¬zk: no type set avoids all of them (this is what the
//     tree's backjumping relies on, kept for good);
//   - c's key lies outside every forbidden region and every region of M's
//     clauses for c, and outside each nogood g learnt while regions
//     z1 … zk were forbidden, when they are: ¬z1 ∨ … ∨ ¬zk ∨ "the key is
//     not in g". So the solver itself sees when the regions it forbids,
//     with what was learnt from them, leave some existential no key,
//     and learns the short clauses a BUILD's refutation would name only
//     one round at a time.
//
// While the loop runs (l.regs is set), a failed search for a key or for a
// witness first drops every region and nogood it can do without
// (shrinkCore): short clauses cut the rounds.
//
// Each round takes the solver's model, forbids the regions it sets true
// (leaving the branches of the last round that differ and entering the
// rest, so nogoods learnt under a common prefix are kept; a nogood left
// is pooled and switched on again by a later round that forbids every
// region it rests on) and goes on with BUILD from what the last round
// left, less the members in newly forbidden regions and nogoods. BUILD
// ends with a type set (the answer), a conflict or a refutation; both add
// a clause over the regions that the round's model violates (the
// conflict's members are allowed, so neither region is forbidden; the
// refutation's regions are all forbidden), so no choice of regions
// recurs, and as the regions are joins of the problem's finitely many
// guards the loop ends. Every clause holds of every type set, read with
// its regions and keys (holds checks it of the answer), so when the
// solver finds no model there is none: the answer is unsat, and its
// sentences are those of the clauses the solver's refutation used. A
// refutation that needs no forbidden region is unsat at once.
func (l *lazy[P]) regionSearch() (*typeSet[P], sset, error) {
	t := l.t
	r := newRegions(l)
	l.regs = r
	var state lzBuild[P]
	for {
		if err := t.ctx.Err(); err != nil {
			return nil, nil, errCanceled
		}
		if l.overBudget() {
			return nil, nil, errMemory
		}
		t.rounds++
		switch r.s.Solve() {
		case sat.Unsat:
			sup, err := r.core(l)
			return nil, sup, err
		case sat.Unknown:
			return nil, nil, errCanceled
		}
		l.enter(r, &state)
		for {
			if l.overBudget() {
				return nil, nil, errMemory
			}
			ts, x, y, st, sup, lev, err := l.build(&state)
			if err != nil {
				return nil, nil, err
			}
			if st == lzRestart {
				continue
			}
			switch st {
			case lzBuilt:
				if !r.holds(ts) {
					return nil, nil, errors.New("internal error: a clause of the region loop does not hold of the type set it found")
				}
				return ts, nil, nil
			case lzConflict:
				r.add(sup, sat.Pos(r.variable(x)), sat.Pos(r.variable(y)))
			case lzUnsat:
				var lits []sat.Lit
				for d, v := range r.stack {
					if lev.has(d + 1) {
						lits = append(lits, sat.Neg(v))
					}
				}
				if len(lits) == 0 {
					return nil, sup, nil
				}
				r.add(sup, lits...)
			}
			break
		}
	}
}

// enter makes the regions of the solver's model the forbidden ones: it
// leaves the branches from the first that differs (the deepest first) and
// enters the rest in the order of their variables, removing from st the
// members they exclude.
func (l *lazy[P]) enter(r *regions[P], st *lzBuild[P]) {
	r.want = r.want[:0]
	for v := r.first; v < len(r.list); v++ {
		if r.s.Value(v) {
			r.want = append(r.want, v)
		}
	}
	k := 0
	for k < len(r.stack) && k < len(r.want) && r.stack[k] == r.want[k] {
		k++
	}
	for len(r.stack) > k {
		l.pop()
		r.depth[r.stack[len(r.stack)-1]] = 0
		r.stack = r.stack[:len(r.stack)-1]
	}
	for _, v := range r.want[k:] {
		l.push(r.list[v], nil)
		r.stack = append(r.stack, v)
		r.depth[v] = int32(len(r.stack))
		if st.b.ts != nil {
			st.remove(r.list[v], -1)
		}
	}
	if k == len(r.want) {
		return // nothing entered: every pooled nogood that can hold does
	}
	for i := range r.pool {
		p := &r.pool[i]
		if p.live {
			continue
		}
		var lev lset
		for _, v := range p.regs {
			d := int(r.depth[v])
			if d == 0 {
				lev = nil
				break
			}
			lev = lunion(lev, single(d))
		}
		if lev == nil {
			continue
		}
		p.live = true
		l.activate(p.g, lev, p.sup, i+1)
		if st.b.ts != nil {
			st.remove(p.g, -1)
		}
	}
}

// holds reports whether every clause of the loop holds of the type set ts,
// read as an assignment: a region is forbidden when no member lies in it,
// and c's key is the first member with fresh predicate c. Section 5 of the
// design shows that the clauses hold of every type set, so false is a bug;
// the check costs far less than the rounds before it.
func (r *regions[P]) holds(ts *typeSet[P]) bool {
	nn := r.l.t.nn
	val := make([]bool, r.s.NumVars())
	for c := range r.l.t.n.csrc {
		i := slices.IndexFunc(ts.members, func(m *kinfo[P]) bool { return m.k.c == c })
		if i < 0 {
			return false
		}
		for j := range nn {
			val[r.keys+c*nn+j] = pHas(ts.members[i].k.u, j)
		}
	}
	for v := r.first; v < len(r.list); v++ {
		val[v] = !slices.ContainsFunc(ts.members, func(m *kinfo[P]) bool { return r.list[v].applies(m.k) })
	}
	for _, c := range r.clauses {
		if !slices.ContainsFunc(c, func(l sat.Lit) bool { return val[l.Var()] != l.IsNeg() }) {
			return false
		}
	}
	return true
}

// core returns the sentences of the clauses the solver's refutation needs:
// the clauses are given again to a fresh solver, each under an activation
// literal, and the activations of its core name them.
func (r *regions[P]) core(l *lazy[P]) (sset, error) {
	var s sat.Solver
	s.Options = r.s.Options
	s.AddVars(len(r.list))
	first := s.NumVars()
	asm := make([]sat.Lit, len(r.clauses))
	var lits []sat.Lit
	for i, c := range r.clauses {
		// Each activation is the last variable when it is set aside, so
		// SetDecision moves nothing.
		s.SetDecision(s.AddVars(1), false)
		lits = append(append(lits[:0], sat.Neg(first+i)), c...)
		s.AddClause(lits...)
		asm[i] = sat.Pos(first + i)
	}
	switch s.Solve(asm...) {
	case sat.Unknown:
		return nil, errCanceled
	case sat.Sat:
		return nil, errors.New("internal error: the region clauses are satisfiable again with activation literals")
	}
	sup := l.union(nil, nil)
	for _, lit := range s.Core() {
		for i, w := range r.sups[lit.Var()-first] {
			sup[i] |= w
		}
	}
	return sup, nil
}
