package native

import (
	"fmt"

	"github.com/nlsat/nlsat/internal/fol"
)

// nnode is a formula in negation normal form: a literal, a conjunction, a
// disjunction, or a quantifier over a body in negation normal form.
type nnode struct {
	kind nkind
	atom *fol.Atom // kind lit
	neg  bool      // kind lit
	kids []*nnode  // kind and, or
	v    fol.Var   // kind all, ex
	body *nnode    // kind all, ex
}

type nkind int8

const (
	nLit nkind = iota
	nAnd
	nOr
	nAll
	nEx
)

// nodeSlab allocates nnodes and the clause lists of cnf in bulk for one
// normalisation, reusing the memory of the previous one (flatCNF writes
// every element it takes, so it takes them without zeroing).
type nodeSlab struct {
	nodes   []nnode
	lits    arena[*nnode]
	clauses arena[[]*nnode]
}

// reset makes the slab's current chunk reusable; the nodes handed out
// before must no longer be used.
func (a *nodeSlab) reset() {
	a.nodes = a.nodes[:0]
	a.lits.reset()
	a.clauses.reset()
}

func (a *nodeSlab) node(n nnode) *nnode {
	if len(a.nodes) == cap(a.nodes) {
		a.nodes = make([]nnode, 0, min(max(16, 2*cap(a.nodes)), 256))
	}
	a.nodes = append(a.nodes, n)
	return &a.nodes[len(a.nodes)-1]
}

// toNNF pushes negations in f down to the atoms; pos is false when f is
// under an odd number of negations.
func (a *nodeSlab) toNNF(f fol.Formula, pos bool) (*nnode, error) {
	switch g := f.(type) {
	case *fol.Atom:
		return a.node(nnode{kind: nLit, atom: g, neg: !pos}), nil
	case *fol.Not:
		return a.toNNF(g.F, !pos)
	case *fol.And:
		return a.naryNNF(g.Fs, pos, pos)
	case *fol.Or:
		return a.naryNNF(g.Fs, !pos, pos)
	case *fol.Implies:
		return a.impliesNNF(g, pos)
	case *fol.Forall:
		return a.quantNNF(g.V, g.Body, pos, pos)
	case *fol.Exists:
		return a.quantNNF(g.V, g.Body, !pos, pos)
	}
	return nil, fmt.Errorf("unknown formula node %T", f)
}

// naryNNF builds a conjunction (and) or disjunction of fs under polarity pos.
func (a *nodeSlab) naryNNF(fs []fol.Formula, and, pos bool) (*nnode, error) {
	n := a.node(nnode{kind: nOr, kids: make([]*nnode, 0, len(fs))})
	if and {
		n.kind = nAnd
	}
	for _, f := range fs {
		k, err := a.toNNF(f, pos)
		if err != nil {
			return nil, err
		}
		if k.kind == n.kind {
			n.kids = append(n.kids, k.kids...)
		} else {
			n.kids = append(n.kids, k)
		}
	}
	return n, nil
}

// impliesNNF is naryNNF of ¬L, R as a disjunction (a conjunction under
// negation), without building ¬L.
func (a *nodeSlab) impliesNNF(g *fol.Implies, pos bool) (*nnode, error) {
	n := a.node(nnode{kind: nOr, kids: make([]*nnode, 0, 2)})
	if !pos {
		n.kind = nAnd
	}
	for i, f := range [2]fol.Formula{g.L, g.R} {
		k, err := a.toNNF(f, pos == (i == 1))
		if err != nil {
			return nil, err
		}
		if k.kind == n.kind {
			n.kids = append(n.kids, k.kids...)
		} else {
			n.kids = append(n.kids, k)
		}
	}
	return n, nil
}

func (a *nodeSlab) quantNNF(v fol.Var, body fol.Formula, all, pos bool) (*nnode, error) {
	b, err := a.toNNF(body, pos)
	if err != nil {
		return nil, err
	}
	n := a.node(nnode{kind: nEx, v: v, body: b})
	if all {
		n.kind = nAll
	}
	return n, nil
}

// maxClauses bounds the CNF expansion of one sentence.
const maxClauses = 4096

// cnf returns the clauses of n over its leaves (literals and quantifier
// nodes, which are not looked into).
func (a *nodeSlab) cnf(n *nnode) ([][]*nnode, error) {
	if out, ok := a.flatCNF(n); ok {
		return out, nil
	}
	switch n.kind {
	case nAnd:
		var out [][]*nnode
		for _, k := range n.kids {
			cs, err := a.cnf(k)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
		}
		return out, nil
	case nOr:
		out := [][]*nnode{nil}
		for _, k := range n.kids {
			cs, err := a.cnf(k)
			if err != nil {
				return nil, err
			}
			if len(out)*len(cs) > maxClauses {
				return nil, fmt.Errorf("clause form has more than %d clauses", maxClauses)
			}
			out = product(out, cs)
		}
		return out, nil
	}
	return [][]*nnode{{n}}, nil
}

// product distributes: every clause of a joined with every clause of b.
func product(a, b [][]*nnode) [][]*nnode {
	out := make([][]*nnode, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			c := make([]*nnode, 0, len(x)+len(y))
			out = append(out, append(append(c, x...), y...))
		}
	}
	return out
}

// isLeaf reports whether cnf treats n as a literal.
func isLeaf(n *nnode) bool { return n.kind != nAnd && n.kind != nOr }

// flatCNF is cnf for the common shapes, in one allocation pair: a leaf, a
// disjunction of leaves, or a conjunction of leaves and disjunctions of
// leaves. The clauses are those cnf's general case gives, in its order.
// ok is false for any other shape.
func (a *nodeSlab) flatCNF(n *nnode) (out [][]*nnode, ok bool) {
	switch {
	case isLeaf(n):
		out = a.clauses.takeDirty(1)
		out[0] = a.lits.takeDirty(1)
		out[0][0] = n
		return out, true
	case n.kind == nOr:
		for _, k := range n.kids {
			if !isLeaf(k) {
				return nil, false
			}
		}
		out = a.clauses.takeDirty(1)
		out[0] = a.lits.takeDirty(len(n.kids))
		copy(out[0], n.kids)
		return out, true
	}
	size := 0
	for _, k := range n.kids {
		switch {
		case isLeaf(k):
			size++
		case k.kind == nOr:
			for _, l := range k.kids {
				if !isLeaf(l) {
					return nil, false
				}
			}
			size += len(k.kids)
		default:
			return nil, false
		}
	}
	flat := a.lits.takeDirty(size)[:0]
	out = a.clauses.takeDirty(len(n.kids))[:0]
	for _, k := range n.kids {
		start := len(flat)
		if isLeaf(k) {
			flat = append(flat, k)
		} else {
			flat = append(flat, k.kids...)
		}
		out = append(out, flat[start:len(flat):len(flat)])
	}
	return out, true
}
