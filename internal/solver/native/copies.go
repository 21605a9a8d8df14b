package native

// threeCopies is the model of Theorem 1's proof: elements T × {1..J} ×
// {0,1,2}, where element (t,l,i) takes (w, h, i+1 mod 3) as its witness for
// its h-th externally witnessed requirement. No pair gets two demands, so
// every pair problem is satisfiable by (T2) and the witness choices.
func (t *typer[P]) threeCopies(ts *typeSet[P]) (*model[P], error) {
	j := 1
	for _, w := range ts.wit {
		j = max(j, len(w))
	}
	if err := t.modelFits(3 * j * len(ts.members)); err != nil {
		return nil, err
	}
	mb := &modelBuilder[P]{t: t, ts: ts, demand: map[[2]int][]blit{}}
	id := func(ti, l, i int) int { return (ti*j+l)*3 + i }
	for ti := range ts.members {
		for l := 0; l < j; l++ {
			mb.typeOf = append(mb.typeOf, ti, ti, ti)
		}
	}
	for ti, m := range ts.members {
		h := 0
		for r, req := range m.reqs {
			w := ts.wit[ti][r]
			if w < 0 {
				continue
			}
			for l := 0; l < j; l++ {
				for i := 0; i < 3; i++ {
					mb.addDemand(id(ti, l, i), id(w, h, (i+1)%3), t.n.qs[req].e)
				}
			}
			h++
		}
	}
	return mb.fill()
}
