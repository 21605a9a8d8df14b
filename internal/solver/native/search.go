package native

import "errors"

// errGaveUp and errCanceled stop the search without an answer.
var (
	errGaveUp   = errors.New("search node budget exceeded")
	errCanceled = errors.New("canceled")
)

// viable returns the requirements of a that have no witness in G (they
// must be witnessed by a itself), or ok = false when a cannot be in a type
// set whose c-free part is within G.
// The returned slice is scratch space, valid until the next call.
func (t *typer[P]) viable(a *kinfo[P], g bitset) (need []int, ok bool) {
	need, units := t.scratch.need[:0], t.scratch.units[:0]
	defer func() { t.scratch.need, t.scratch.units = need[:0], units[:0] }()
	for _, j := range a.reqs {
		if g.intersects(t.eligible(j, a)) {
			continue
		}
		q := t.n.qs[j]
		if !q.y.applies(a.k) {
			return nil, false
		}
		need = append(need, j)
		units = append(units, q.e...)
	}
	if len(units) > 0 {
		return need, t.reflOK(a, units)
	}
	si := t.sigs[a.sig]
	if si.refl == 0 {
		si.refl = 2
		if t.reflOK(a, nil) {
			si.refl = 1
		}
	}
	return need, si.refl == 1
}

// gfp removes from g, until nothing changes, every pattern that is not
// viable with respect to g.
// Viability depends on a pattern only through its signature, so whole
// classes are tested at once.
func (t *typer[P]) gfp(g bitset) {
	for changed := true; changed && t.ctx.Err() == nil; {
		changed = false
		for _, cl := range t.classes {
			if t.ctx.Err() != nil {
				return // the callers check the context: g is short of the fixpoint
			}
			if !cl.members.intersects(g) {
				continue
			}
			if _, ok := t.viable(cl.rep, g); !ok {
				g.andNot(cl.members)
				changed = true
			}
		}
	}
}

// forbidden reports whether some guard of f applies to k.
func forbidden[P pat](f []guard[P], k key[P]) bool {
	for _, g := range f {
		if g.applies(k) {
			return true
		}
	}
	return false
}

// search is SEARCH of the design: elimination plus clique repair. It
// returns a type set, nil for unsat, or errGaveUp / errCanceled.
func (t *typer[P]) search(f []guard[P], g0 bitset) (*typeSet[P], error) {
	t.nodes++
	if t.nodes > t.maxNodes {
		return nil, errGaveUp
	}
	if err := t.ctx.Err(); err != nil {
		return nil, errCanceled
	}
	g := t.cloneSet(g0)
	g.each(func(u uint64) bool {
		if forbidden(f, key[P]{pOf[P](u), -1}) {
			g.del(u)
		}
		return true
	})
	t.gfp(g)
	if t.ctx.Err() != nil {
		return nil, errCanceled // g may be short of the fixpoint
	}
	if len(t.monoc) == 0 && g.empty() {
		return nil, nil
	}
	ts, x, y, ok := t.build(f, g)
	switch {
	case t.ctx.Err() != nil:
		return nil, errCanceled // build stopped short
	case !ok:
		return nil, nil
	case ts != nil:
		return ts, nil
	}
	branches := []guard[P]{x, y}
	if y.size() > x.size() {
		branches = []guard[P]{y, x}
	}
	if x == y {
		branches = branches[:1]
	}
	for _, z := range branches {
		child := append(append([]guard[P](nil), f...), z)
		r, err := t.search(child, g)
		if r != nil || err != nil {
			return r, err
		}
	}
	return nil, nil
}
