package native

import "math/bits"

// dpll finds a noun pattern u (bits over the nouns) that lies in none of
// the forbidden regions; ok is false if there is none.
func dpll(forbid []guard) (u uint64, ok bool) {
	var buf []guard
	return dpllIn(forbid, &buf)
}

// dpllIn is dpll with scratch space *buf, kept for the next call.
func dpllIn(forbid []guard, buf *[]guard) (u uint64, ok bool) {
	var dep [64]uint64
	u, ok, _, *buf = dpllRec(forbid, 0, 0, &dep, (*buf)[:0])
	return u, ok
}

// dpllRec extends the partial assignment (set, val) by unit propagation and
// branching on the first unassigned noun of the first open clause. A
// clause satisfied by (set, val) stays satisfied below, so each level
// passes on only the open clauses, in their order, kept in buf after the
// levels above (which a growing buf leaves where they were); the search,
// and so the pattern found, is the one over the whole list.
//
// dep[i], for an assigned noun i, is the set of branching nouns whose
// values imply i's (a branching noun's is itself). A failure returns the
// branching nouns its refutation used; when the first value of a
// branching noun fails without using it, the second would fail the same
// way and is not tried (conflict-directed backjumping). That skips only
// subtrees without a pattern, so the pattern found is the same.
func dpllRec(forbid []guard, set, val uint64, dep *[64]uint64, buf []guard) (uint64, bool, uint64, []guard) {
	for {
		unit := false
		for _, g := range forbid {
			if set&g.mask&(val^g.val) != 0 {
				continue // some literal of the clause is true
			}
			free := g.mask &^ set
			switch {
			case free == 0:
				return 0, false, deps(dep, g.mask), buf
			case free&(free-1) == 0:
				dep[bits.TrailingZeros64(free)] = deps(dep, g.mask&set)
				set |= free
				val |= free &^ g.val // the literal that avoids the region
				unit = true
			}
		}
		if !unit {
			break
		}
	}
	start := len(buf)
	for _, g := range forbid {
		if set&g.mask&(val^g.val) == 0 {
			buf = append(buf, g)
		}
	}
	open := buf[start:len(buf):len(buf)]
	if len(open) == 0 {
		return val, true, 0, buf[:start]
	}
	g := open[0]
	free := g.mask &^ set
	b := free & -free
	dep[bits.TrailingZeros64(b)] = b
	u, ok, cs1, buf := dpllRec(open, set|b, val|(b&^g.val), dep, buf)
	if ok {
		return u, true, 0, buf[:start]
	}
	if cs1&b == 0 {
		return 0, false, cs1, buf[:start]
	}
	dep[bits.TrailingZeros64(b)] = b
	u, ok, cs2, buf := dpllRec(open, set|b, val|(b&g.val), dep, buf)
	if ok || cs2&b == 0 {
		return u, ok, cs2, buf[:start]
	}
	return 0, false, (cs1 | cs2) &^ b, buf[:start]
}

// deps returns the union of dep over the nouns of m.
func deps(dep *[64]uint64, m uint64) uint64 {
	var d uint64
	for ; m != 0; m &= m - 1 {
		d |= dep[bits.TrailingZeros64(m)]
	}
	return d
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
