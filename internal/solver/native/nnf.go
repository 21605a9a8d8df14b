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

// toNNF pushes negations in f down to the atoms; pos is false when f is
// under an odd number of negations.
func toNNF(f fol.Formula, pos bool) (*nnode, error) {
	switch g := f.(type) {
	case *fol.Atom:
		return &nnode{kind: nLit, atom: g, neg: !pos}, nil
	case *fol.Not:
		return toNNF(g.F, !pos)
	case *fol.And:
		return naryNNF(g.Fs, pos, pos)
	case *fol.Or:
		return naryNNF(g.Fs, !pos, pos)
	case *fol.Implies:
		return naryNNF([]fol.Formula{&fol.Not{F: g.L}, g.R}, !pos, pos)
	case *fol.Forall:
		return quantNNF(g.V, g.Body, pos, pos)
	case *fol.Exists:
		return quantNNF(g.V, g.Body, !pos, pos)
	}
	return nil, fmt.Errorf("unknown formula node %T", f)
}

// naryNNF builds a conjunction (and) or disjunction of fs under polarity pos.
func naryNNF(fs []fol.Formula, and, pos bool) (*nnode, error) {
	n := &nnode{kind: nOr}
	if and {
		n.kind = nAnd
	}
	for _, f := range fs {
		k, err := toNNF(f, pos)
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

func quantNNF(v fol.Var, body fol.Formula, all, pos bool) (*nnode, error) {
	b, err := toNNF(body, pos)
	if err != nil {
		return nil, err
	}
	n := &nnode{kind: nEx, v: v, body: b}
	if all {
		n.kind = nAll
	}
	return n, nil
}

// maxClauses bounds the CNF expansion of one sentence.
const maxClauses = 4096

// cnf returns the clauses of n over its leaves (literals and quantifier
// nodes, which are not looked into).
func cnf(n *nnode) ([][]*nnode, error) {
	switch n.kind {
	case nAnd:
		var out [][]*nnode
		for _, k := range n.kids {
			cs, err := cnf(k)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
		}
		return out, nil
	case nOr:
		out := [][]*nnode{nil}
		for _, k := range n.kids {
			cs, err := cnf(k)
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
