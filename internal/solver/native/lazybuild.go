package native

import (
	"errors"

	"github.com/nlsat/nlsat/internal/sat"
)

// The outcomes of one lazy BUILD.
const (
	lzBuilt    = iota // a type set without conflicts
	lzConflict        // two members conflict: branch on their guards
	lzRestart         // a member was not viable: a nogood was learnt
	lzUnsat           // some existential has no allowed key
)

// maxTries bounds the keys tried, per choice, in search of one compatible
// with every member so far.
const maxTries = 8

// learn adds the nogood g, which depends on the branches at depths lev
// and on the sentences sup.
func (l *lazy) learn(g guard, lev lset, sup sset) {
	act := l.actVars(1)
	l.vsup[act], l.vlev[act] = sup, lev
	l.goods = append(l.goods, nogood{g: g, lvl: lev.top(), lev: lev, act: act, sup: sup})
	l.base = append(l.base, sat.Pos(act))
	l.exclude(g, act)
	l.t.learnt++
}

// viable checks a against the patterns allowed on the branch: it returns
// the witness answer per requirement (the dead ones a must witness
// itself), or ok = false after learning a nogood that excludes a.
func (l *lazy) viable(a *kinfo) (infos []witInfo, ok bool, err error) {
	infos = make([]witInfo, len(a.reqs))
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
func against(g guard, y guard, k key) guard {
	diff := (k.u ^ y.val) & y.mask
	i := 0
	for diff&(1<<i) == 0 {
		i++
	}
	g, _ = g.with(i, k.u&(1<<i) == 0)
	return g
}

// reflNogood returns, for a key a whose reflexive atoms cannot satisfy its
// (T1) clauses with the units of its dead requirements, the guards of a
// minimal unsatisfiable set of those clauses and requirements, the
// branch depths the requirements' deaths depend on, and the sentences.
func (l *lazy) reflNogood(a *kinfo, infos []witInfo) (guard, lset, sset) {
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
	g, sup := noGuard, l.union(nil, nil)
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

// retire switches the clauses of activation variable v off for good.
func (l *lazy) retire(v int) {
	if v >= 0 {
		l.s.AddClause(sat.Neg(v))
	}
}

// preferCompatible returns the first key next yields that is compatible
// with every member, trying at most maxTries; after an incompatible key,
// next is called again with that key's side of the conflict added to the
// guards excl it must avoid (and, with useTmp, excluded in the solver
// under the temporary activation variable tmp). Failing that it returns
// the first key. ok is false when next yields no key at all.
func (l *lazy) preferCompatible(b *builder, useTmp bool, next func(tmp int, excl []guard) (*kinfo, bool, error)) (*kinfo, bool, error) {
	tmp := -1
	defer func() { l.retire(tmp) }()
	var first *kinfo
	var excl []guard
	for try := 0; ; try++ {
		k, ok, err := next(tmp, excl)
		switch {
		case err != nil:
			return nil, false, err
		case !ok:
			return first, first != nil, nil
		}
		if first == nil {
			first = k
		}
		m := b.incompatible(k)
		if m == nil || try+1 >= maxTries {
			if m == nil {
				return k, true, nil
			}
			return first, true, nil
		}
		x, _, _ := l.t.conflict(k, m)
		excl = append(excl, x)
		if useTmp {
			if tmp < 0 {
				tmp = l.actVars(1)
			}
			l.exclude(x, tmp)
		}
	}
}

// forbidFor returns the regions keys with fresh predicate c (-1: c-free)
// must avoid on the branch, their c dropped: M's clauses, the live
// nogoods and the branch's guards, then excl.
func (l *lazy) forbidFor(c int, excl []guard) []guard {
	out := monoFor(l.t.n, c, l.forbid[:0])
	add := func(g guard) {
		if g.c < 0 || g.c == c {
			out = append(out, guard{mask: g.mask, val: g.val, c: -1})
		}
	}
	for _, g := range l.goods {
		add(g.g)
	}
	for _, g := range l.f {
		add(g)
	}
	for _, g := range excl {
		add(g)
	}
	l.forbid = out
	return out
}

// pick finds a noun pattern for a key with fresh predicate c (-1:
// c-free) allowed on the branch and outside excl, by DPLL on the
// forbidden regions; when there is none it asks the solver why, and
// returns the sentences of the refutation.
func (l *lazy) pick(c int, excl []guard) (u uint64, ok bool, sup sset, err error) {
	if u, ok := dpllIn(l.forbidFor(c, excl), &l.dpllBuf); ok {
		return u, true, nil, nil
	}
	if len(excl) > 0 {
		return 0, false, nil, nil
	}
	asm := append(l.asm[:0], l.base...)
	if c >= 0 {
		asm = append(asm, sat.Pos(l.cacts+c))
	}
	l.asm = asm
	found, err := l.solve(asm)
	switch {
	case err != nil:
		return 0, false, nil, err
	case found:
		return 0, false, nil, errors.New("internal error: DPLL and the SAT solver disagree on an allowed pattern")
	}
	_, l.failLev, sup = l.explain(noGuard, nil)
	return 0, false, sup, nil
}

// candidate picks an allowed key with fresh predicate c, preferring one
// compatible with the members so far; ok is false when there is none,
// and sup then holds the sentences of the refutation.
func (l *lazy) candidate(b *builder, c int) (k *kinfo, ok bool, sup sset, err error) {
	k, ok, err = l.preferCompatible(b, false, func(_ int, excl []guard) (*kinfo, bool, error) {
		u, ok, s, err := l.pick(c, excl)
		if !ok || err != nil {
			sup = s
			return nil, false, err
		}
		return l.t.info(key{u, c}), true, nil
	})
	return k, ok, sup, err
}

// anyPattern picks an allowed c-free pattern, for problems without
// existentials; ok is false when there is none, and sup then holds the
// sentences of the refutation.
func (l *lazy) anyPattern() (k *kinfo, ok bool, sup sset, err error) {
	u, ok, sup, err := l.pick(-1, nil)
	if !ok || err != nil {
		return nil, false, sup, err
	}
	return l.t.info(key{u, -1}), true, nil, nil
}

// newWitness picks a witness for requirement j of a: first (the answer of
// its witness query) if it is compatible with every member, else another
// witness that is, if one is found within maxTries.
func (l *lazy) newWitness(b *builder, j int, a *kinfo, first uint64) (*kinfo, error) {
	tries := 0
	k, _, err := l.preferCompatible(b, true, func(tmp int, _ []guard) (*kinfo, bool, error) {
		tries++
		if tries == 1 {
			return l.t.info(key{first, -1}), true, nil
		}
		w, ok, _, _, _, err := l.witnessQuery(j, a, []sat.Lit{sat.Pos(tmp)})
		if !ok || err != nil {
			return nil, false, err
		}
		return l.t.info(key{w, -1}), true, nil
	})
	return k, err
}

// process is witness with the lazy viability: the requirements whose
// witness query failed are dead, and a new witness is the query's answer
// or another found by newWitness. restart is true when the member was not
// viable (a nogood was learnt).
func (l *lazy) process(b *builder, i int) (restart bool, err error) {
	a := b.ts.members[i]
	infos, ok, err := l.viable(a)
	if !ok || err != nil {
		return err == nil, err
	}
	dead := func(r int) bool { return infos[r].dead }
	fresh := func(r, j int) (*kinfo, error) { return l.newWitness(b, j, a, infos[r].w) }
	return false, b.witness(i, dead, fresh)
}

// build is BUILD with the lazy viability: one key per existential, then
// the witness closure, then the conflict check. With lzUnsat, sup and lev
// hold the refutation's sentences and branch depths; with lzConflict, sup
// holds those of the conflict (which depends on no branch).
func (l *lazy) build() (ts *typeSet, x, y guard, st int, sup sset, lev lset, err error) {
	t := l.t
	b := &builder{t: t, ts: &typeSet{}}
	for c := range t.n.csrc {
		if err := t.ctx.Err(); err != nil {
			return nil, x, y, 0, nil, nil, errCanceled
		}
		k, ok, sup, err := l.candidate(b, c)
		if err != nil || !ok {
			return nil, x, y, lzUnsat, l.with(sup, t.n.csrc[c]), l.failLev, err
		}
		b.add(k)
	}
	if len(b.ts.members) == 0 {
		k, ok, sup, err := l.anyPattern()
		if err != nil || !ok {
			return nil, x, y, lzUnsat, sup, l.failLev, err
		}
		b.add(k)
	}
	for i := 0; i < len(b.ts.members); i++ {
		if err := t.ctx.Err(); err != nil {
			return nil, x, y, 0, nil, nil, errCanceled
		}
		if l.overBudget() {
			return nil, x, y, 0, nil, nil, errMemory
		}
		restart, err := l.process(b, i)
		if err != nil || restart {
			return nil, x, y, lzRestart, nil, nil, err
		}
	}
	ms := b.ts.members
	for i := range ms {
		if err := t.ctx.Err(); err != nil {
			return nil, x, y, 0, nil, nil, errCanceled
		}
		for j := i + 1; j < len(ms); j++ {
			if x, y, bad := t.conflict(ms[i], ms[j]); bad {
				sup := l.union(nil, nil)
				for _, pc := range t.scratch.conflict {
					src := t.n.cs[pc.item].src
					sup[src/64] |= 1 << (src % 64)
				}
				return nil, x, y, lzConflict, sup, nil, nil
			}
		}
	}
	return b.ts, x, y, lzBuilt, nil, nil, nil
}

// search is SEARCH with lazy viability: BUILD until it stops learning,
// then branch on a conflict's guards as the explicit search does. An
// unsat answer (nil) comes with the sentences and the branch depths its
// refutation used. A child refuted without its own branch's guard refutes
// this node too, so its sibling is not searched (conflict-directed
// backjumping).
func (l *lazy) search() (*typeSet, sset, lset, error) {
	t := l.t
	t.nodes++
	if t.nodes > t.maxNodes {
		return nil, nil, nil, errGaveUp
	}
	var x, y guard
	var sup sset
	for {
		if err := t.ctx.Err(); err != nil {
			return nil, nil, nil, errCanceled
		}
		if l.overBudget() {
			return nil, nil, nil, errMemory
		}
		ts, gx, gy, st, s, lev, err := l.build()
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
	branches := []guard{x, y}
	if y.size() > x.size() {
		branches = []guard{y, x}
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
func (l *lazy) push(z guard, sup sset) {
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
func (l *lazy) pop() {
	last := len(l.bacts) - 1
	l.retire(l.bacts[last])
	l.bacts, l.f = l.bacts[:last], l.f[:last]
	keep := l.goods[:0]
	for _, g := range l.goods {
		if g.lvl < l.depth {
			keep = append(keep, g)
		} else {
			l.retire(g.act)
		}
	}
	l.goods = keep
	l.depth--
	l.gen++
	l.rebase()
}

// rebase rebuilds the assumptions of every query: the activations of M's
// sentences, of the live nogoods and of the branch.
func (l *lazy) rebase() {
	l.base = l.base[:0]
	for _, v := range l.macts {
		l.base = append(l.base, sat.Pos(v))
	}
	for _, g := range l.goods {
		l.base = append(l.base, sat.Pos(g.act))
	}
	for _, v := range l.bacts {
		l.base = append(l.base, sat.Pos(v))
	}
}
