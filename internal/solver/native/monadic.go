package native

import (
	"math/bits"
	"slices"

	"github.com/nlsat/nlsat/internal/sat"
)

// monadic decides a problem without binary atoms. It returns the noun
// patterns of the model's elements, one per existential (or one if there
// is none), or ok = false with the sentences of a refutation (monoCore).
func monadic[P pat](n *normal[P], s *sat.Solver) (elems []P, ok bool, core []int) {
	buf := n.monoBuf[:0]
	defer func() { n.monoBuf = buf[:0] }()
	if len(n.csrc) == 0 {
		u, ok := n.dpll.solve(monoFor(n, -1, buf))
		if !ok {
			return nil, false, monoCore(n, -1, s)
		}
		return []P{u}, true, nil
	}
	elems = make([]P, 0, len(n.csrc))
	for c := range n.csrc {
		buf = monoFor(n, c, buf[:0])
		u, ok := n.dpll.solve(buf)
		if !ok {
			return nil, false, monoCore(n, c, s)
		}
		elems = append(elems, u)
	}
	return elems, true, nil
}

// monoCore returns, in increasing order, the sentences that refute fresh
// predicate c (-1: the problem has no existential and no pattern at all):
// the SAT call over the nouns with the M clauses binding c, each switched
// on by an activation literal of its sentence, names through its failed
// assumptions the sentences it used; c's own sentence is added. Without
// a solver (or if it disagrees with DPLL) it is every sentence with a
// clause binding c (monoSources).
func monoCore[P pat](n *normal[P], c int, s *sat.Solver) []int {
	if s == nil {
		return monoSources(n, c)
	}
	s.Reset()
	s.AddVars(len(n.nouns))
	// act[src] is the activation variable of sentence src, -1 before it
	// is needed; srcs[v-len(nouns)] is the sentence of activation v.
	top := 0
	for _, src := range n.msrc {
		top = max(top, src+1)
	}
	act := slices.Grow(n.monoAct[:0], top)[:top]
	for i := range act {
		act[i] = -1
	}
	srcs, asm, lits := n.monoSrcs[:0], n.monoAsm[:0], n.monoLits[:0]
	for i, g := range n.mono {
		if g.c >= 0 && g.c != c {
			continue
		}
		src := n.msrc[i]
		if act[src] < 0 {
			act[src] = int32(s.AddVars(1))
			s.SetDecision(int(act[src]), false)
			srcs = append(srcs, src)
			asm = append(asm, sat.Pos(int(act[src])))
		}
		lits = append(lits[:0], sat.Neg(int(act[src])))
		for w := range len(g.mask) {
			for m := g.mask[w]; m != 0; m &= m - 1 {
				j := bits.TrailingZeros64(m)
				lits = append(lits, sat.Mk(64*w+j, g.val[w]&(1<<j) == 0))
			}
		}
		s.AddClause(lits...)
	}
	n.monoAct, n.monoSrcs, n.monoAsm, n.monoLits = act, srcs, asm, lits
	if s.Solve(asm...) != sat.Unsat {
		return monoSources(n, c)
	}
	var core []int
	if c >= 0 {
		core = append(core, n.csrc[c])
	}
	for _, l := range s.Core() {
		core = append(core, srcs[l.Var()-len(n.nouns)])
	}
	slices.Sort(core)
	return slices.Compact(core)
}

// monoSources lists, in increasing order, the sentences whose M clauses
// bind keys with fresh predicate c, plus c's sentence.
func monoSources[P pat](n *normal[P], c int) []int {
	top := 0
	for _, i := range n.msrc {
		top = max(top, i+1)
	}
	if c >= 0 {
		top = max(top, n.csrc[c]+1)
	}
	seen := make([]bool, top)
	if c >= 0 {
		seen[n.csrc[c]] = true
	}
	for i, g := range n.mono {
		if g.c < 0 || g.c == c {
			seen[n.msrc[i]] = true
		}
	}
	var out []int
	for i, ok := range seen {
		if ok {
			out = append(out, i)
		}
	}
	return out
}
