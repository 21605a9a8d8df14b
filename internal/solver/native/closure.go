package native

import (
	"math/bits"
	"slices"
)

// lclause is a lifted ∀∀-clause of the closure CL (design §3): for
// distinct a, b with X(a) and Y(b), ∨D holds at x:=a, y:=b.
type lclause[P pat] struct {
	x, y guard[P]
	d    []blit // sorted, at most two literals
}

// subsumes reports whether c applies whenever o does and is stronger.
func (c *lclause[P]) subsumes(o *lclause[P]) bool {
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
func (t *typer[P]) realisable(g guard[P]) bool {
	allowed := t.mono0
	if g.c >= 0 {
		allowed = t.monoc[g.c]
	}
	// Nouns 0..5 select bits within a word, the others select words. (The
	// explicit search has few nouns: a pattern is its first word.)
	mask, val := g.mask[0], g.val[0]
	low := ^uint64(0)
	for m := mask & 63; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		if val&(1<<i) != 0 {
			low &= nounWords[i]
		} else {
			low &^= nounWords[i]
		}
	}
	hmask, hval := mask>>6, val>>6
	for w, acc := range allowed {
		if uint64(w)&hmask == hval && acc&low != 0 {
			return true
		}
	}
	return false
}

// nounWords[i] is word 0 of the set of patterns with noun i, for i < 6.
var nounWords = [6]uint64{
	0xAAAAAAAAAAAAAAAA, 0xCCCCCCCCCCCCCCCC, 0xF0F0F0F0F0F0F0F0,
	0xFF00FF00FF00FF00, 0xFFFF0000FFFF0000, 0xFFFFFFFF00000000,
}

// closure computes CL, the closure of C ∪ swap(C) under resolution on
// identical binary literals, dropping tautologies, unrealisable guards and
// forward-subsumed clauses. ok is false when CL exceeds limit clauses.
// Clauses are resolved in the order of the plain given-clause loop (each
// new clause against every earlier one, in order); past smallClosure
// clauses, indexes by literal and by literal set find the partners and
// the possible subsumers without scanning the whole of CL.
func (t *typer[P]) closure(limit int) (cl []*lclause[P], ok bool) {
	cs := closer[P]{t: t, byLit: make([][]int32, 4*t.nverbs), nlits: 4 * t.nverbs}
	for _, it := range t.n.cs {
		cs.add(&lclause[P]{x: it.x, y: it.y, d: it.d})
		sw := make([]blit, len(it.d))
		for i, l := range it.d {
			sw[i] = l.swap()
		}
		slices.Sort(sw)
		cs.add(&lclause[P]{x: it.y, y: it.x, d: sw})
	}
	for done := 0; done < len(cs.all); done++ {
		if len(cs.all) > limit || done%256 == 255 && t.ctx.Err() != nil {
			return nil, false // past the cap; or canceled: the search then stops at once
		}
		cs.resolveWithEarlier(done)
	}
	return cs.all, true
}

// smallClosure is the size up to which closure scans CL.
const smallClosure = 64

// closer is closure's state.
type closer[P pat] struct {
	t     *typer[P]
	all   []*lclause[P]
	byLit [][]int32 // per literal, the clauses containing it, in order
	nlits int
	byD   [][]gpair[P] // per literal set (see dslot), its clauses' guards; built past smallClosure
}

// gpair is the guards of a clause of CL, with their noun literals packed
// in one word when there are at most packNouns nouns (lits then decides
// subsumption of noun literals by itself).
type gpair[P pat] struct {
	lits   uint64
	x, y   guard[P]
	xc, yc int32
}

// packNouns bounds the nouns for which gpair packs literals.
const packNouns = 16

func newGpair[P pat](x, y guard[P]) gpair[P] {
	return gpair[P]{lits: packLits(x) | packLits(y)<<32, x: x, y: y, xc: int32(x.c), yc: int32(y.c)}
}

// packLits returns g's noun literals as bits: noun i at bit i when
// positive, at bit 16+i when negative (nouns below packNouns only).
func packLits[P pat](g guard[P]) uint64 {
	return (g.val[0] | (g.mask[0]&^g.val[0])<<16) & 0xffffffff
}

// subsumes reports whether p's guards subsume those of c.
func (p *gpair[P]) subsumes(c *gpair[P], packed bool) bool {
	if packed {
		return p.lits&^c.lits == 0 && (p.xc < 0 || p.xc == c.xc) && (p.yc < 0 || p.yc == c.yc)
	}
	return p.x.subsumes(c.x) && p.y.subsumes(c.y)
}

// dslot is the index in byD of the sorted literal set d (at most two).
func (cs *closer[P]) dslot(d []blit) int {
	switch len(d) {
	case 0:
		return 0
	case 1:
		return 1 + int(d[0])
	}
	return 1 + cs.nlits + int(d[0])*cs.nlits + int(d[1])
}

// accepts reports whether c's guards are realisable and no clause of CL
// subsumes c.
func (cs *closer[P]) accepts(c *lclause[P]) bool {
	return cs.t.realisable(c.x) && cs.t.realisable(c.y) && !cs.subsumed(c)
}

// add appends c to CL if it accepts it.
func (cs *closer[P]) add(c *lclause[P]) {
	if !cs.accepts(c) {
		return
	}
	cs.push(c)
}

// push appends c to CL.
func (cs *closer[P]) push(c *lclause[P]) {
	for _, l := range c.d {
		cs.byLit[l] = append(cs.byLit[l], int32(len(cs.all)))
	}
	cs.all = append(cs.all, c)
	switch {
	case cs.byD != nil:
		cs.index(c)
	case len(cs.all) > smallClosure:
		n := 1 + cs.nlits + cs.nlits*cs.nlits
		cs.byD = slices.Grow(cs.t.scratch.byD[:0], n)[:n]
		for i := range cs.byD {
			cs.byD[i] = cs.byD[i][:0]
		}
		cs.t.scratch.byD = cs.byD
		for _, o := range cs.all {
			cs.index(o)
		}
	}
}

func (cs *closer[P]) index(c *lclause[P]) {
	k := cs.dslot(c.d)
	cs.byD[k] = append(cs.byD[k], newGpair(c.x, c.y))
}

// subsumed reports whether some clause of CL subsumes c: one whose
// literals are a subset of c's.
func (cs *closer[P]) subsumed(c *lclause[P]) bool {
	if cs.byD == nil {
		for _, o := range cs.all {
			if o.subsumes(c) {
				return true
			}
		}
		return false
	}
	// The clauses whose literals are a subset of c's: the empty set, each
	// literal, both. Only their guards remain to compare.
	var slots [4]int
	nk := 1
	for _, l := range c.d {
		slots[nk] = 1 + int(l)
		nk++
	}
	if len(c.d) == 2 {
		slots[nk] = cs.dslot(c.d)
		nk++
	}
	packed := cs.t.nn <= packNouns
	cg := newGpair(c.x, c.y)
	for _, k := range slots[:nk] {
		list := cs.byD[k]
		for i := range list {
			if list[i].subsumes(&cg, packed) {
				return true
			}
		}
	}
	return false
}

// resolveWithEarlier resolves clause i with each earlier clause, in
// order, on each of i's literals, in order.
func (cs *closer[P]) resolveWithEarlier(i int) {
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
func (cs *closer[P]) resolvePair(k, o *lclause[P]) {
	for _, l := range k.d {
		if slices.Contains(o.d, l.neg()) {
			var buf [2]blit
			if r, ok := resolve(k, o, l, &buf); ok && cs.accepts(&r) {
				cs.push(&lclause[P]{x: r.x, y: r.y, d: slices.Clone(r.d)})
			}
		}
	}
}

// resolve resolves a (containing l) with b (containing ¬l); ok is false
// for an inconsistent guard or a tautology. The resolvent's literals are
// stored in buf (every clause has at most two, so resolvents do too).
func resolve[P pat](a, b *lclause[P], l blit, buf *[2]blit) (lclause[P], bool) {
	x, ok1 := a.x.join(b.x)
	y, ok2 := a.y.join(b.y)
	if !ok1 || !ok2 {
		return lclause[P]{}, false
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
			return lclause[P]{}, false
		}
	}
	if len(d) == 2 && d[1] < d[0] {
		d[0], d[1] = d[1], d[0]
	}
	return lclause[P]{x: x, y: y, d: d}, true
}

// eligibleLifted is eligible computed from CL: the c-free patterns of
// mono0 in Y_j that no clause of CL with D ⊆ ¬E_j blocks for a.
func (t *typer[P]) eligibleLifted(j int, a *kinfo[P]) bitset {
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
type liftReq[P pat] struct {
	base bitset
	xs   []guard[P]
	ys   []bitset
}

// liftedReq returns (computing it once) the liftReq of requirement j.
func (t *typer[P]) liftedReq(j int) *liftReq[P] {
	if t.liftQ == nil {
		t.liftQ = make([]*liftReq[P], len(t.n.qs))
	}
	if lr := t.liftQ[j]; lr != nil {
		return lr
	}
	q := t.n.qs[j]
	lr := &liftReq[P]{base: t.cloneSet(t.containsOf(q.y))}
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
