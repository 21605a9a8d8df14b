package native

import (
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// toStructure converts m to a structure over the problem's signature and
// checks it against the original formulas.
func toStructure[P pat](p *solver.Problem, n *normal[P], m *model[P]) (*fol.Structure, error) {
	st := newStructure(n, m)
	for i, name := range n.nouns {
		ext := st.Unary[name]
		for a, u := range m.unary {
			ext[a] = pHas(u, i)
		}
	}
	if err := solver.CheckModel(p, st); err != nil {
		return nil, fmt.Errorf("native model fails its check: %w", err)
	}
	return st, nil
}

// newStructure is fol.NewStructure over n's signature with m's relations
// in place; the other tables are empty and carved from two allocations.
func newStructure[P pat](n *normal[P], m *model[P]) *fol.Structure {
	size := len(m.unary)
	rel := func(name string, v int) [][]bool {
		if v < 0 {
			v = slices.Index(n.verbs, name)
		}
		if v >= 0 && v < len(m.rel) {
			return m.rel[v]
		}
		return nil
	}
	var nu, nb, cells int
	n.arities(func(name string, k, v int) {
		switch {
		case k == 1:
			nu++
			cells += size
		case k == 2:
			nb++
			if rel(name, v) == nil {
				cells += size * size
			}
		}
	})
	st := &fol.Structure{Size: size, Unary: make(map[string][]bool, nu), Binary: make(map[string][][]bool, nb)}
	buf := make([]bool, cells)
	take := func() []bool {
		s := buf[:size:size]
		buf = buf[size:]
		return s
	}
	n.arities(func(name string, k, v int) {
		switch {
		case k == 1:
			st.Unary[name] = take()
		case k == 2:
			t := rel(name, v)
			if t == nil {
				t = make([][]bool, size)
				for a := range t {
					t[a] = take()
				}
			}
			st.Binary[name] = t
		}
	})
	return st
}
