package fol

import (
	"math/bits"
	"sync"
)

// The bit evaluator is Eval's fast path for structures of at most 64
// elements: a set of elements is a uint64, and every sub-formula is
// evaluated at once for all values of one variable (the vector variable)
// with word operations, so ∀x∀y φ costs Size evaluations of φ, not Size².
// Each formula is first compiled: names resolved to tables and variables
// to their binding depth. Whatever the compiler does not accept (a free
// variable, an arity other than 1 or 2, an unknown or nil node) sends the
// caller to the tree-walking evaluator, so errors and their messages are
// always that evaluator's. The compiler visits every node, so the fast
// path never answers where the slow one would fail.

// maxBitSize is the largest domain the bit evaluator handles.
const maxBitSize = 64

// bop is the operation of a compiled node.
type bop uint8

const (
	bAtom1 bop = iota
	bAtom2
	bNot
	bAnd
	bOr
	bImplies
	bForall
	bExists
)

// bnode is a compiled node; a formula is stored in pre-order, each node
// followed by its sub-formulas, end being the index past its subtree.
type bnode struct {
	op   bop
	end  int32
	pred int32 // atoms: index of the predicate's table
	a, b int32 // atoms: binding depth of each argument; quantifiers: a is the bound variable's depth
}

// predKey names a table: a predicate is looked up in Unary or Binary by
// the arity it is used with, as Eval does.
type predKey struct {
	name  string
	arity int
}

// bitEval is the compiled program and the tables of one structure.
type bitEval struct {
	prog  []bnode
	roots []int32 // start of each formula in prog
	slots []int32 // open-addressing table of names: index+1, 0 empty; a power of two long
	names []predKey
	off   []int32  // per predicate, its offset in tabs
	tabs  []uint64 // unary: one word; binary: diagonal, n rows, n columns
	scope []Var
	env   []int
	n     int
	full  uint64
	vd    int32 // depth of the vector variable, -1 for none
}

var bitEvals = sync.Pool{New: func() any { return new(bitEval) }}

// evalAllBits is EvalAll on the bit evaluator; ok is false when the
// caller must use the tree-walking evaluator instead. s has been checked.
func evalAllBits(fs []Formula, s *Structure) (i int, ok bool) {
	i = -1
	ok = evalBits(fs, s, func(j int, v bool) bool {
		if !v {
			i = j
		}
		return v
	})
	return i, ok
}

// evalBits compiles fs and evaluates them in s in order, calling each
// with every formula's index and truth until it returns false. It reports
// false, having called nothing, when s or a formula is beyond the bitset
// evaluator.
func evalBits(fs []Formula, s *Structure, each func(i int, v bool) bool) bool {
	if s.Size > maxBitSize {
		return false
	}
	e := bitEvals.Get().(*bitEval)
	defer bitEvals.Put(e)
	e.reset(s.Size)
	for _, f := range fs {
		e.roots = append(e.roots, int32(len(e.prog)))
		if !e.compile(f) {
			return false
		}
	}
	e.load(s)
	for i, r := range e.roots {
		if !each(i, e.set(r) != 0) {
			break
		}
	}
	return true
}

func (e *bitEval) reset(n int) {
	e.prog, e.roots, e.names, e.off = e.prog[:0], e.roots[:0], e.names[:0], e.off[:0]
	e.tabs, e.scope, e.env = e.tabs[:0], e.scope[:0], e.env[:0]
	clear(e.slots)
	e.n, e.vd = n, -1
	e.full = ^uint64(0) >> (64 - n)
}

// compile appends f to the program; it reports false for anything the
// tree-walking evaluator must handle.
func (e *bitEval) compile(f Formula) bool {
	at := len(e.prog)
	e.prog = append(e.prog, bnode{})
	ok := true
	switch g := f.(type) {
	case *Atom:
		ok = g != nil && e.atom(at, g)
	case *Not:
		e.prog[at].op = bNot
		ok = g != nil && e.compile(g.F)
	case *And:
		e.prog[at].op = bAnd
		ok = g != nil && e.compileAll(g.Fs)
	case *Or:
		e.prog[at].op = bOr
		ok = g != nil && e.compileAll(g.Fs)
	case *Implies:
		e.prog[at].op = bImplies
		ok = g != nil && e.compile(g.L) && e.compile(g.R)
	case *Forall:
		ok = g != nil && e.quant(at, bForall, g.V, g.Body)
	case *Exists:
		ok = g != nil && e.quant(at, bExists, g.V, g.Body)
	default:
		return false
	}
	e.prog[at].end = int32(len(e.prog))
	return ok
}

func (e *bitEval) compileAll(fs []Formula) bool {
	for _, f := range fs {
		if !e.compile(f) {
			return false
		}
	}
	return true
}

func (e *bitEval) quant(at int, op bop, v Var, body Formula) bool {
	e.prog[at].op, e.prog[at].a = op, int32(len(e.scope))
	e.scope = append(e.scope, v)
	if len(e.env) < len(e.scope) {
		e.env = append(e.env, 0)
	}
	ok := e.compile(body)
	e.scope = e.scope[:len(e.scope)-1]
	return ok
}

func (e *bitEval) atom(at int, g *Atom) bool {
	k := predKey{g.Pred, len(g.Args)}
	if k.arity != 1 && k.arity != 2 {
		return false
	}
	nd := &e.prog[at]
	nd.op, nd.b = bAtom1, -1
	if k.arity == 2 {
		nd.op = bAtom2
	}
	for i, v := range g.Args {
		d := e.depth(v)
		if d < 0 {
			return false // free variable
		}
		if i == 0 {
			nd.a = d
		} else {
			nd.b = d
		}
	}
	nd.pred = e.pred(k)
	return true
}

// pred returns the table index of k, adding k. The lookup hashes a few
// bytes of the name rather than all of it: most lookups compare one name.
func (e *bitEval) pred(k predKey) int32 {
	if len(e.slots) > 0 {
		mask := len(e.slots) - 1
		for i := predHash(k) & mask; ; i = (i + 1) & mask {
			v := e.slots[i]
			if v == 0 {
				break
			}
			if e.names[v-1] == k {
				return v - 1
			}
		}
	}
	e.names = append(e.names, k)
	if 2*len(e.names) > len(e.slots) {
		size := 32
		for size < 4*len(e.names) {
			size *= 2
		}
		e.slots = make([]int32, size)
		for j, n := range e.names {
			e.place(n, j)
		}
	} else {
		e.place(k, len(e.names)-1)
	}
	return int32(len(e.names) - 1)
}

func (e *bitEval) place(k predKey, j int) {
	mask := len(e.slots) - 1
	i := predHash(k) & mask
	for e.slots[i] != 0 {
		i = (i + 1) & mask
	}
	e.slots[i] = int32(j + 1)
}

func predHash(k predKey) int {
	s := k.name
	h := uint32(len(s)+k.arity<<8) * 0x9e3779b1
	if len(s) > 0 {
		h ^= uint32(s[0]) | uint32(s[len(s)/2])<<8 | uint32(s[len(s)-1])<<16
		h *= 0x85ebca6b
		h ^= h >> 15
	}
	return int(h)
}

// depth returns the binding depth of the innermost v in scope, or -1.
func (e *bitEval) depth(v Var) int32 {
	for i := len(e.scope) - 1; i >= 0; i-- {
		if e.scope[i] == v {
			return int32(i)
		}
	}
	return -1
}

// load builds the tables of every predicate the program uses; a predicate
// s does not have is empty.
func (e *bitEval) load(s *Structure) {
	n := e.n
	for _, k := range e.names {
		e.off = append(e.off, int32(len(e.tabs)))
		if k.arity == 1 {
			e.tabs = append(e.tabs, pack(s.Unary[k.name]))
			continue
		}
		start := len(e.tabs)
		for range 1 + 2*n {
			e.tabs = append(e.tabs, 0)
		}
		diag, rows, cols := e.tabs[start:start+1], e.tabs[start+1:start+1+n], e.tabs[start+1+n:start+1+2*n]
		for a, row := range s.Binary[k.name] {
			rows[a] = pack(row)
			diag[0] |= rows[a] >> a & 1 << a
		}
		if _, ok := s.Binary[k.name]; ok {
			transpose(cols, rows)
		}
	}
}

// pack returns the set of indices where bs is true.
func pack(bs []bool) uint64 {
	var w uint64
	for a, v := range bs {
		w |= b2u(v) << a
	}
	return w
}

func b2u(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// transpose sets cols[b] to the set of a with b in rows[a].
func transpose(cols, rows []uint64) {
	for a, w := range rows {
		for ; w != 0; w &= w - 1 {
			cols[bits.TrailingZeros64(w)] |= 1 << a
		}
	}
}

// all is the full set when v is true, else the empty set.
func (e *bitEval) all(v bool) uint64 {
	if v {
		return e.full
	}
	return 0
}

// set returns the values of the vector variable for which the node at i
// holds under e.env; without a vector variable it is all or nothing.
func (e *bitEval) set(i int32) uint64 {
	nd := &e.prog[i]
	switch nd.op {
	case bAtom1:
		t := e.tabs[e.off[nd.pred]]
		if nd.a == e.vd {
			return t
		}
		return e.all(t>>e.env[nd.a]&1 != 0)
	case bAtom2:
		return e.atom2(nd)
	case bNot:
		return e.full &^ e.set(i+1)
	case bAnd:
		s := e.full
		for k := i + 1; k < nd.end && s != 0; k = e.prog[k].end {
			s &= e.set(k)
		}
		return s
	case bOr:
		var s uint64
		for k := i + 1; k < nd.end && s != e.full; k = e.prog[k].end {
			s |= e.set(k)
		}
		return s
	case bImplies:
		l := e.set(i + 1)
		if l == 0 {
			return e.full
		}
		return e.full&^l | e.set(e.prog[i+1].end)
	}
	return e.quantSet(i, nd)
}

func (e *bitEval) atom2(nd *bnode) uint64 {
	o, n := int(e.off[nd.pred]), e.n
	switch {
	case nd.a == e.vd && nd.b == e.vd:
		return e.tabs[o]
	case nd.a == e.vd:
		return e.tabs[o+1+n+e.env[nd.b]] // column: the a with r(a, env b)
	case nd.b == e.vd:
		return e.tabs[o+1+e.env[nd.a]] // row: the b with r(env a, b)
	}
	return e.all(e.tabs[o+1+e.env[nd.a]]>>e.env[nd.b]&1 != 0)
}

// quantSet evaluates a quantifier: without a vector variable its own
// variable becomes the vector variable; with one, it ranges over the
// domain and combines the sets of its body.
func (e *bitEval) quantSet(i int32, nd *bnode) uint64 {
	forall := nd.op == bForall
	if e.vd < 0 {
		e.vd = nd.a
		s := e.set(i + 1)
		e.vd = -1
		if forall {
			return e.all(s == e.full)
		}
		return e.all(s != 0)
	}
	acc := e.all(forall)
	for v := 0; v < e.n; v++ {
		e.env[nd.a] = v
		if forall {
			if acc &= e.set(i + 1); acc == 0 {
				break
			}
		} else if acc |= e.set(i + 1); acc == e.full {
			break
		}
	}
	return acc
}
