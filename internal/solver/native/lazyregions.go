package native

import (
	"errors"

	"github.com/nlsat/nlsat/internal/sat"
)

// regionNodes is how many nodes the depth-first search of an unbounded
// lazy search may use before the problem goes to the region loop
// (regionSearch). Problems that need fewer keep the depth-first search's
// answers, models and speed; it is past this that the tree's lack of
// learning shows (see regionSearch).
const regionNodes = 32

// regions is the state of the region loop: a SAT solver whose variable v
// says that region list[v] is forbidden (no member of the type set lies in
// it), with the clauses the rounds have found and the sentences each rests
// on, and the regions the lazy search now forbids.
type regions[P pat] struct {
	s       sat.Solver
	index   map[guard[P]]int // the variable of each region met
	list    []guard[P]       // per variable, its region
	clauses [][]sat.Lit      // every clause added, in order
	sups    []sset           // per clause, the sentences it rests on
	lits    int              // literals in clauses
	stack   []int            // the forbidden regions' variables; depth d is stack[d-1]
	want    []int            // scratch
}

// variable returns the variable of region g, adding it if g is new.
func (r *regions[P]) variable(g guard[P]) int {
	if v, ok := r.index[g]; ok {
		return v
	}
	v := r.s.AddVars(1)
	r.index[g] = v
	r.list = append(r.list, g)
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
		int64(len(r.list))*int64(patBits[P]()/4+48)
}

// regionSearch is the lazy search's exact method for problems its
// depth-first search does not settle within regionNodes nodes. The
// depth-first search learns nogoods within a branch but forgets, on
// leaving it, why the branch failed: the same combinations of forbidden
// regions are refuted again and again in other parts of the tree. The
// region loop keeps them. Its choices are the same as the tree's, which
// regions to forbid, but made by a SAT solver over one variable per
// region, with two kinds of clauses:
//
//   - a conflict between members in regions x and y gives x ∨ y: no type
//     set has members in both, so one of them must be forbidden (this is
//     the tree's branching, as a clause);
//   - a BUILD that finds no key for an existential while regions z1 … zk
//     are forbidden (the branch depths its refutation used) gives
//     ¬z1 ∨ … ∨ ¬zk: no type set avoids all of them (this is what the
//     tree's backjumping relies on, kept for good). While the loop
//     runs (l.regs is set), pick first drops from that refutation every
//     region and nogood it can do without (shrinkCore): short clauses
//     cut the rounds.
//
// Each round takes the solver's model, forbids the regions it sets true
// (leaving the branches of the last round that differ and entering the
// rest, so nogoods learnt under a common prefix are kept) and goes on with
// BUILD from what the last round left, less the members in newly forbidden
// regions. BUILD ends with a type set (the answer), a conflict or a
// refutation; both add a clause that the round's model violates (the
// conflict's members are allowed, so neither region is forbidden; the
// refutation's regions are all forbidden), so no model recurs, and as the
// regions are joins of the problem's finitely many guards the loop ends.
// When the solver finds no model, every type set would violate a clause,
// so there is none: the answer is unsat, and its sentences are those of
// the clauses the solver's refutation used. A refutation that needs no
// forbidden region is unsat at once.
func (l *lazy[P]) regionSearch() (*typeSet[P], sset, error) {
	t := l.t
	r := &regions[P]{index: map[guard[P]]int{}}
	r.s.Options = sat.Options{Stop: func() bool { return t.ctx.Err() != nil }}
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
	for v := range r.list {
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
		r.stack = r.stack[:len(r.stack)-1]
	}
	for _, v := range r.want[k:] {
		l.push(r.list[v], nil)
		r.stack = append(r.stack, v)
		if st.b.ts != nil {
			st.remove(r.list[v], -1)
		}
	}
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
