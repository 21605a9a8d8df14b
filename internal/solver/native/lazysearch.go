package native

import "github.com/nlsat/nlsat/internal/sat"

// search is SEARCH with lazy viability: BUILD until it stops learning
// (each BUILD after the first goes on from what the last one left, less
// the keys its nogood excludes), then branch on a conflict's guards as
// the explicit search does. An unsat answer (nil) comes with the
// sentences and the branch depths its refutation used. A child refuted
// without its own branch's guard refutes this node too, so its sibling
// is not searched (conflict-directed backjumping).
func (l *lazy[P]) search() (*typeSet[P], sset, lset, error) {
	t := l.t
	t.nodes++
	if t.nodes > t.maxNodes {
		return nil, nil, nil, errGaveUp
	}
	var x, y guard[P]
	var sup sset
	var state lzBuild[P] // what BUILD goes on from after a restart
	for {
		if err := t.ctx.Err(); err != nil {
			return nil, nil, nil, errCanceled
		}
		if l.overBudget() {
			return nil, nil, nil, errMemory
		}
		ts, gx, gy, st, s, lev, err := l.build(&state)
		if err != nil {
			return nil, nil, nil, err
		}
		switch st {
		case lzBuilt:
			return ts, nil, nil, nil
		case lzUnsat:
			return nil, s, lev, nil
		case lzConflict:
			x, y, sup = gx, gy, s
		}
		if st == lzConflict {
			break
		}
	}
	branches := []guard[P]{x, y}
	if y.size() > x.size() {
		branches = []guard[P]{y, x}
	}
	if x == y {
		branches = branches[:1]
	}
	all, d := sup, l.depth+1
	var lev lset
	for _, z := range branches {
		l.push(z, sup)
		r, s, cl, err := l.search()
		l.pop()
		switch {
		case r != nil || err != nil:
			return r, nil, nil, err
		case !cl.has(d):
			t.backjumps++
			return nil, s, cl, nil
		}
		all = l.union(all, s)
		lev = lunion(lev, cl.without(d))
	}
	return nil, all, lev, nil
}

// push enters the branch that forbids guard z, a side of a conflict
// found from the sentences sup.
func (l *lazy[P]) push(z guard[P], sup sset) {
	l.depth++
	v := l.actVars(1)
	l.vsup[v], l.vlev[v] = sup, single(l.depth)
	l.bacts = append(l.bacts, v)
	l.f = append(l.f, z)
	l.base = append(l.base, sat.Pos(v))
	l.exclude(z, v)
	l.gen++
}

// pop leaves the current branch, forgetting what was learnt under it.
func (l *lazy[P]) pop() {
	last := len(l.bacts) - 1
	l.retire(l.bacts[last])
	l.bacts, l.f = l.bacts[:last], l.f[:last]
	keep := l.goods[:0]
	for _, g := range l.goods {
		if g.lvl < l.depth {
			keep = append(keep, g)
		} else {
			l.retire(g.act)
			if g.pool > 0 {
				l.regs.pool[g.pool-1].live = false
			}
		}
	}
	l.goods = keep
	l.depth--
	l.gen++
	l.rebase()
}
