package native

import (
	"math/bits"

	"github.com/nlsat/nlsat/internal/sat"
)

// lazy is the type search without an explicit pattern space (the cure of
// the design's section 8 for many nouns). The patterns the search may
// still use are described by clauses over the nouns: M's clauses, the
// guards forbidden on the current branch, and nogoods, each a conjunction
// of guards shown to make a key non-viable. Questions about them (a
// candidate for an existential, a witness for a requirement) are SAT
// queries over one pattern w, the pair atoms between w and a fixed key a,
// and activation literals that switch on the pair clauses whose a-side
// guard holds of a. Memory and work grow with the clauses, not with 2^nn.
//
// A query that fails names, through its failed assumptions, the pair
// clauses it needed; their a-side guards, with the requirement's X,
// describe every key for which the same question fails. That is how a
// non-viable key becomes a nogood that removes a whole region: the lazy
// counterpart of the greatest fixpoint of the explicit search.
type lazy[P pat] struct {
	t     *typer[P]
	s     *sat.Solver
	atoms int // first pair-atom variable: atoms + verb*2 + orient
	acts  int // first pair-clause activation: acts + 2i (X_i on a), +1 (Y_i on a)
	cacts int // first existential activation: cacts + c
	// Every clause but the pair clauses' own is switched on by an
	// activation variable assumed in every query (base), so that a failed
	// query names, through its core, the sentences (vsrc, one sentence;
	// vsup, a set) and the branch depths (vlev) its refutation used.
	vsrc  []int32
	vsup  []sset
	vlev  []lset
	msent []int32   // per sentence, the activation of its monadic clauses, -1 none
	base  []sat.Lit // the activations of M's sentences, live nogoods, the branch
	macts []int     // the activations of M's sentences

	depth     int
	bacts     []int            // per depth from 1, the branch's activation variable
	f         []guard[P]       // per depth from 1, the guard the branch forbids
	goods     []nogood[P]      // the live nogoods, in the order learnt
	wits      []witInfo[P]     // indexed by sigInfo.lazy, see witnessFor
	gen       int              // bumped when the branch changes: wits of older generations are stale
	failLev   lset             // the branch depths of pick's last refutation
	budget    int64            // bytes the search may hold (0: no limit)
	words     int              // words of a sentence set
	recent    [][]recentWit[P] // per requirement, witnesses found on this branch
	recentGen int              // the generation of recent
	lits      []sat.Lit        // scratch
	asm       []sat.Lit
	forbid    []guard[P]
	dpll      dpllState[P]
	rebuild   bool        // every BUILD starts afresh (Options.rebuild)
	regs      *regions[P] // the region loop's state, once it runs
}

// recentWit is a witness found on the branch, not excluded by the first
// goods nogoods.
type recentWit[P pat] struct {
	w     P
	goods int
}

// nogood is a region g of keys that are not viable, learnt at a branch
// depth (0: valid everywhere) from the sentences sup, switched on by act.
type nogood[P pat] struct {
	g    guard[P]
	lvl  int // the deepest of lev
	lev  lset
	act  int
	sup  sset
	pool int // 1 + its index in the region loop's pool, 0 none
}

// witInfo is the answer of a witness query for one requirement of one
// signature: a witness pattern w, or dead with its reason (the guards that
// make the query fail), the depth and the sentences it depends on.
type witInfo[P pat] struct {
	gen    int // 0: not asked
	ngoods int // len(goods) when asked
	dead   bool
	w      P
	reason guard[P]
	lev    lset
	sup    sset
}

// lset is a set of branch depths.
type lset []uint64

// lunion returns a ∪ b (a itself when b adds nothing).
func lunion(a, b lset) lset {
	grow := len(b) > len(a)
	for i := 0; i < len(b) && !grow; i++ {
		grow = b[i]&^a[i] != 0
	}
	if !grow {
		return a
	}
	out := make(lset, max(len(a), len(b)))
	copy(out, a)
	for i, w := range b {
		out[i] |= w
	}
	return out
}

// single returns {d}.
func single(d int) lset {
	out := make(lset, d/64+1)
	out[d/64] = 1 << (d % 64)
	return out
}

// has reports whether d is in s.
func (s lset) has(d int) bool { return d/64 < len(s) && s[d/64]&(1<<(d%64)) != 0 }

// top returns the largest element of s, 0 for none.
func (s lset) top() int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] != 0 {
			return 64*i + 63 - bits.LeadingZeros64(s[i])
		}
	}
	return 0
}

// without returns s without d.
func (s lset) without(d int) lset {
	if !s.has(d) {
		return s
	}
	out := append(lset(nil), s...)
	out[d/64] &^= 1 << (d % 64)
	return out
}

// sset is a set of sentence indices.
type sset []uint64

// union returns a ∪ b as a new set (a or b may be nil).
func (l *lazy[P]) union(a, b sset) sset {
	out := sset(l.t.arenas.words.take(l.words))
	copy(out, a)
	for i, w := range b {
		out[i] |= w
	}
	return out
}

// with returns a ∪ {i} as a new set.
func (l *lazy[P]) with(a sset, i int) sset {
	out := l.union(a, nil)
	out[i/64] |= 1 << (i % 64)
	return out
}

// indices returns the elements of s in increasing order.
func (s sset) indices() []int {
	var out []int
	bitset(s).each(func(i uint64) bool {
		out = append(out, int(i))
		return true
	})
	return out
}

// init encodes t's problem, of m sentences, for the lazy search into s;
// l's memory from an earlier problem is reused.
func (l *lazy[P]) init(t *typer[P], s *sat.Solver, m int) *lazy[P] {
	n := t.n
	*l = lazy[P]{t: t, s: s, gen: 1, words: (m + 63) / 64, vsrc: l.vsrc[:0], vsup: l.vsup[:0], vlev: l.vlev[:0],
		msent: l.msent[:0], base: l.base[:0], macts: l.macts[:0], bacts: l.bacts[:0], f: l.f[:0],
		goods: l.goods[:0], wits: l.wits[:0], lits: l.lits[:0], asm: l.asm[:0], forbid: l.forbid[:0],
		recent: l.recent[:0], dpll: l.dpll}
	for range n.qs {
		l.recent = append(l.recent, nil)
	}
	s.Reset()
	l.vars(t.nn)
	l.atoms = l.vars(2 * t.nverbs)
	l.acts = l.actVars(2 * len(n.cs))
	l.cacts = l.actVars(len(n.csrc))
	for c, src := range n.csrc {
		l.vsrc[l.cacts+c] = int32(src)
	}
	for i := range n.cs {
		c := &n.cs[i]
		l.vsrc[l.acts+2*i], l.vsrc[l.acts+2*i+1] = int32(c.src), int32(c.src)
		l.lits = append(l.lits[:0], sat.Neg(l.acts+2*i))
		l.lits = notCube(l.lits, c.y, 0)
		for _, d := range c.d {
			l.lits = append(l.lits, l.atom(d))
		}
		s.AddClause(l.lits...)
		if c.x.c >= 0 {
			continue // a witness is c-free: X never holds of it
		}
		l.lits = append(l.lits[:0], sat.Neg(l.acts+2*i+1))
		l.lits = notCube(l.lits, c.x, 0)
		for _, d := range c.d {
			l.lits = append(l.lits, l.atom(d.swap()))
		}
		s.AddClause(l.lits...)
	}
	for range m {
		l.msent = append(l.msent, -1)
	}
	for i, g := range n.mono {
		src := n.msrc[i]
		if l.msent[src] < 0 {
			act := l.actVars(1)
			l.msent[src] = int32(act)
			l.vsrc[act] = int32(src)
			l.macts = append(l.macts, act)
		}
		l.exclude(g, int(l.msent[src]))
	}
	l.rebase()
	return l
}

// vars adds k variables, without support, and returns the first.
func (l *lazy[P]) vars(k int) int {
	for range k {
		l.vsrc = append(l.vsrc, -1)
		l.vsup = append(l.vsup, nil)
		l.vlev = append(l.vlev, nil)
	}
	return l.s.AddVars(k)
}

// actVars adds k activation variables: they occur only negatively in
// clauses, so the solver need not branch on them.
func (l *lazy[P]) actVars(k int) int {
	first := l.vars(k)
	for v := first; v < first+k; v++ {
		l.s.SetDecision(v, false)
	}
	return first
}

// atom is the literal of binary literal d read at x:=a, y:=w.
func (l *lazy[P]) atom(d blit) sat.Lit {
	v := l.atoms + int(d)>>1
	if d&1 != 0 {
		return sat.Neg(v)
	}
	return sat.Pos(v)
}

// notCube appends the literals of ¬g's nouns (g's fresh predicate apart),
// noun i being variable first+i.
func notCube[P pat](out []sat.Lit, g guard[P], first int) []sat.Lit {
	for w := range len(g.mask) {
		for m := g.mask[w]; m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m)
			out = append(out, sat.Mk(first+64*w+j, g.val[w]&(1<<j) == 0))
		}
	}
	return out
}

// cube appends the literals of g's nouns.
func (l *lazy[P]) cube(out []sat.Lit, g guard[P]) []sat.Lit {
	for w := range len(g.mask) {
		for m := g.mask[w]; m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m)
			out = append(out, sat.Mk(64*w+j, g.val[w]&(1<<j) != 0))
		}
	}
	return out
}

// exclude adds the clause that no key satisfies g, under the activation
// variable act.
func (l *lazy[P]) exclude(g guard[P], act int) {
	l.lits = append(l.lits[:0], sat.Neg(act))
	if g.c >= 0 {
		l.lits = append(l.lits, sat.Neg(l.cacts+g.c))
	}
	l.lits = notCube(l.lits, g, 0)
	l.s.AddClause(l.lits...)
}

// retire switches the clauses of activation variable v off for good.
func (l *lazy[P]) retire(v int) {
	if v >= 0 {
		l.s.AddClause(sat.Neg(v))
	}
}

// rebase rebuilds the assumptions of every query: the activations of M's
// sentences, of the live nogoods and of the branch.
func (l *lazy[P]) rebase() {
	l.base = l.base[:0]
	for _, v := range l.macts {
		l.base = append(l.base, sat.Pos(v))
	}
	for _, g := range l.goods {
		l.base = append(l.base, sat.Pos(g.act))
	}
	for _, v := range l.bacts {
		l.base = append(l.base, sat.Pos(v))
	}
}
