// Package ground looks for models of a given size: it grounds first-order
// sentences over a domain of k elements into propositional clauses and
// solves them with package sat. It is how nlsat makes the models it
// reports small (solver.Shrink).
//
// # Encoding
//
// One variable per ground atom p(a), r(a,b) of the sentences' signature;
// quantifiers become conjunctions and disjunctions over the k elements;
// every compound sub-formula below the top gets a fresh variable that
// implies it (the Plaisted-Greenbaum half of the Tseitin encoding, which
// preserves satisfiability and whose models, read on the atoms, satisfy
// the sentences). Conjunctions at the top are asserted piecewise, and the
// elements are ordered by their unary atoms (see breakSymmetry). The
// sentences are compiled once (Compile) into a tree with numbered
// predicates and variables, and grounded at each size from it: all at
// once (Model), or one by one as a candidate model makes them false
// (ModelLazily).
//
// # Determinism
//
// Variables are numbered in the order of the signature's sorted names and
// of the sentences, so the same sentences and size give the same model.
package ground

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/sat"
)

// node kinds of a compiled formula.
const (
	opAtom = iota
	opNot
	opAnd // also ∀: a conjunction of parts
	opOr  // also ∃, →: a disjunction of parts
)

// node is a compiled sub-formula.
type node struct {
	op    uint8
	quant bool    // a quantifier over variable slot v: its one kid is the body
	v     int8    // the quantified variable's slot
	pred  int32   // an atom's predicate
	args  [2]int8 // an atom's variable slots (args[1] < 0 for a unary atom)
	kids  []*node // for →, kids[0] is the antecedent and is read negated
	impl  bool
}

// Sentences is a set of sentences compiled for grounding.
type Sentences struct {
	names []string
	arity []int
	roots []*node
	fs    []fol.Formula // the sentences, for checking a candidate model (ModelLazily)
	nvars int
	nodes []node  // the chunk nodes are taken from
	kids  []*node // the chunk kid lists are taken from
	bound []fol.Var
}

// Compile prepares fs for Model.
func Compile(fs []fol.Formula) (*Sentences, error) {
	sig, err := fol.SignatureOf(fs...)
	if err != nil {
		return nil, err
	}
	c := &Sentences{names: make([]string, 0, len(sig)), roots: make([]*node, 0, len(fs)), fs: fs}
	for p := range sig {
		c.names = append(c.names, p)
	}
	slices.Sort(c.names)
	for _, p := range c.names {
		c.arity = append(c.arity, sig[p])
	}
	for _, f := range fs {
		c.bound = c.bound[:0]
		n, err := c.compile(f)
		if err != nil {
			return nil, err
		}
		c.roots = append(c.roots, n)
	}
	return c, nil
}

// newNode returns a node with k kids, taken from the chunks.
func (c *Sentences) newNode(op uint8, k int) *node {
	if len(c.nodes) == cap(c.nodes) {
		c.nodes = make([]node, 0, 64)
	}
	c.nodes = c.nodes[:len(c.nodes)+1]
	n := &c.nodes[len(c.nodes)-1]
	n.op, n.args = op, [2]int8{-1, -1}
	if k > 0 {
		if cap(c.kids)-len(c.kids) < k {
			c.kids = make([]*node, 0, max(k, 64))
		}
		l := len(c.kids)
		c.kids = c.kids[:l+k]
		n.kids = c.kids[l : l+k : l+k]
	}
	return n
}

// compile compiles f; the variables of the quantifiers open around it are
// c.bound, numbered by depth.
func (c *Sentences) compile(f fol.Formula) (*node, error) {
	var n *node
	var fs []fol.Formula
	switch h := f.(type) {
	case *fol.Atom:
		return c.atom(h)
	case *fol.Not:
		n, fs = c.newNode(opNot, 1), []fol.Formula{h.F}
	case *fol.And:
		n, fs = c.newNode(opAnd, len(h.Fs)), h.Fs
	case *fol.Or:
		n, fs = c.newNode(opOr, len(h.Fs)), h.Fs
	case *fol.Implies:
		n, fs = c.newNode(opOr, 2), []fol.Formula{h.L, h.R}
		n.impl = true
	case *fol.Forall, *fol.Exists:
		v, body := quantified(h)
		op := uint8(opAnd)
		if _, ok := h.(*fol.Exists); ok {
			op = opOr
		}
		depth := len(c.bound)
		if depth >= 100 {
			return nil, errors.New("quantifiers nested too deep")
		}
		n = c.newNode(op, 1)
		n.quant, n.v = true, int8(depth)
		c.nvars = max(c.nvars, depth+1)
		c.bound = append(c.bound, v)
		kid, err := c.compile(body)
		c.bound = c.bound[:depth]
		n.kids[0] = kid
		return n, err
	default:
		return nil, fmt.Errorf("unknown formula node %T", f)
	}
	for i, g := range fs {
		kid, err := c.compile(g)
		if err != nil {
			return nil, err
		}
		n.kids[i] = kid
	}
	return n, nil
}

func (c *Sentences) atom(a *fol.Atom) (*node, error) {
	p, ok := slices.BinarySearch(c.names, a.Pred)
	if !ok || len(a.Args) > 2 || len(a.Args) != c.arity[p] {
		return nil, fmt.Errorf("atom %s%v does not fit the signature", a.Pred, a.Args)
	}
	n := c.newNode(opAtom, 0)
	n.pred = int32(p)
	for i, x := range a.Args {
		slot := -1
		for d := len(c.bound) - 1; d >= 0; d-- { // the innermost binding
			if c.bound[d] == x {
				slot = d
				break
			}
		}
		if slot < 0 {
			return nil, fmt.Errorf("variable %s is free in %s", x, a.Pred)
		}
		n.args[i] = int8(slot)
	}
	return n, nil
}

func quantified(f fol.Formula) (fol.Var, fol.Formula) {
	if q, ok := f.(*fol.Forall); ok {
		return q.V, q.Body
	}
	q := f.(*fol.Exists)
	return q.V, q.Body
}

// grounder holds one grounding in progress.
type grounder struct {
	c     *Sentences
	s     *sat.Solver
	k     int
	first []int // each predicate's first atom variable
	env   []int // the element bound to each variable slot
	bufs  [][]sat.Lit
}

// Model looks for a model of the sentences with exactly k elements,
// solving with s (reset first; its Options bound the search). It returns
// the model, or nil when there is none; an error when s was stopped.
func (c *Sentences) Model(s *sat.Solver, k int) (*fol.Structure, error) {
	g := c.start(s, k)
	for _, r := range c.roots {
		g.assert(r, false, 0)
	}
	switch s.Solve() {
	case sat.Unsat:
		return nil, nil
	case sat.Unknown:
		return nil, stopped(k)
	}
	return g.structure(), nil
}

// ErrStopped is the error of a search that was stopped (by s's Options,
// or by a budget), wrapped with the size.
var ErrStopped = errors.New("ground model search stopped")

func stopped(k int) error { return fmt.Errorf("%w at size %d", ErrStopped, k) }

// start resets s and gives it the atoms of a domain of k elements,
// ordered (breakSymmetry).
func (c *Sentences) start(s *sat.Solver, k int) *grounder {
	g := &grounder{c: c, s: s, k: k, env: make([]int, c.nvars)}
	s.Reset()
	for _, a := range c.arity {
		n := k
		if a == 2 {
			n = k * k
		}
		g.first = append(g.first, s.AddVars(n))
	}
	g.breakSymmetry()
	return g
}

// ModelLazily answers what Model answers, grounding the sentences only
// as they are needed: it solves the sentences grounded so far (at first
// none), and while the model found makes some of the others false it
// grounds those too and solves again. A model that makes every sentence
// true is a model of them all; sentences with no model of k elements
// leave the whole set none. Where a part of the sentences decides the
// question, a model that the whole grounding hides among many constraints
// is found in a few rounds; a proof that there is none can take longer
// than Model's. The conflicts of all rounds together are bounded by
// budget (0: no bound) as well as by s's Options, which it leaves as it
// found them.
func (c *Sentences) ModelLazily(s *sat.Solver, k, budget int) (*fol.Structure, error) {
	g := c.start(s, k)
	opts := s.Options
	defer func() { s.Options = opts }()
	grounded := make([]bool, len(c.roots))
	for used := 0; ; used += s.Conflicts() {
		if budget > 0 {
			if used >= budget {
				return nil, stopped(k)
			}
			s.Options.MaxConflicts = budget - used
			if opts.MaxConflicts > 0 {
				s.Options.MaxConflicts = min(s.Options.MaxConflicts, opts.MaxConflicts)
			}
		}
		switch s.Solve() {
		case sat.Unsat:
			return nil, nil
		case sat.Unknown:
			return nil, stopped(k)
		}
		m := g.structure()
		truth, err := fol.EvalEach(c.fs, m)
		if err != nil {
			return nil, err
		}
		more := false
		for i, ok := range truth {
			switch {
			case ok:
			case grounded[i]:
				return nil, fmt.Errorf("internal error: the model of size %d makes grounded sentence %d false", k, i+1)
			default:
				g.assert(c.roots[i], false, 0)
				grounded[i], more = true, true
			}
		}
		if !more {
			return m, nil
		}
	}
}

// Model is Compile and Sentences.Model in one.
func Model(s *sat.Solver, fs []fol.Formula, k int) (*fol.Structure, error) {
	c, err := Compile(fs)
	if err != nil {
		return nil, err
	}
	return c.Model(s, k)
}

// breakSymmetry orders the elements: the vector of unary atoms of each
// element is lexicographically at least the next element's. Any model can
// be so ordered by permuting its elements, so this keeps every model up to
// isomorphism and spares the solver the k! copies of each refutation.
// With e_j meaning "equal on the first j unary predicates" (e_0 true): e_{j-1}
// implies p_j(a) ≥ p_j(b), and e_{j-1} with p_j(a) = p_j(b) implies e_j.
func (g *grounder) breakSymmetry() {
	var unary []int
	for p, a := range g.c.arity {
		if a == 1 {
			unary = append(unary, g.first[p])
		}
	}
	for a := 0; a+1 < g.k; a++ {
		eq := sat.Lit(-1) // e_0 is true
		for j, v := range unary {
			pa, pb := sat.Pos(v+a), sat.Pos(v+a+1)
			if eq < 0 {
				g.s.AddClause(pa, pb.Not())
			} else {
				g.s.AddClause(eq.Not(), pa, pb.Not())
			}
			if j == len(unary)-1 {
				break
			}
			next := sat.Pos(g.s.AddVars(1))
			if eq < 0 {
				g.s.AddClause(pa.Not(), pb.Not(), next)
				g.s.AddClause(pa, pb, next)
			} else {
				g.s.AddClause(eq.Not(), pa.Not(), pb.Not(), next)
				g.s.AddClause(eq.Not(), pa, pb, next)
			}
			eq = next
		}
	}
}

// structure reads the model of the atoms.
func (g *grounder) structure() *fol.Structure {
	st := &fol.Structure{Size: g.k, Unary: map[string][]bool{}, Binary: map[string][][]bool{}}
	for p, name := range g.c.names {
		v := g.first[p]
		if g.c.arity[p] == 1 {
			ext := make([]bool, g.k)
			for a := range ext {
				ext[a] = g.s.Value(v + a)
			}
			st.Unary[name] = ext
			continue
		}
		rel := make([][]bool, g.k)
		for a := range rel {
			rel[a] = make([]bool, g.k)
			for b := range rel[a] {
				rel[a][b] = g.s.Value(v + a*g.k + b)
			}
		}
		st.Binary[name] = rel
	}
	return st
}

// conj reports whether n read with polarity neg is a conjunction of its
// parts (else, for opAnd/opOr, a disjunction).
func conj(n *node, neg bool) bool { return (n.op == opAnd) != neg }

// count returns the number of parts of n: k for a quantifier.
func (g *grounder) count(n *node) int {
	if n.quant {
		return g.k
	}
	return len(n.kids)
}

// part returns the i-th part of n with its polarity, binding a quantified
// variable to element i.
func (g *grounder) part(n *node, neg bool, i int) (*node, bool) {
	if n.quant {
		g.env[n.v] = i
		return n.kids[0], neg
	}
	return n.kids[i], neg != (n.impl && i == 0)
}

// assert adds clauses making n (¬n with neg) true; depth numbers the
// scratch buffers.
func (g *grounder) assert(n *node, neg bool, depth int) {
	switch {
	case n.op == opNot:
		g.assert(n.kids[0], !neg, depth)
	case n.op == opAtom:
		g.s.AddClause(g.lit(n, neg, depth))
	case conj(n, neg):
		for i := range g.count(n) {
			kid, kn := g.part(n, neg, i)
			g.assert(kid, kn, depth)
		}
	default:
		g.s.AddClause(g.partLits(n, neg, depth)...)
	}
}

// partLits returns a literal for each part of n, in buffer depth.
func (g *grounder) partLits(n *node, neg bool, depth int) []sat.Lit {
	for len(g.bufs) <= depth {
		g.bufs = append(g.bufs, nil)
	}
	g.bufs[depth] = g.bufs[depth][:0]
	for i := range g.count(n) {
		kid, kn := g.part(n, neg, i)
		l := g.lit(kid, kn, depth+1)
		g.bufs[depth] = append(g.bufs[depth], l)
	}
	return g.bufs[depth]
}

// lit returns a literal that implies n (¬n with neg) under the bindings.
func (g *grounder) lit(n *node, neg bool, depth int) sat.Lit {
	switch n.op {
	case opAtom:
		idx := g.env[n.args[0]]
		if n.args[1] >= 0 {
			idx = idx*g.k + g.env[n.args[1]]
		}
		l := sat.Pos(g.first[n.pred] + idx)
		if neg {
			l = l.Not()
		}
		return l
	case opNot:
		return g.lit(n.kids[0], !neg, depth)
	}
	lits := g.partLits(n, neg, depth)
	aux := sat.Pos(g.s.AddVars(1))
	if conj(n, neg) {
		for _, l := range lits {
			g.s.AddClause(aux.Not(), l)
		}
		return aux
	}
	lits = append(lits, aux.Not())
	g.bufs[depth] = lits
	g.s.AddClause(lits...)
	return aux
}
