package native

import "fmt"

// model is a finite structure over the normal form's nouns and verbs.
type model[P pat] struct {
	unary []P        // per element, its noun pattern
	rel   [][][]bool // rel[verb][a][b]
}

// modelBuilder is the compact builder of the design's section 6.
type modelBuilder[P pat] struct {
	t      *typer[P]
	ts     *typeSet[P]
	typeOf []int             // per element, its member of T
	demand map[[2]int][]blit // per pair a < b, units read at x:=a, y:=b
	limit  int
}

// buildModel turns a type set into a model: one element per member, then
// witnesses reused where the pair's 2-SAT allows and cloned otherwise.
func (t *typer[P]) buildModel(ts *typeSet[P]) (*model[P], error) {
	j := 1
	for _, w := range ts.wit {
		j = max(j, len(w))
	}
	mb := &modelBuilder[P]{t: t, ts: ts, demand: map[[2]int][]blit{}, limit: 3*len(ts.members)*j + len(ts.members)}
	for i := range ts.members {
		mb.typeOf = append(mb.typeOf, i)
	}
	for e := 0; e < len(mb.typeOf); e++ {
		if err := mb.witnesses(e); err != nil {
			return nil, err
		}
	}
	return mb.fill()
}

// witnesses gives element e a partner for each externally witnessed
// requirement of its type.
func (mb *modelBuilder[P]) witnesses(e int) error {
	ti := mb.typeOf[e]
	for r, j := range mb.ts.members[ti].reqs {
		w := mb.ts.wit[ti][r]
		if w < 0 {
			continue
		}
		if mb.reuse(e, w, j) {
			continue
		}
		if len(mb.typeOf) >= mb.limit {
			return fmt.Errorf("model builder exceeded %d elements", mb.limit)
		}
		if err := mb.t.modelFits(len(mb.typeOf) + 1); err != nil {
			return err
		}
		f := len(mb.typeOf)
		mb.typeOf = append(mb.typeOf, w)
		mb.addDemand(e, f, mb.t.n.qs[j].e)
	}
	return nil
}

// reuse tries existing elements of type w as e's witness for j.
func (mb *modelBuilder[P]) reuse(e, w, j int) bool {
	for f, tf := range mb.typeOf {
		if tf != w || f == e {
			continue
		}
		lo, hi, units := mb.oriented(e, f, mb.t.n.qs[j].e)
		units = append(units, mb.demand[[2]int{lo, hi}]...)
		a, b := mb.ts.members[mb.typeOf[lo]], mb.ts.members[mb.typeOf[hi]]
		if mb.t.pairSAT(a, b, units) {
			mb.addDemand(e, f, mb.t.n.qs[j].e)
			return true
		}
	}
	return false
}

// oriented returns the pair (e,f) as lo < hi and the literals lits, read at
// x:=e, y:=f, re-read at x:=lo, y:=hi.
func (mb *modelBuilder[P]) oriented(e, f int, lits []blit) (lo, hi int, out []blit) {
	out = make([]blit, len(lits))
	for i, l := range lits {
		if e > f {
			l = l.swap()
		}
		out[i] = l
	}
	if e > f {
		return f, e, out
	}
	return e, f, out
}

func (mb *modelBuilder[P]) addDemand(e, f int, lits []blit) {
	lo, hi, units := mb.oriented(e, f, lits)
	k := [2]int{lo, hi}
	mb.demand[k] = append(mb.demand[k], units...)
}

// modelFits returns a memory error if a model of n elements would exceed
// the budget.
func (t *typer[P]) modelFits(n int) error {
	if need := modelBytes(n, t.nverbs); t.budget > 0 && need > t.budget {
		return memoryError("a model of "+fmt.Sprint(n)+" elements", need, t.budget)
	}
	return nil
}

// fill sets every atom: reflexive atoms from ρ, same-type pairs without
// demands by the diagonal copy, other pairs by a 2-SAT solution.
func (mb *modelBuilder[P]) fill() (*model[P], error) {
	n, t := len(mb.typeOf), mb.t
	m := &model[P]{unary: make([]P, n), rel: make([][][]bool, t.nverbs)}
	rows, cells := make([][]bool, t.nverbs*n), make([]bool, t.nverbs*n*n)
	for v := range m.rel {
		m.rel[v], rows = rows[:n:n], rows[n:]
		for a := range m.rel[v] {
			m.rel[v][a], cells = cells[:n:n], cells[n:]
		}
	}
	for a, ta := range mb.typeOf {
		m.unary[a] = mb.ts.members[ta].k.u
		for v := range m.rel {
			m.rel[v][a][a] = mb.ts.rho[ta][v]
		}
		for b := a + 1; b < n; b++ {
			if err := mb.fillPair(m, a, b); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

func (mb *modelBuilder[P]) fillPair(m *model[P], a, b int) error {
	ta, tb := mb.typeOf[a], mb.typeOf[b]
	units, demanded := mb.demand[[2]int{a, b}]
	if ta == tb && !demanded {
		for v := range m.rel {
			m.rel[v][a][b] = mb.ts.rho[ta][v]
			m.rel[v][b][a] = mb.ts.rho[ta][v]
		}
		return nil
	}
	if !mb.t.pairSAT(mb.ts.members[ta], mb.ts.members[tb], units) {
		return fmt.Errorf("internal error: pair problem of elements %d, %d is unsatisfiable", a, b)
	}
	for v := range m.rel {
		m.rel[v][a][b] = mb.t.ts.value(2 * v)
		m.rel[v][b][a] = mb.t.ts.value(2*v + 1)
	}
	return nil
}
