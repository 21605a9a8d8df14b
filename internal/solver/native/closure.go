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
func (t *typer) closure(limit int) (cl []*lclause, ok bool) {
	var all []*lclause
	add := func(c *lclause) {
		if !t.realisable(c.x) || !t.realisable(c.y) {
			return
		}
		for _, o := range all {
			if o.subsumes(c) {
				return
			}
		}
		all = append(all, c)
	}
	for _, it := range t.n.cs {
		add(&lclause{x: it.x, y: it.y, d: it.d})
		sw := make([]blit, len(it.d))
		for i, l := range it.d {
			sw[i] = l.swap()
		}
		slices.Sort(sw)
		add(&lclause{x: it.y, y: it.x, d: sw})
	}
	for done := 0; done < len(all); done++ {
		if len(all) > limit {
			return nil, false
		}
		k := all[done]
		for _, o := range all[:done] {
			for _, l := range k.d {
				if slices.Contains(o.d, l.neg()) {
					if r, ok := resolve(k, o, l); ok {
						add(r)
					}
				}
			}
		}
	}
	return all, true
}

// resolve resolves a (containing l) with b (containing ¬l); ok is false
// for an inconsistent guard or a tautology.
func resolve(a, b *lclause, l blit) (*lclause, bool) {
	x, ok1 := a.x.join(b.x)
	y, ok2 := a.y.join(b.y)
	if !ok1 || !ok2 {
		return nil, false
	}
	var d []blit
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
			return nil, false
		}
	}
	slices.Sort(d)
	return &lclause{x: x, y: y, d: d}, true
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
	lr := &liftReq{base: t.containsOf(q.y).clone()}
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
