package native

// build is BUILD of the design: a greedy witness closure from, per fresh
// predicate, the first viable key compatible with the members so far (or
// the first viable key). It returns the type set, or the guards of a
// conflict between two of its members; ok is false when some fresh
// predicate has no viable key, keys satisfying a guard of f excluded.
func (t *typer[P]) build(f []guard[P], g bitset) (ts *typeSet[P], x, y guard[P], ok bool) {
	b := &builder[P]{t: t, ts: &typeSet[P]{}}
	memo := t.scratch.memo[:0] // viability by signature, for this g
	defer func() { t.scratch.memo = memo[:0] }()
	// Once the context ends the result is discarded (search checks it), so
	// the loops below only need to stop.
	for c := range t.monoc {
		if t.ctx.Err() != nil {
			return nil, x, y, false
		}
		pick, ok := b.pick(c, f, g, &memo)
		if !ok {
			return nil, x, y, false
		}
		b.add(pick)
	}
	if len(b.ts.members) == 0 {
		u, _ := g.first(g)
		b.add(t.info(key[P]{pOf[P](u), -1}))
	}
	for i := 0; i < len(b.ts.members); i++ {
		if t.ctx.Err() != nil {
			return nil, x, y, false
		}
		b.witnessIn(i, g)
	}
	ms := b.ts.members
	for i := range ms {
		if t.ctx.Err() != nil {
			return nil, x, y, false
		}
		for j := i + 1; j < len(ms); j++ {
			if t.compatible(ms[i], ms[j]) {
				continue
			}
			if x, y, bad := t.conflict(ms[i], ms[j]); bad {
				return nil, x, y, true
			}
		}
	}
	return b.ts, x, y, true
}

// pick returns, for fresh predicate c, the first key (u,c) in pattern
// order that avoids f, is viable w.r.t. g and is compatible with every
// member of b; failing that, the first viable key. ok is false when no
// key is viable. memo holds viability per signature for this g.
func (b *builder[P]) pick(c int, f []guard[P], g bitset, memo *[]int8) (pick *kinfo[P], ok bool) {
	t := b.t
	t.monoc[c].each(func(u uint64) bool {
		k := key[P]{pOf[P](u), c}
		if forbidden(f, k) {
			return true
		}
		ki := t.info(k)
		for len(*memo) <= ki.sig {
			*memo = append(*memo, 0)
		}
		m := *memo
		if m[ki.sig] == 0 {
			m[ki.sig] = 2
			if _, v := t.viable(ki, g); v {
				m[ki.sig] = 1
			}
		}
		if m[ki.sig] != 1 {
			return true
		}
		if pick == nil {
			pick = ki
		}
		if b.compatibleAll(ki) {
			pick = ki
			return false
		}
		return true
	})
	return pick, pick != nil
}

// witnessIn is witness with the explicit viability: the requirements of
// member i without a witness in g are dead, and a new witness is a
// c-free member from g.
func (b *builder[P]) witnessIn(i int, g bitset) {
	a := b.ts.members[i]
	need, _ := b.t.viable(a, g) // in the order of a.reqs
	dead := func(r int) bool {
		if len(need) > 0 && need[0] == a.reqs[r] {
			need = need[1:]
			return true
		}
		return false
	}
	fresh := func(_, j int) (*kinfo[P], error) { return b.newWitness(j, a, g), nil }
	b.witness(i, dead, fresh) // fresh does not fail
}

// newWitness picks an eligible c-free pattern of g, preferring one
// compatible with every member (a bounded number are tried).
func (b *builder[P]) newWitness(j int, a *kinfo[P], g bitset) *kinfo[P] {
	elig := b.t.eligible(j, a)
	var first *kinfo[P]
	tries := 0
	g.each(func(u uint64) bool {
		if !elig.has(u) {
			return true
		}
		ki := b.t.info(key[P]{pOf[P](u), -1})
		if first == nil {
			first = ki
		}
		tries++
		if b.compatibleAll(ki) {
			first = ki
			return false
		}
		return tries < 64
	})
	return first
}
