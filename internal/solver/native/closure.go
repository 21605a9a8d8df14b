package native

import "slices"

// lclause is a lifted ∀∀-clause of the closure CL (design §3): for
// distinct a, b with X(a) and Y(b), ∨D holds at x:=a, y:=b.
type lclause struct {
	x, y guard
	d    []blit // sorted, at most two literals
}

// subsumes reports whether c applies whenever o does and is stronger.
func (c *lclause) subsumes(o *lclause) bool {
	if !c.x.subsumes(o.x) || !c.y.subsumes(o.y) {
		return false
	}
	for _, l := range c.d {
		if !slices.Contains(o.d, l) {
			return false
		}
	}
	return true
}

// realisable reports whether some key allowed by M satisfies g.
func (t *typer) realisable(g guard) bool {
	allowed := t.mono0
	if g.c >= 0 {
		allowed = t.monoc[g.c]
	}
	return t.containsOf(g).intersects(allowed)
}

// closure computes CL, the closure of C ∪ swap(C) under resolution on
// identical binary literals, dropping tautologies, unrealisable guards and
// forward-subsumed clauses. ok is false when CL exceeds limit clauses.
// Clauses are resolved in the order of the plain given-clause loop (each
// new clause against every earlier one, in order); past smallClosure
// clauses, indexes by literal and by literal set find the partners and
// the possible subsumers without scanning the whole of CL.
func (t *typer) closure(limit int) (cl []*lclause, ok bool) {
	cs := closer{t: t, byLit: make([][]int32, 4*t.nverbs)}
	for _, it := range t.n.cs {
		cs.add(&lclause{x: it.x, y: it.y, d: it.d})
		sw := make([]blit, len(it.d))
		for i, l := range it.d {
			sw[i] = l.swap()
		}
		slices.Sort(sw)
		cs.add(&lclause{x: it.y, y: it.x, d: sw})
	}
	for done := 0; done < len(cs.all); done++ {
		if len(cs.all) > limit {
			return nil, false
		}
		cs.resolveWithEarlier(done)
	}
	return cs.all, true
}

// smallClosure is the size up to which closure scans CL.
const smallClosure = 64

// closer is closure's state.
type closer struct {
	t     *typer
	all   []*lclause
	byLit [][]int32              // per literal, the clauses containing it, in order
	byD   map[[2]blit][]*lclause // per literal set (padded with -1), its clauses; built past smallClosure
}

// accepts reports whether c's guards are realisable and no clause of CL
// subsumes c.
func (cs *closer) accepts(c *lclause) bool {
	return cs.t.realisable(c.x) && cs.t.realisable(c.y) && !cs.subsumed(c)
}

// add appends c to CL if it accepts it.
func (cs *closer) add(c *lclause) {
	if !cs.accepts(c) {
		return
	}
	cs.push(c)
}

// push appends c to CL.
func (cs *closer) push(c *lclause) {
	for _, l := range c.d {
		cs.byLit[l] = append(cs.byLit[l], int32(len(cs.all)))
	}
	cs.all = append(cs.all, c)
	switch {
	case cs.byD != nil:
		cs.index(c)
	case len(cs.all) > smallClosure:
		cs.byD = map[[2]blit][]*lclause{}
		for _, o := range cs.all {
			cs.index(o)
		}
	}
}

func (cs *closer) index(c *lclause) {
	k := dkey(c.d)
	cs.byD[k] = append(cs.byD[k], c)
}

// dkey is the map key of a sorted literal set of at most two literals.
func dkey(d []blit) [2]blit {
	k := [2]blit{-1, -1}
	copy(k[:], d)
	return k
}

// subsumed reports whether some clause of CL subsumes c: one whose
// literals are a subset of c's.
func (cs *closer) subsumed(c *lclause) bool {
	if cs.byD == nil {
		for _, o := range cs.all {
			if o.subsumes(c) {
				return true
			}
		}
		return false
	}
	keys := [4][2]blit{{-1, -1}}
	nk := 1
	for _, l := range c.d {
		keys[nk] = [2]blit{l, -1}
		nk++
	}
	if len(c.d) == 2 {
		keys[nk] = [2]blit{c.d[0], c.d[1]}
		nk++
	}
	for _, k := range keys[:nk] {
		for _, o := range cs.byD[k] {
			if o.subsumes(c) {
				return true
			}
		}
	}
	return false
}

// resolveWithEarlier resolves clause i with each earlier clause, in
// order, on each of i's literals, in order.
func (cs *closer) resolveWithEarlier(i int) {
	k := cs.all[i]
	if i <= smallClosure {
		for _, o := range cs.all[:i] {
			cs.resolvePair(k, o)
		}
		return
	}
	// The earlier clauses containing the negation of one of k's (at most
	// two) literals, merged in order.
	var lists [2][]int32
	for j, l := range k.d {
		lists[j] = cs.byLit[l.neg()]
	}
	a, b := lists[0], lists[1]
	for {
		next := int32(i)
		if len(a) > 0 {
			next = a[0]
		}
		if len(b) > 0 && b[0] < next {
			next = b[0]
		}
		if next >= int32(i) {
			return
		}
		cs.resolvePair(k, cs.all[next])
		if len(a) > 0 && a[0] == next {
			a = a[1:]
		}
		if len(b) > 0 && b[0] == next {
			b = b[1:]
		}
	}
}

// resolvePair adds the resolvents of k with o on each literal of k.
func (cs *closer) resolvePair(k, o *lclause) {
	for _, l := range k.d {
		if slices.Contains(o.d, l.neg()) {
			var buf [2]blit
			if r, ok := resolve(k, o, l, &buf); ok && cs.accepts(&r) {
				cs.push(&lclause{x: r.x, y: r.y, d: slices.Clone(r.d)})
			}
		}
	}
}

// resolve resolves a (containing l) with b (containing ¬l); ok is false
// for an inconsistent guard or a tautology. The resolvent's literals are
// stored in buf (every clause has at most two, so resolvents do too).
func resolve(a, b *lclause, l blit, buf *[2]blit) (lclause, bool) {
	x, ok1 := a.x.join(b.x)
	y, ok2 := a.y.join(b.y)
	if !ok1 || !ok2 {
		return lclause{}, false
	}
	d := buf[:0]
	for _, m := range a.d {
		if m != l {
			d = append(d, m)
		}
	}
	for _, m := range b.d {
		if m != l.neg() && !slices.Contains(d, m) {
			d = append(d, m)
		}
	}
	for _, m := range d {
		if slices.Contains(d, m.neg()) {
			return lclause{}, false
		}
	}
	if len(d) == 2 && d[1] < d[0] {
		d[0], d[1] = d[1], d[0]
	}
	return lclause{x: x, y: y, d: d}, true
}

// eligibleLifted is eligible computed from CL: the c-free patterns of
// mono0 in Y_j that no clause of CL with D ⊆ ¬E_j blocks for a.
func (t *typer) eligibleLifted(j int, a *kinfo) bitset {
	lr := t.liftedReq(j)
	b := bitset(t.arenas.words.take(len(lr.base)))
	copy(b, lr.base)
	for i, x := range lr.xs {
		if x.applies(a.k) {
			b.andNot(lr.ys[i])
		}
	}
	return b
}

// liftReq is what eligibleLifted needs of requirement j, independent of
// the key: the c-free patterns of mono0 in Y_j, and the clauses of CL with
// a c-free Y guard and D ⊆ ¬E_j, as their X guards and Y pattern sets.
type liftReq struct {
	base bitset
	xs   []guard
	ys   []bitset
}

// liftedReq returns (computing it once) the liftReq of requirement j.
func (t *typer) liftedReq(j int) *liftReq {
	if t.liftQ == nil {
		t.liftQ = make([]*liftReq, len(t.n.qs))
	}
	if lr := t.liftQ[j]; lr != nil {
		return lr
	}
	q := t.n.qs[j]
	lr := &liftReq{base: t.cloneSet(t.containsOf(q.y))}
	for i := range lr.base {
		lr.base[i] &= t.mono0[i]
	}
	for _, c := range t.cl {
		if c.y.c >= 0 || !negatedIn(c.d, q.e) {
			continue
		}
		lr.xs = append(lr.xs, c.x)
		lr.ys = append(lr.ys, t.containsOf(c.y))
	}
	t.liftQ[j] = lr
	return lr
}

// negatedIn reports whether every literal of d is the negation of one of e.
func negatedIn(d, e []blit) bool {
	for _, l := range d {
		if !slices.Contains(e, l.neg()) {
			return false
		}
	}
	return true
}
