package native

import (
	"errors"
	"slices"

	"github.com/nlsat/nlsat/internal/sat"
)

// solve runs a query; Unknown (the context ended) is errCanceled.
func (l *lazy[P]) solve(asm []sat.Lit) (bool, error) {
	switch l.s.Solve(asm...) {
	case sat.Sat:
		return true, nil
	case sat.Unsat:
		return false, nil
	}
	return false, errCanceled
}

// pattern returns the noun pattern of the last model.
func (l *lazy[P]) pattern() P {
	var u P
	for i := range l.t.nn {
		if l.s.Value(i) {
			u[i/64] |= 1 << (i % 64)
		}
	}
	return u
}

// explainCore reads the failed assumptions core of a failed query: the
// a-side guards of the pair clauses it used, joined to reason; the branch
// depths it depends on; and its sentences, added to sup.
func (l *lazy[P]) explainCore(reason guard[P], sup sset, core []sat.Lit) (guard[P], lset, sset) {
	var lev lset
	sup = l.union(sup, nil)
	for _, lit := range core {
		v := lit.Var()
		if v >= l.acts && v < l.acts+2*len(l.t.n.cs) {
			c := &l.t.n.cs[(v-l.acts)/2]
			g := c.x
			if (v-l.acts)%2 == 1 {
				g = c.y
			}
			reason, _ = reason.join(g) // every such guard holds of a
		}
		lev = lunion(lev, l.vlev[v])
		if src := l.vsrc[v]; src >= 0 {
			sup[src/64] |= 1 << (src % 64)
		}
		for i, w := range l.vsup[v] {
			sup[i] |= w
		}
	}
	return reason, lev, sup
}

// forbidFor returns the regions keys with fresh predicate c (-1: c-free)
// must avoid on the branch, their c dropped: M's clauses, the live
// nogoods and the branch's guards, then excl.
func (l *lazy[P]) forbidFor(c int, excl []guard[P]) []guard[P] {
	out := monoFor(l.t.n, c, l.forbid[:0])
	for i := range l.goods {
		if g := &l.goods[i].g; g.c < 0 || g.c == c {
			out = append(out, guard[P]{mask: g.mask, val: g.val, c: -1})
		}
	}
	for _, g := range l.f {
		if g.c < 0 || g.c == c {
			out = append(out, guard[P]{mask: g.mask, val: g.val, c: -1})
		}
	}
	for _, g := range excl {
		if g.c < 0 || g.c == c {
			out = append(out, guard[P]{mask: g.mask, val: g.val, c: -1})
		}
	}
	l.forbid = out
	return out
}

// pick finds a noun pattern for a key with fresh predicate c (-1:
// c-free) allowed on the branch and outside excl, by DPLL on the
// forbidden regions; when there is none it asks the solver why, and
// returns the sentences of the refutation.
func (l *lazy[P]) pick(c int, excl []guard[P]) (u P, ok bool, sup sset, err error) {
	if u, ok := l.dpll.solve(l.forbidFor(c, excl)); ok {
		return u, true, nil, nil
	}
	if len(excl) > 0 {
		return u, false, nil, nil
	}
	asm := append(l.asm[:0], l.base...)
	if c >= 0 {
		asm = append(asm, sat.Pos(l.cacts+c))
	}
	l.asm = asm
	found, err := l.solve(asm)
	switch {
	case err != nil:
		return u, false, nil, err
	case found:
		return u, false, nil, errors.New("internal error: DPLL and the SAT solver disagree on an allowed pattern")
	}
	core, err := l.failedCore(true)
	if err != nil {
		return u, false, nil, err
	}
	_, l.failLev, sup = l.explainCore(noGuard[P](), nil, core)
	return u, false, sup, nil
}

// failedCore returns the failed assumptions of the query that just failed;
// in the region loop, and where the caller keeps the refutation (keep),
// shrunk by shrinkCore, since short clauses cut the loop's rounds (see
// regionSearch).
func (l *lazy[P]) failedCore(keep bool) ([]sat.Lit, error) {
	core := l.s.Core()
	if l.regs == nil || !keep {
		return core, nil
	}
	return l.shrinkCore(core)
}

// shrinkCore returns a subset of the failing assumptions core on which the
// query still fails and from which no assumption that depends on branch
// depths can be dropped: it drops them one at a time where the query fails
// without them, going on from the solver's core of that query.
func (l *lazy[P]) shrinkCore(core []sat.Lit) ([]sat.Lit, error) {
	core = append([]sat.Lit(nil), core...)
	var try []sat.Lit
	for i := 0; i < len(core); i++ {
		if l.vlev[core[i].Var()].top() == 0 {
			continue
		}
		try = append(append(try[:0], core[:i]...), core[i+1:]...)
		found, err := l.solve(try)
		if err != nil {
			return nil, err
		}
		if !found {
			core = append(core[:0], l.s.Core()...)
			i = -1
		}
	}
	return core, nil
}

// witnessQuery looks for a c-free pattern w allowed on the branch that can
// witness requirement j for a key of a's signature: Y_j holds of w and
// S(a,w) ∪ E_j is satisfiable. If there is none it returns the reason:
// X_j joined with the a-side guards of the pair clauses the refutation
// used, the branch depths it depends on and its sentences.
func (l *lazy[P]) witnessQuery(j int, a *kinfo[P], extra []sat.Lit) (w P, ok bool, reason guard[P], lev lset, sup sset, err error) {
	q := &l.t.n.qs[j]
	asm := append(append(l.asm[:0], l.base...), extra...)
	asm = l.cube(asm, q.y)
	for _, e := range q.e {
		asm = append(asm, l.atom(e))
	}
	for _, i := range a.xs {
		asm = append(asm, sat.Pos(l.acts+2*i))
	}
	a.ym.each(func(i uint64) bool {
		if l.t.n.cs[i].x.c < 0 {
			asm = append(asm, sat.Pos(l.acts+2*int(i)+1))
		}
		return true
	})
	l.asm = asm
	ok, err = l.solve(asm)
	if ok || err != nil {
		return l.pattern(), ok, reason, nil, nil, err
	}
	core, err := l.failedCore(len(extra) == 0) // without extra, the answer may become a nogood
	if err != nil {
		return w, false, reason, nil, nil, err
	}
	reason, lev, sup = l.explainCore(q.x, l.with(nil, q.src), core)
	return w, false, reason, lev, sup, nil
}

// witnessFor is witnessQuery for the r-th requirement of a, remembered
// per signature: a dead answer stays dead while the branch is the same
// (the allowed patterns only shrink), a witness is re-asked when a
// nogood learnt since excludes it.
func (l *lazy[P]) witnessFor(a *kinfo[P], r int) (*witInfo[P], error) {
	si := l.t.sigs[a.sig]
	if si.lazy == nil {
		si.lazy = make([]int32, len(a.reqs))
		for i := range si.lazy {
			si.lazy[i] = -1
		}
	}
	wi := l.slot(si, r)
	if wi.gen == l.gen && (wi.dead || !l.excludedSince(wi.w, wi.ngoods)) {
		return wi, nil
	}
	j := a.reqs[r]
	if w, ok := l.recentWitness(j, a); ok {
		*wi = witInfo[P]{gen: l.gen, ngoods: len(l.goods), w: w}
		return wi, nil
	}
	w, ok, reason, lev, sup, err := l.witnessQuery(j, a, nil)
	if err != nil {
		return nil, err
	}
	*wi = witInfo[P]{gen: l.gen, ngoods: len(l.goods), dead: !ok, w: w, reason: reason, lev: lev, sup: sup}
	if ok {
		l.recent[j] = append(l.recent[j], recentWit[P]{wi.w, len(l.goods)})
	}
	return wi, nil
}

// recentWitness tries the witnesses the queries for requirement j found
// for other keys on this branch: one still allowed that witnesses j for
// a answers the query without solving.
func (l *lazy[P]) recentWitness(j int, a *kinfo[P]) (w P, ok bool) {
	if l.recentGen != l.gen {
		for i := range l.recent {
			l.recent[i] = l.recent[i][:0]
		}
		l.recentGen = l.gen
	}
	// Nogoods only accumulate on a branch: a witness once excluded is
	// dropped, and one still allowed is checked against the newer ones.
	rs := l.recent[j]
	defer func() { l.recent[j] = rs }()
	for i := 0; i < len(rs); {
		r := &rs[i]
		if l.excludedSince(r.w, r.goods) {
			rs = slices.Delete(rs, i, i+1)
			continue
		}
		r.goods = len(l.goods)
		if l.t.pairReq(j, a, l.t.info(key[P]{r.w, -1})) {
			return r.w, true
		}
		i++
	}
	return w, false
}

// slot returns the witInfo of position r of signature si.
func (l *lazy[P]) slot(si *sigInfo[P], r int) *witInfo[P] {
	if si.lazy[r] < 0 {
		si.lazy[r] = int32(len(l.wits))
		l.wits = append(l.wits, witInfo[P]{})
	}
	return &l.wits[si.lazy[r]]
}

// excludedSince reports whether a nogood learnt after the first k
// excludes the c-free pattern u.
func (l *lazy[P]) excludedSince(u P, k int) bool {
	for _, g := range l.goods[k:] {
		if g.g.c < 0 && g.g.applies(key[P]{u, -1}) {
			return true
		}
	}
	return false
}
