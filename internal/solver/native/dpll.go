package native

import (
	"math/bits"
	"unsafe"
)

// dpllState is the scratch space of solve, kept for the next call. One-
// word patterns go to dpll1, the same procedure written for one word,
// with its tables in arrays (the hot loop of the lazy search's picks);
// wider ones use the tables below, one entry per noun a P holds.
type dpllState[P pat] struct {
	one    dpll1
	forbid []guard[P]
	occ    []int32 // the clauses of noun i are occ[start[i]:start[i+1]]
	start  []int32
	fill   []int32
	dep    []P     // per assigned noun, the branching nouns implying it
	queue  []int32 // the nouns assigned at each level, level after level
}

// solve finds a noun pattern u (bits over the nouns) that lies in none
// of the forbidden regions; ok is false if there is none. It branches on the first unassigned noun of the first
// open clause, the value that avoids the clause's region first, and
// returns the first pattern found so. Unit propagation visits only the
// clauses of the nouns just assigned (their occurrence lists), and the
// first open clause is looked for from the parent's, as the clauses before
// it stay satisfied below; the pattern found is the one of the search that
// rescans every clause at every level.
//
// dep[i], for an assigned noun i, is the set of branching nouns whose
// values imply i's (a branching noun's is itself). A failure returns the
// branching nouns its refutation used; when the first value of a
// branching noun fails without using it, the second would fail the same
// way and is not tried (conflict-directed backjumping). That skips only
// subtrees without a pattern, so the pattern found is the same.
func (d *dpllState[P]) solve(forbid []guard[P]) (u P, ok bool) {
	if len(u) == 1 {
		// P is [1]uint64 (or a type of that layout), so forbid is a
		// []guard[p1].
		u[0], ok = d.one.solve(unsafe.Slice((*guard[p1])(unsafe.Pointer(unsafe.SliceData(forbid))), len(forbid)))
		return u, ok
	}
	d.forbid = forbid
	d.index()
	var set, val P
	n := 0
	for _, g := range forbid {
		if pMeets(set, pAnd(g.mask, pXor(val, g.val))) {
			continue
		}
		free := pAndNot(g.mask, set)
		switch {
		case pEmpty(free):
			return u, false
		case pOne(free):
			i := pLowest(free)
			d.dep[i] = d.deps(pAnd(g.mask, set))
			set = pOr(set, free)
			val = pOr(val, pAndNot(free, g.val))
			d.queue[n] = int32(i)
			n++
		}
	}
	u, ok, _ = d.rec(set, val, 0, 0, n)
	return u, ok
}

// index builds the occurrence lists of d.forbid.
func (d *dpllState[P]) index() {
	nb := patBits[P]()
	if len(d.start) != nb+1 {
		d.start, d.fill = make([]int32, nb+1), make([]int32, nb)
		d.dep, d.queue = make([]P, nb), make([]int32, nb)
	}
	clear(d.start)
	for _, g := range d.forbid {
		for w := range len(g.mask) {
			for m := g.mask[w]; m != 0; m &= m - 1 {
				d.start[64*w+bits.TrailingZeros64(m)+1]++
			}
		}
	}
	for i := 1; i <= nb; i++ {
		d.start[i] += d.start[i-1]
	}
	if n := int(d.start[nb]); cap(d.occ) < n {
		d.occ = make([]int32, n)
	} else {
		d.occ = d.occ[:n]
	}
	fill := d.fill
	clear(fill)
	for ci, g := range d.forbid {
		for w := range len(g.mask) {
			for m := g.mask[w]; m != 0; m &= m - 1 {
				i := 64*w + bits.TrailingZeros64(m)
				d.occ[d.start[i]+fill[i]] = int32(ci)
				fill[i]++
			}
		}
	}
}

// deps returns the union of dep over the nouns of m.
func (d *dpllState[P]) deps(m P) P {
	var r P
	for w := range len(m) {
		for x := m[w]; x != 0; x &= x - 1 {
			r = pOr(r, d.dep[64*w+bits.TrailingZeros64(x)])
		}
	}
	return r
}

// rec propagates the nouns queue[q:n], just assigned, then looks for the
// first open clause from first and branches on it. It returns the pattern,
// or the branching nouns of a refutation.
func (d *dpllState[P]) rec(set, val P, first, q, n int) (P, bool, P) {
	var none P
	for ; q < n; q++ {
		i := d.queue[q]
		for _, ci := range d.occ[d.start[i]:d.start[i+1]] {
			g := d.forbid[ci]
			if pMeets(set, pAnd(g.mask, pXor(val, g.val))) {
				continue // some literal of the clause is true
			}
			free := pAndNot(g.mask, set)
			switch {
			case pEmpty(free):
				return none, false, d.deps(g.mask)
			case pOne(free):
				j := pLowest(free)
				d.dep[j] = d.deps(pAnd(g.mask, set))
				set = pOr(set, free)
				val = pOr(val, pAndNot(free, g.val)) // the literal that avoids the region
				d.queue[n] = int32(j)
				n++
			}
		}
	}
	for first < len(d.forbid) && pMeets(set, pAnd(d.forbid[first].mask, pXor(val, d.forbid[first].val))) {
		first++
	}
	if first == len(d.forbid) {
		return val, true, none
	}
	g := d.forbid[first]
	i := pLowest(pAndNot(g.mask, set))
	b := pBit[P](i)
	d.dep[i], d.queue[n] = b, int32(i)
	u, ok, cs1 := d.rec(pOr(set, b), pOr(val, pAndNot(b, g.val)), first, n, n+1)
	if ok || !pHas(cs1, i) {
		return u, ok, cs1
	}
	d.dep[i], d.queue[n] = b, int32(i)
	u, ok, cs2 := d.rec(pOr(set, b), pOr(val, pAnd(b, g.val)), first, n, n+1)
	if ok || !pHas(cs2, i) {
		return u, ok, cs2
	}
	return none, false, pAndNot(pOr(cs1, cs2), b)
}

// dpll1 is the DPLL of one-word patterns (see dpllState.solve), with
// its tables in arrays; its scratch is kept for the next call.
type dpll1 struct {
	forbid []guard[p1]
	watch  [64][]int32 // the clauses that watch noun i
	wa, wb []int8      // per clause of two nouns or more, its two watched nouns
	dep    [64]uint64  // per assigned noun, the branching nouns implying it
	queue  [64]int8    // the nouns assigned at each level, level after level
}

// solve is dpllState.solve for one word. It branches on the first
// unassigned noun of the first open clause, the value that avoids the
// clause's region first, and returns the first pattern found so. Unit
// propagation watches two nouns of each clause and visits a clause only
// when the value of a watched noun puts the pattern on the region's side
// (two watched literals); it reaches the same assignment as visiting every
// clause of each noun assigned. The first open clause is looked for from
// the parent's, as the clauses before it stay satisfied below. So the
// search, and the pattern found, are those of the search that rescans
// every clause at every level. A watch needs no undoing when the search
// backtracks: a watched noun is on the region's side only while a noun
// assigned no later keeps the pattern out of it, or while the clause's
// other watched noun is free.
//
// dep[i], for an assigned noun i, is the set of branching nouns whose
// values imply i's (a branching noun's is itself). A failure returns the
// branching nouns its refutation used; when the first value of a
// branching noun fails without using it, the second would fail the same
// way and is not tried (conflict-directed backjumping). That skips only
// subtrees without a pattern, so the pattern found is the same.
func (d *dpll1) solve(forbid []guard[p1]) (u uint64, ok bool) {
	d.forbid = forbid
	d.index()
	var set, val uint64
	n := 0
	for _, g := range forbid {
		if set&g.mask[0]&(val^g.val[0]) != 0 {
			continue
		}
		free := g.mask[0] &^ set
		switch {
		case free == 0:
			return 0, false
		case free&(free-1) == 0:
			i := bits.TrailingZeros64(free)
			d.dep[i] = d.deps(g.mask[0] & set)
			set |= free
			val |= free &^ g.val[0]
			d.queue[n] = int8(i)
			n++
		}
	}
	u, ok, _ = d.rec(set, val, 0, 0, n)
	return u, ok
}

// index chooses the two watched nouns of every clause of two nouns or
// more: its two lowest.
func (d *dpll1) index() {
	for i := range d.watch {
		d.watch[i] = d.watch[i][:0]
	}
	if cap(d.wa) < len(d.forbid) {
		d.wa, d.wb = make([]int8, len(d.forbid)), make([]int8, len(d.forbid))
	}
	d.wa, d.wb = d.wa[:len(d.forbid)], d.wb[:len(d.forbid)]
	for ci, g := range d.forbid {
		m := g.mask[0]
		if m&(m-1) == 0 {
			continue // one noun or none: decided before the search
		}
		a := bits.TrailingZeros64(m)
		b := bits.TrailingZeros64(m & (m - 1))
		d.wa[ci], d.wb[ci] = int8(a), int8(b)
		d.watch[a] = append(d.watch[a], int32(ci))
		d.watch[b] = append(d.watch[b], int32(ci))
	}
}

// deps returns the union of dep over the nouns of m.
func (d *dpll1) deps(m uint64) uint64 {
	var r uint64
	for ; m != 0; m &= m - 1 {
		r |= d.dep[bits.TrailingZeros64(m)]
	}
	return r
}

// rec propagates the nouns queue[q:n], just assigned, then looks for the
// first open clause from first and branches on it. It returns the pattern,
// or the branching nouns of a refutation.
func (d *dpll1) rec(set, val uint64, first, q, n int) (uint64, bool, uint64) {
	for ; q < n; q++ {
		i := d.queue[q]
		bit := uint64(1) << i
		ws := d.watch[i]
		for k := 0; k < len(ws); {
			ci := ws[k]
			g := &d.forbid[ci]
			mask, gv := g.mask[0], g.val[0]
			if (val^gv)&bit != 0 || set&mask&(val^gv) != 0 {
				k++
				continue // i keeps the pattern out, or another noun does
			}
			other := int(d.wa[ci])
			if other == int(i) {
				other = int(d.wb[ci])
			}
			ob := uint64(1) << other
			if free := mask &^ set &^ ob; free != 0 {
				// Watch a free noun instead of i.
				j := bits.TrailingZeros64(free)
				if int(d.wa[ci]) == int(i) {
					d.wa[ci] = int8(j)
				} else {
					d.wb[ci] = int8(j)
				}
				d.watch[j] = append(d.watch[j], ci)
				ws[k] = ws[len(ws)-1]
				ws = ws[:len(ws)-1]
				d.watch[i] = ws
				continue
			}
			if set&ob != 0 {
				return 0, false, d.deps(mask) // every noun on the region's side
			}
			d.dep[other] = d.deps(mask & set)
			set |= ob
			val |= ob &^ gv // the literal that avoids the region
			d.queue[n] = int8(other)
			n++
			k++
		}
	}
	for first < len(d.forbid) && set&d.forbid[first].mask[0]&(val^d.forbid[first].val[0]) != 0 {
		first++
	}
	if first == len(d.forbid) {
		return val, true, 0
	}
	g := d.forbid[first]
	free := g.mask[0] &^ set
	b := free & -free
	i := bits.TrailingZeros64(b)
	d.dep[i], d.queue[n] = b, int8(i)
	u, ok, cs1 := d.rec(set|b, val|(b&^g.val[0]), first, n, n+1)
	if ok || cs1&b == 0 {
		return u, ok, cs1
	}
	d.dep[i], d.queue[n] = b, int8(i)
	u, ok, cs2 := d.rec(set|b, val|(b&g.val[0]), first, n, n+1)
	if ok || cs2&b == 0 {
		return u, ok, cs2
	}
	return 0, false, (cs1 | cs2) &^ b
}

// monoFor appends to out the forbidden regions that bind keys with fresh
// predicate c (-1 for c-free keys), with the c dropped.
func monoFor[P pat](n *normal[P], c int, out []guard[P]) []guard[P] {
	for _, g := range n.mono {
		if g.c < 0 || g.c == c {
			out = append(out, guard[P]{mask: g.mask, val: g.val, c: -1})
		}
	}
	return out
}
