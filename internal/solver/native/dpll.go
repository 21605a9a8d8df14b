package native

import "math/bits"

// dpllState is the scratch space of solve, kept for the next call. Its
// tables have one entry per noun a P holds.
type dpllState[P pat] struct {
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
