package native

// dpll finds a noun pattern u (bits over the nouns) that lies in none of
// the forbidden regions; ok is false if there is none.
func dpll(forbid []guard) (u uint64, ok bool) {
	var buf []guard
	return dpllIn(forbid, &buf)
}

// dpllIn is dpll with scratch space *buf, kept for the next call.
func dpllIn(forbid []guard, buf *[]guard) (u uint64, ok bool) {
	u, ok, *buf = dpllRec(forbid, 0, 0, (*buf)[:0])
	return u, ok
}

// dpllRec extends the partial assignment (set, val) by unit propagation and
// branching on the first unassigned noun of the first open clause. A
// clause satisfied by (set, val) stays satisfied below, so each level
// passes on only the open clauses, in their order, kept in buf after the
// levels above (which a growing buf leaves where they were); the search,
// and so the pattern found, is the one over the whole list.
func dpllRec(forbid []guard, set, val uint64, buf []guard) (uint64, bool, []guard) {
	for {
		unit := false
		for _, g := range forbid {
			if set&g.mask&(val^g.val) != 0 {
				continue // some literal of the clause is true
			}
			free := g.mask &^ set
			switch {
			case free == 0:
				return 0, false, buf
			case free&(free-1) == 0:
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
		return val, true, buf[:start]
	}
	g := open[0]
	free := g.mask &^ set
	b := free & -free
	u, ok, buf := dpllRec(open, set|b, val|(b&^g.val), buf)
	if ok {
		return u, true, buf[:start]
	}
	u, ok, buf = dpllRec(open, set|b, val|(b&g.val), buf)
	return u, ok, buf[:start]
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
