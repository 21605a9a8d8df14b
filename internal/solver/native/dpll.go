package native

import "math/bits"

// dpll finds a noun pattern u (bits over the nouns) that lies in none of
// the forbidden regions; ok is false if there is none.
func dpll(forbid []guard) (u uint64, ok bool) {
	var d dpllState
	return d.solve(forbid)
}

// dpllState is dpll's scratch space, kept for the next call.
type dpllState struct {
	forbid []guard
	occ    []int32 // the clauses of noun i are occ[start[i]:start[i+1]]
	start  [65]int32
	dep    [64]uint64 // per assigned noun, the branching nouns implying it
	queue  [64]int8   // the nouns assigned at each level, level after level
}

// solve is dpll. It branches on the first unassigned noun of the first
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
func (d *dpllState) solve(forbid []guard) (u uint64, ok bool) {
	d.forbid = forbid
	d.index()
	var set, val uint64
	n := 0
	for _, g := range forbid {
		if set&g.mask&(val^g.val) != 0 {
			continue
		}
		free := g.mask &^ set
		switch {
		case free == 0:
			return 0, false
		case free&(free-1) == 0:
			i := bits.TrailingZeros64(free)
			d.dep[i] = d.deps(g.mask & set)
			set |= free
			val |= free &^ g.val
			d.queue[n] = int8(i)
			n++
		}
	}
	u, ok, _ = d.rec(set, val, 0, 0, n)
	return u, ok
}

// index builds the occurrence lists of d.forbid.
func (d *dpllState) index() {
	clear(d.start[:])
	for _, g := range d.forbid {
		for m := g.mask; m != 0; m &= m - 1 {
			d.start[bits.TrailingZeros64(m)+1]++
		}
	}
	for i := 1; i <= 64; i++ {
		d.start[i] += d.start[i-1]
	}
	if n := int(d.start[64]); cap(d.occ) < n {
		d.occ = make([]int32, n)
	} else {
		d.occ = d.occ[:n]
	}
	var fill [64]int32
	for ci, g := range d.forbid {
		for m := g.mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			d.occ[d.start[i]+fill[i]] = int32(ci)
			fill[i]++
		}
	}
}

// deps returns the union of dep over the nouns of m.
func (d *dpllState) deps(m uint64) uint64 {
	var r uint64
	for ; m != 0; m &= m - 1 {
		r |= d.dep[bits.TrailingZeros64(m)]
	}
	return r
}

// rec propagates the nouns queue[q:n], just assigned, then looks for the
// first open clause from first and branches on it. It returns the pattern,
// or the branching nouns of a refutation.
func (d *dpllState) rec(set, val uint64, first, q, n int) (uint64, bool, uint64) {
	for ; q < n; q++ {
		i := d.queue[q]
		for _, ci := range d.occ[d.start[i]:d.start[i+1]] {
			g := d.forbid[ci]
			if set&g.mask&(val^g.val) != 0 {
				continue // some literal of the clause is true
			}
			free := g.mask &^ set
			switch {
			case free == 0:
				return 0, false, d.deps(g.mask)
			case free&(free-1) == 0:
				j := bits.TrailingZeros64(free)
				d.dep[j] = d.deps(g.mask & set)
				set |= free
				val |= free &^ g.val // the literal that avoids the region
				d.queue[n] = int8(j)
				n++
			}
		}
	}
	for first < len(d.forbid) && set&d.forbid[first].mask&(val^d.forbid[first].val) != 0 {
		first++
	}
	if first == len(d.forbid) {
		return val, true, 0
	}
	g := d.forbid[first]
	free := g.mask &^ set
	b := free & -free
	i := bits.TrailingZeros64(b)
	d.dep[i], d.queue[n] = b, int8(i)
	u, ok, cs1 := d.rec(set|b, val|(b&^g.val), first, n, n+1)
	if ok || cs1&b == 0 {
		return u, ok, cs1
	}
	d.dep[i], d.queue[n] = b, int8(i)
	u, ok, cs2 := d.rec(set|b, val|(b&g.val), first, n, n+1)
	if ok || cs2&b == 0 {
		return u, ok, cs2
	}
	return 0, false, (cs1 | cs2) &^ b
}

// monoFor appends to out the forbidden regions that bind keys with fresh
// predicate c (-1 for c-free keys), with the c dropped.
func monoFor(n *normal, c int, out []guard) []guard {
	for _, g := range n.mono {
		if g.c < 0 || g.c == c {
			out = append(out, guard{mask: g.mask, val: g.val, c: -1})
		}
	}
	return out
}
