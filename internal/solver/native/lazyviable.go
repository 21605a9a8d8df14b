package native

import "github.com/nlsat/nlsat/internal/sat"

// learn adds the nogood g, which depends on the branches at depths lev
// and on the sentences sup.
func (l *lazy[P]) learn(g guard[P], lev lset, sup sset) {
	pool := 0
	if l.regs != nil {
		pool = l.regs.learnt(g, lev, sup)
	}
	l.activate(g, lev, sup, pool)
	l.t.learnt++
}

// activate switches on the nogood g, resting on the branch depths lev and
// the sentences sup (pool as in nogood).
func (l *lazy[P]) activate(g guard[P], lev lset, sup sset, pool int) {
	act := l.actVars(1)
	l.vsup[act], l.vlev[act] = sup, lev
	l.goods = append(l.goods, nogood[P]{g: g, lvl: lev.top(), lev: lev, act: act, sup: sup, pool: pool})
	l.base = append(l.base, sat.Pos(act))
	l.exclude(g, act)
}

// viable checks a against the patterns allowed on the branch: it returns
// the witness answer per requirement (the dead ones a must witness
// itself), or ok = false after learning a nogood that excludes a.
func (l *lazy[P]) viable(a *kinfo[P]) (infos []witInfo[P], ok bool, err error) {
	infos = make([]witInfo[P], len(a.reqs))
	var units []blit
	for r, j := range a.reqs {
		wi, err := l.witnessFor(a, r)
		if err != nil {
			return nil, false, err
		}
		infos[r] = *wi
		if !wi.dead {
			continue
		}
		q := &l.t.n.qs[j]
		if !q.y.applies(a.k) {
			l.learn(against(wi.reason, q.y, a.k), wi.lev, wi.sup)
			return nil, false, nil
		}
		units = append(units, q.e...)
	}
	if !l.t.reflOK(a, units) {
		l.learn(l.reflNogood(a, infos))
		return nil, false, nil
	}
	return infos, true, nil
}

// against returns g with a literal of y that k falsifies (k does not
// satisfy y).
func against[P pat](g guard[P], y guard[P], k key[P]) guard[P] {
	i := pLowest(pAnd(pXor(k.u, y.val), y.mask))
	g, _ = g.with(i, !pHas(k.u, i))
	return g
}

// reflNogood returns, for a key a whose reflexive atoms cannot satisfy its
// (T1) clauses with the units of its dead requirements, the guards of a
// minimal unsatisfiable set of those clauses and requirements, the
// branch depths the requirements' deaths depend on, and the sentences.
func (l *lazy[P]) reflNogood(a *kinfo[P], infos []witInfo[P]) (guard[P], lset, sset) {
	t := l.t
	var items, dead []int
	for _, i := range a.xs {
		if a.ym.has(uint64(i)) {
			items = append(items, i)
		}
	}
	for r := range a.reqs {
		if infos[r].dead {
			dead = append(dead, r)
		}
	}
	sat := func(items, dead []int) bool {
		t.ts.reset(t.nverbs)
		for _, i := range items {
			d := t.n.cs[i].d
			switch {
			case len(d) == 0:
				return false
			case len(d) == 1:
				t.ts.clause(d[0].refl(), d[0].refl())
			case d[0].refl() != d[1].refl()^1:
				t.ts.clause(d[0].refl(), d[1].refl())
			}
		}
		for _, r := range dead {
			for _, e := range t.n.qs[a.reqs[r]].e {
				t.ts.clause(e.refl(), e.refl())
			}
		}
		return t.ts.solve()
	}
	items = shrinkUnsat(items, func(s []int) bool { return !sat(s, dead) })
	dead = shrinkUnsat(dead, func(s []int) bool { return !sat(items, s) })
	g, sup := noGuard[P](), l.union(nil, nil)
	var lev lset
	for _, i := range items {
		g, _ = g.join(t.n.cs[i].x)
		g, _ = g.join(t.n.cs[i].y)
		sup[t.n.cs[i].src/64] |= 1 << (t.n.cs[i].src % 64)
	}
	for _, r := range dead {
		g, _ = g.join(infos[r].reason)
		lev = lunion(lev, infos[r].lev)
		sup = l.union(sup, infos[r].sup)
	}
	return g, lev, sup
}

// shrinkUnsat drops elements of s, one at a time, while unsat(rest) holds.
func shrinkUnsat(s []int, unsat func([]int) bool) []int {
	for i := 0; i < len(s); {
		rest := append(append([]int(nil), s[:i]...), s[i+1:]...)
		if unsat(rest) {
			s = rest
		} else {
			i++
		}
	}
	return s
}
