package native

import "math/bits"

// pclause is a ground clause of a pair problem S(a,b): the D of ∀∀-clause
// item, read at x:=a, y:=b (swapped: at x:=b, y:=a).
type pclause struct {
	item    int
	swapped bool
}

// pairClauses appends to out the ground clauses of S(a,b) for distinct
// elements.
func (t *typer[P]) pairClauses(out []pclause, a, b *kinfo[P]) []pclause {
	for _, i := range a.xs {
		if b.ym.has(uint64(i)) {
			out = append(out, pclause{i, false})
		}
	}
	for _, i := range b.xs {
		if a.ym.has(uint64(i)) {
			out = append(out, pclause{i, true})
		}
	}
	return out
}

// loadPair puts the clauses cl plus the unit literals units (read at
// x:=a, y:=b) into the 2-SAT solver, over variables verb*2+orient.
func (t *typer[P]) loadPair(cl []pclause, units []blit) {
	loadPair(&t.ts, 2*t.nverbs, t.cds, cl, units)
}

// loadPair is typer.loadPair, apart from the pattern type: cds holds the
// D of every ∀∀-clause.
func loadPair(ts *twoSAT, vars int, cds [][]blit, cl []pclause, units []blit) {
	ts.reset(vars)
	for _, pc := range cl {
		d := cds[pc.item]
		var lits [2]int
		for i, l := range d {
			if pc.swapped {
				l = l.swap()
			}
			lits[i] = int(l)
		}
		addClause(ts, lits[:len(d)])
	}
	for _, l := range units {
		ts.clause(int(l), int(l))
	}
}

func addClause(ts *twoSAT, lits []int) {
	switch len(lits) {
	case 0:
		ts.addEmpty()
	case 1:
		ts.clause(lits[0], lits[0])
	default:
		ts.clause(lits[0], lits[1])
	}
}

// pairSAT reports whether S(a,b) ∪ units is satisfiable.
func (t *typer[P]) pairSAT(a, b *kinfo[P], units []blit) bool {
	t.scratch.pcs = t.pairClauses(t.scratch.pcs[:0], a, b)
	t.loadPair(t.scratch.pcs, units)
	return t.ts.solve()
}

// witnessOK reports whether an element of b can witness requirement j for
// an element of a (a distinct element, possibly of the same key).
func (t *typer[P]) witnessOK(j int, a, b *kinfo[P]) bool {
	return t.n.qs[j].y.applies(b.k) && t.pairReq(j, a, b)
}

// pairReq reports whether S(a,b) with requirement j's E is satisfiable.
func (t *typer[P]) pairReq(j int, a, b *kinfo[P]) bool {
	if t.tables.ok {
		return t.tables.pairOK(a, b, t.tables.req[j])
	}
	return t.pairSAT(a, b, t.n.qs[j].e)
}

// compatible reports whether S(a,b) is satisfiable.
func (t *typer[P]) compatible(a, b *kinfo[P]) bool {
	if t.tables.ok {
		return t.tables.pairOK(a, b, ^uint64(0))
	}
	return t.pairSAT(a, b, nil)
}

// maxTableAtoms is the most pair atoms (2 per verb) for which pairTables
// answers pair questions: one bit per assignment of the atoms fits a word.
const maxTableAtoms = 6

// pairTables answers the yes-or-no pair questions of problems with at most
// three verbs without 2-SAT: over 2·nverbs ≤ 6 atoms an assignment is a
// number below 64, and a set of assignments one word. Each ground clause
// is the set of assignments that satisfy it, and S(a,b) with units is
// satisfiable exactly when the sets of its clauses and units meet. BUILD
// asks these questions for every pair of members, build after build.
type pairTables[P pat] struct {
	ok  bool
	cl  [][2]uint64 // per ∀∀-clause, its models read at x:=a, y:=b and swapped
	req []uint64    // per requirement, the models of its E
}

// init computes the tables of n, if it has at most three verbs.
func (p *pairTables[P]) init(n *normal[P], nverbs int) {
	p.ok = 2*nverbs <= maxTableAtoms
	p.cl, p.req = p.cl[:0], p.req[:0]
	if !p.ok {
		return
	}
	for i := range n.cs {
		var m [2]uint64
		for _, l := range n.cs[i].d {
			m[0] |= litModels(l)
			m[1] |= litModels(l.swap())
		}
		p.cl = append(p.cl, m)
	}
	for j := range n.qs {
		m := ^uint64(0)
		for _, l := range n.qs[j].e {
			m &= litModels(l)
		}
		p.req = append(p.req, m)
	}
}

// litModels returns the assignments of the pair atoms (bit verb*2+orient
// of the assignment's number) under which l is true.
func litModels(l blit) uint64 {
	var m uint64
	for x := range 1 << maxTableAtoms {
		if (x>>(int(l)>>1))&1 != int(l)&1 {
			m |= 1 << x
		}
	}
	return m
}

// pairOK reports whether S(a,b) has a model among the assignments m.
func (p *pairTables[P]) pairOK(a, b *kinfo[P], m uint64) bool {
	for w := range a.xm {
		for c := a.xm[w] & b.ym[w]; c != 0 && m != 0; c &= c - 1 {
			m &= p.cl[64*w+bits.TrailingZeros64(c)][0]
		}
		for c := b.xm[w] & a.ym[w]; c != 0 && m != 0; c &= c - 1 {
			m &= p.cl[64*w+bits.TrailingZeros64(c)][1]
		}
	}
	return m != 0
}

// reflSAT solves (T1) for key a: every ∀∀-clause whose guards both apply
// to a, read at x = y, plus the reflexive readings of units. It returns
// the reflexive atoms' values per verb, or ok = false.
func (t *typer[P]) reflSAT(a *kinfo[P], units []blit) (rho []bool, ok bool) {
	if !t.reflOK(a, units) {
		return nil, false
	}
	rho = make([]bool, t.nverbs)
	for v := range rho {
		rho[v] = t.ts.value(v)
	}
	return rho, true
}

// reflOK is reflSAT without the model: it reports whether (T1) is
// satisfiable and leaves a model in t.ts.
func (t *typer[P]) reflOK(a *kinfo[P], units []blit) bool {
	t.ts.reset(t.nverbs)
	for _, i := range a.xs {
		if !a.ym.has(uint64(i)) {
			continue
		}
		d := t.n.cs[i].d
		switch {
		case len(d) == 0:
			return false
		case len(d) == 1:
			t.ts.clause(d[0].refl(), d[0].refl())
		case d[0].refl() == d[1].refl()^1:
			// r(x,y) ∨ ¬r(y,x) is a tautology at x = y.
		default:
			t.ts.clause(d[0].refl(), d[1].refl())
		}
	}
	for _, l := range units {
		t.ts.clause(l.refl(), l.refl())
	}
	return t.ts.solve()
}
