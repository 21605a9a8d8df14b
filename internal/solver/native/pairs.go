package native

// pclause is a ground clause of a pair problem S(a,b): the D of ∀∀-clause
// item, read at x:=a, y:=b (swapped: at x:=b, y:=a).
type pclause struct {
	item    int
	swapped bool
}

// pairClauses appends to out the ground clauses of S(a,b) for distinct
// elements.
func (t *typer) pairClauses(out []pclause, a, b *kinfo) []pclause {
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
func (t *typer) loadPair(cl []pclause, units []blit) {
	t.ts.reset(2 * t.nverbs)
	for _, pc := range cl {
		d := t.n.cs[pc.item].d
		var lits [2]int
		for i, l := range d {
			if pc.swapped {
				l = l.swap()
			}
			lits[i] = int(l)
		}
		t.addClause(lits[:len(d)])
	}
	for _, l := range units {
		t.ts.clause(int(l), int(l))
	}
}

func (t *typer) addClause(lits []int) {
	switch len(lits) {
	case 0:
		t.ts.addEmpty()
	case 1:
		t.ts.clause(lits[0], lits[0])
	default:
		t.ts.clause(lits[0], lits[1])
	}
}

// pairSAT reports whether S(a,b) ∪ units is satisfiable.
func (t *typer) pairSAT(a, b *kinfo, units []blit) bool {
	t.scratch.pcs = t.pairClauses(t.scratch.pcs[:0], a, b)
	t.loadPair(t.scratch.pcs, units)
	return t.ts.solve()
}

// witnessOK reports whether an element of b can witness requirement j for
// an element of a (a distinct element, possibly of the same key).
func (t *typer) witnessOK(j int, a, b *kinfo) bool {
	q := t.n.qs[j]
	return q.y.applies(b.k) && t.pairSAT(a, b, q.e)
}

// reflSAT solves (T1) for key a: every ∀∀-clause whose guards both apply
// to a, read at x = y, plus the reflexive readings of units. It returns
// the reflexive atoms' values per verb, or ok = false.
func (t *typer) reflSAT(a *kinfo, units []blit) (rho []bool, ok bool) {
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
func (t *typer) reflOK(a *kinfo, units []blit) bool {
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
