package native

// typeSet is a set T of Theorem 1 with the choices that certify it.
type typeSet[P pat] struct {
	members []*kinfo[P]
	rho     [][]bool // reflexive atoms per member, per verb
	wit     [][]int  // per member, per requirement of its reqs (by position): the witnessing member, -1 for itself
}

// builder is BUILD's state: the growing type set.
type builder[P pat] struct {
	t  *typer[P]
	ts *typeSet[P]
}

// add puts a into T unless it is there, and returns its index.
func (b *builder[P]) add(a *kinfo[P]) int {
	for i, m := range b.ts.members {
		if m.k == a.k {
			return i
		}
	}
	b.ts.members = append(b.ts.members, a)
	return len(b.ts.members) - 1
}

// compatibleAll reports whether S(a, m) is satisfiable for every member m.
func (b *builder[P]) compatibleAll(a *kinfo[P]) bool {
	for _, m := range b.ts.members {
		if m.k != a.k && !b.t.compatible(a, m) {
			return false
		}
	}
	return true
}

// incompatible returns a member whose pair problem with a is
// unsatisfiable, or nil; nil too once the context ends (the caller's
// next check of it then stops the search).
func (b *builder[P]) incompatible(a *kinfo[P]) *kinfo[P] {
	for i, m := range b.ts.members {
		if i%64 == 63 && b.t.ctx.Err() != nil {
			return nil
		}
		if m.k != a.k && !b.t.compatible(a, m) {
			return m
		}
	}
	return nil
}

// memberWitness returns a member of T that can witness j for a.
func (b *builder[P]) memberWitness(j int, a *kinfo[P]) (int, bool) {
	for w, m := range b.ts.members {
		if b.t.witnessOK(j, a, m) {
			return w, true
		}
	}
	return 0, false
}

// witness chooses a witness for every requirement of member i, both
// searches' BUILD alike: i itself for the requirements dead reports
// (nothing else can witness them), else a member of T, else i itself if
// its reflexive atoms allow, else a new member from fresh. It then fixes
// i's reflexive atoms. dead is called once per requirement, by position
// r in a.reqs and in that order, before anything else; fresh is called
// with r and the requirement j, and its error, if any, stops the loop
// and is returned.
func (b *builder[P]) witness(i int, dead func(r int) bool, fresh func(r, j int) (*kinfo[P], error)) error {
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
	for len(b.ts.rho) <= i {
		b.ts.rho, b.ts.wit = append(b.ts.rho, nil), append(b.ts.wit, nil)
	}
	b.ts.rho[i], b.ts.wit[i] = rho, wit
	return nil
}
