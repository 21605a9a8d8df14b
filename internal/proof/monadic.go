package proof

import (
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// A monadic refutation (S, W, or any set of their sentences) derives by
// chaining, from the universal sentences alone, a clause that the one
// existential sentence contradicts (every literal of the clause is denied
// by the existential), or two opposite statements "Everyone is a p" and
// "No one is a p" when there is no existential. Such a clause exists
// whenever the set is unsatisfiable: the existential's literals, as unit
// clauses, and the universal clauses are propositionally unsatisfiable,
// so the universal clauses imply the negation of the existential's
// conjunction, and resolution derives a clause subsuming every clause they
// imply. Clauses are saturated smallest first, each new one kept only if
// no clause found before subsumes it.

// mnode is a clause of the saturation, an input sentence or a chain.
type mnode struct {
	lits     []mlit // in the order the formula says them, head last
	formula  fol.Formula
	sentence int    // input sentence, or -1
	parents  [2]int // nodes chained, for a derived clause
}

type monadic struct {
	nodes []mnode
	exist []mlit // the existential's literals; nil without one
	exSen int    // the existential's sentence, or -1
}

// monadicInput reads the sentences at mus as clauses and at most one
// existential; ok is false if any is not monadic.
func monadicInput(sentences []fragments.Sentence, mus []int) (*monadic, bool) {
	m := &monadic{exSen: -1}
	for _, i := range mus {
		f := sentences[i].Formula()
		if c, ok := clauseOf(f); ok {
			m.nodes = append(m.nodes, mnode{lits: c, formula: f, sentence: i, parents: [2]int{-1, -1}})
			continue
		}
		e, ok := existentialOf(f)
		if !ok || m.exSen >= 0 {
			return nil, false
		}
		m.exist, m.exSen = e, i
	}
	return m, true
}

// saturate chains clauses, smallest first, until one is refuted; it
// returns the nodes the contradiction cites.
func (m *monadic) saturate(limit int) ([]int, error) {
	done := make([]bool, len(m.nodes))
	for i := range m.nodes {
		if hit := m.target(i); hit != nil {
			return hit, nil
		}
	}
	for {
		g := -1
		for i := range m.nodes {
			if !done[i] && (g < 0 || len(m.nodes[i].lits) < len(m.nodes[g].lits)) {
				g = i
			}
		}
		if g < 0 {
			return nil, fmt.Errorf("%w: the clauses saturate without a contradiction", ErrNoProof)
		}
		done[g] = true
		for j := range m.nodes {
			if !done[j] {
				continue
			}
			for _, r := range m.resolvents(g, j) {
				if len(m.nodes) >= limit {
					return nil, fmt.Errorf("%w: more than %d clauses", ErrNoProof, limit)
				}
				m.nodes = append(m.nodes, r)
				done = append(done, false)
				if hit := m.target(len(m.nodes) - 1); hit != nil {
					return hit, nil
				}
			}
		}
	}
}

// target returns the nodes a contradiction cites if node i completes
// one: a clause the existential denies, or a unit opposite to another.
func (m *monadic) target(i int) []int {
	c := m.nodes[i].lits
	if m.exSen >= 0 {
		for _, l := range c {
			if !slices.Contains(m.exist, l.not()) {
				return nil
			}
		}
		return []int{i}
	}
	if len(c) != 1 {
		return nil
	}
	for j, n := range m.nodes {
		if len(n.lits) == 1 && n.lits[0] == c[0].not() {
			return []int{j, i}
		}
	}
	return nil
}

// resolvents chains nodes a and b on each complementary pair, leaving out
// tautologies and clauses an existing one subsumes.
func (m *monadic) resolvents(a, b int) []mnode {
	var out []mnode
	for _, l := range m.nodes[a].lits {
		if !slices.Contains(m.nodes[b].lits, l.not()) {
			continue
		}
		p, q := a, b
		if m.head(a) != l && m.head(b) == l.not() {
			p, q = b, a // read as: p says l, q uses it
		}
		lp := l
		if p != a {
			lp = l.not()
		}
		c := union(without(m.nodes[p].lits, lp), without(m.nodes[q].lits, lp.not()))
		if tautology(c) || m.subsumed(c) {
			continue
		}
		h := m.chooseHead(c, m.head(q), m.head(p))
		out = append(out, mnode{lits: append(without(c, h), h), formula: universalFormula(c, h),
			sentence: -1, parents: [2]int{min(a, b), max(a, b)}})
	}
	return out
}

func (m *monadic) head(i int) mlit { return m.nodes[i].lits[len(m.nodes[i].lits)-1] }

// chooseHead picks the literal a chained clause concludes: the used
// premise's conclusion, else the other's, preferring a positive one
// ("Every … is a q" reads more easily than "No … is a q").
func (m *monadic) chooseHead(c []mlit, prefs ...mlit) mlit {
	cands := append(slices.Clone(prefs), c...)
	for _, h := range cands {
		if slices.Contains(c, h) && !h.Neg {
			return h
		}
	}
	for _, h := range cands {
		if slices.Contains(c, h) {
			return h
		}
	}
	return c[len(c)-1]
}

func (m *monadic) subsumed(c []mlit) bool {
	for _, n := range m.nodes {
		if subset(n.lits, c) {
			return true
		}
	}
	return false
}

// proof writes the refutation ending in the contradiction of hit: the
// sentences used, the chains in the order they were found, the
// contradiction.
func (m *monadic) proof(lx *fragments.Lexicon, sentences []fragments.Sentence, mus []int, hit []int) (Proof, error) {
	need := map[int]bool{}
	var mark func(i int)
	mark = func(i int) {
		if need[i] {
			return
		}
		need[i] = true
		if m.nodes[i].sentence < 0 {
			mark(m.nodes[i].parents[0])
			mark(m.nodes[i].parents[1])
		}
	}
	for _, i := range hit {
		mark(i)
	}
	b := &builder{lx: lx, sentences: sentences}
	step := map[int]int{}
	exStep := -1
	for _, s := range mus {
		if s == m.exSen {
			exStep = b.given(s)
		}
		for i, n := range m.nodes {
			if need[i] && n.sentence == s {
				step[i] = b.given(s)
			}
		}
	}
	for i, n := range m.nodes {
		if need[i] && n.sentence < 0 {
			k, err := b.add(Step{Rule: Chain, Premises: sortedSteps(step[n.parents[0]], step[n.parents[1]]), Formula: n.formula})
			if err != nil {
				return Proof{}, err
			}
			step[i] = k
		}
	}
	var cited []int
	if exStep >= 0 {
		cited = append(cited, exStep)
	}
	for _, i := range hit {
		cited = append(cited, step[i])
	}
	b.contradiction(cited)
	return b.p, nil
}
