package native

import (
	"encoding/binary"
	"slices"
)

// eligible returns the c-free patterns of mono0 that can witness
// requirement j for a. It is computed once per signature and requirement
// of a.reqs (the only ones asked).
func (t *typer[P]) eligible(j int, a *kinfo[P]) bitset {
	si := t.sigs[a.sig]
	r := slices.Index(a.reqs, j)
	if r >= 0 && si.done[r] {
		return si.elig[r]
	}
	var b bitset
	if t.lifted {
		b = t.eligibleLifted(j, a)
	} else {
		b = t.eligibleGround(j, a)
	}
	if r >= 0 {
		si.elig[r], si.done[r] = b, true
	}
	return b
}

// eligibleGround is eligible computed by one 2-SAT call per distinct pair
// problem over the classes of c-free patterns.
func (t *typer[P]) eligibleGround(j int, a *kinfo[P]) bitset {
	q := t.n.qs[j]
	ys := t.containsOf(q.y)
	b := t.newSet()
	seen := map[string]bool{}
	for _, cl := range t.classes {
		if !cl.members.intersects(ys) {
			continue
		}
		// S(a,u) depends on u only through the clauses that can pair
		// with a: those of a's X side that apply on u's Y side, and back.
		t.scratch.rel = relKey(t.scratch.rel[:0], a, cl.rep)
		ok, done := seen[string(t.scratch.rel)]
		if !done {
			ok = t.pairSAT(a, cl.rep, q.e)
			seen[string(t.scratch.rel)] = ok
		}
		if ok {
			for i := range b {
				b[i] |= cl.members[i] & ys[i]
			}
		}
	}
	return b
}

// conflict returns guards X ⊆ a and Y ⊆ b such that S(a',b') is
// unsatisfiable whenever X applies to a' and Y to b', taken from a minimal
// unsatisfiable set of ground clauses (left in t.scratch.conflict); ok is
// false when S(a,b) is satisfiable.
func (t *typer[P]) conflict(a, b *kinfo[P]) (x, y guard[P], ok bool) {
	cl := t.pairClauses(nil, a, b)
	if t.loadPair(cl, nil); t.ts.solve() {
		return x, y, false
	}
	for i := 0; i < len(cl); {
		rest := append(append([]pclause(nil), cl[:i]...), cl[i+1:]...)
		if t.loadPair(rest, nil); !t.ts.solve() {
			cl = rest
		} else {
			i++
		}
	}
	t.scratch.conflict = cl
	x, y = noGuard[P](), noGuard[P]()
	for _, pc := range cl {
		gx, gy := t.n.cs[pc.item].x, t.n.cs[pc.item].y
		if pc.swapped {
			gx, gy = gy, gx
		}
		x, _ = x.join(gx) // consistent: every guard applies to a
		y, _ = y.join(gy)
	}
	return x, y, true
}

// relKey identifies the pair problem S(a,b) as a function of b.
// It is appended to buf.
func relKey[P pat](buf []byte, a, b *kinfo[P]) []byte {
	for i := range a.xm {
		buf = binary.LittleEndian.AppendUint64(buf, a.xm[i]&b.ym[i])
		buf = binary.LittleEndian.AppendUint64(buf, a.ym[i]&b.xm[i])
	}
	return buf
}
