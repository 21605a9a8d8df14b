package native

// typeSet is a set T of Theorem 1 with the choices that certify it.
type typeSet struct {
	members []*kinfo
	rho     [][]bool // reflexive atoms per member, per verb
	wit     [][]int  // per member, per requirement of its reqs (by position): the witnessing member, -1 for itself
}

// builder is BUILD's state: the growing type set.
type builder struct {
	t  *typer
	ts *typeSet
}

// add puts a into T unless it is there, and returns its index.
func (b *builder) add(a *kinfo) int {
	for i, m := range b.ts.members {
		if m.k == a.k {
			return i
		}
	}
	b.ts.members = append(b.ts.members, a)
	return len(b.ts.members) - 1
}

// compatibleAll reports whether S(a, m) is satisfiable for every member m.
func (b *builder) compatibleAll(a *kinfo) bool {
	for _, m := range b.ts.members {
		if m.k != a.k && !b.t.pairSAT(a, m, nil) {
			return false
		}
	}
	return true
}

// build is BUILD of the design: a greedy witness closure from, per fresh
// predicate, the first viable key compatible with the members so far (or
// the first viable key). It returns the type set, or the guards of a
// conflict between two of its members; ok is false when some fresh
// predicate has no viable key, keys satisfying a guard of f excluded.
func (t *typer) build(f []guard, g bitset) (ts *typeSet, x, y guard, ok bool) {
	b := &builder{t: t, ts: &typeSet{}}
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
		b.add(t.info(key{u, -1}))
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
			if x, y, bad := t.conflict(ms[i], ms[j]); bad {
				return nil, x, y, true
			}
		}
	}
	return b.ts, x, y, true
}

// witnessIn is witness with the explicit viability: the requirements of
// member i without a witness in g are dead, and a new witness is a
// c-free member from g.
func (b *builder) witnessIn(i int, g bitset) {
	a := b.ts.members[i]
	need, _ := b.t.viable(a, g) // in the order of a.reqs
	dead := func(r int) bool {
		if len(need) > 0 && need[0] == a.reqs[r] {
			need = need[1:]
			return true
		}
		return false
	}
	fresh := func(_, j int) (*kinfo, error) { return b.newWitness(j, a, g), nil }
	b.witness(i, dead, fresh) // fresh does not fail
}

// witness chooses a witness for every requirement of member i, both
// searches' BUILD alike: i itself for the requirements dead reports
// (nothing else can witness them), else a member of T, else i itself if
// its reflexive atoms allow, else a new member from fresh. It then fixes
// i's reflexive atoms. dead is called once per requirement, by position
// r in a.reqs and in that order, before anything else; fresh is called
// with r and the requirement j, and its error, if any, stops the loop
// and is returned.
func (b *builder) witness(i int, dead func(r int) bool, fresh func(r, j int) (*kinfo, error)) error {
	t := b.t
	a := b.ts.members[i]
	const unset = -2
	wit := make([]int, len(a.reqs))
	var units []blit
	for r, j := range a.reqs {
		wit[r] = unset
		if dead(r) {
			wit[r] = -1
			units = append(units, t.n.qs[j].e...)
		}
	}
	for r, j := range a.reqs {
		if wit[r] != unset {
			continue
		}
		if w, ok := b.memberWitness(j, a); ok {
			wit[r] = w
			continue
		}
		q := &t.n.qs[j]
		if q.y.applies(a.k) && t.reflOK(a, append(units[:len(units):len(units)], q.e...)) {
			units = append(units, q.e...)
			wit[r] = -1
			continue
		}
		k, err := fresh(r, j)
		if err != nil {
			return err
		}
		wit[r] = b.add(k)
	}
	rho, _ := t.reflSAT(a, units) // satisfiable: viable, and self only when sat
	b.ts.rho = append(b.ts.rho, rho)
	b.ts.wit = append(b.ts.wit, wit)
	return nil
}

// memberWitness returns a member of T that can witness j for a.
func (b *builder) memberWitness(j int, a *kinfo) (int, bool) {
	for w, m := range b.ts.members {
		if b.t.witnessOK(j, a, m) {
			return w, true
		}
	}
	return 0, false
}

// newWitness picks an eligible c-free pattern of g, preferring one
// compatible with every member (a bounded number are tried).
func (b *builder) newWitness(j int, a *kinfo, g bitset) *kinfo {
	elig := b.t.eligible(j, a)
	var first *kinfo
	tries := 0
	g.each(func(u uint64) bool {
		if !elig.has(u) {
			return true
		}
		ki := b.t.info(key{u, -1})
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
