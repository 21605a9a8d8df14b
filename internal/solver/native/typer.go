package native

import (
	"context"
	"slices"
)

// typer holds the state of the type search for one problem.
type typer struct {
	ctx       context.Context
	n         *normal
	nn        int
	np        uint64 // number of noun patterns, 2^nn
	nverbs    int
	mono0     bitset   // c-free patterns allowed by M
	monoc     []bitset // per c, patterns allowed by M for keys with c
	infos     infoCache
	contains  map[guard]bitset
	classes   []pclass // c-free patterns of mono0 grouped by pair signature
	usig      []int32  // per c-free pattern of mono0, its signature; -1 elsewhere
	sigs      []*sigInfo
	sigTab    sigTable
	arenas    arenas
	ts        twoSAT
	nodes     int
	learnt    int // nogoods learnt by the lazy search
	backjumps int // branches the lazy search skipped
	maxNodes  int
	budget    int64      // bytes a model may take (0: no limit)
	cl        []*lclause // the lifted closure; nil in ground mode
	lifted    bool
	liftQ     []*liftReq // per requirement, built on first use
	tables    pairTables
	scratch   scratch
}

// kinfo is what the search needs to know of a key. Everything but k is
// shared by the keys of one signature.
type kinfo struct {
	k    key
	xs   []int  // ∀∀-clauses whose X applies
	xm   bitset // xs as a set
	ym   bitset // ∀∀-clauses whose Y applies
	reqs []int  // requirements whose X applies
	sig  int    // keys with equal sig have equal pair problems and requirements
}

// sigInfo is what keys of one signature share: their kinfo fields (proto
// is the kinfo of the first key met) and the eligible sets computed so
// far, per requirement of proto.reqs (by position).
type sigInfo struct {
	proto kinfo
	elig  []bitset
	done  []bool
	refl  int8    // whether (T1) holds without units: 0 unknown, 1 yes, 2 no
	lazy  []int32 // the lazy search's witInfo per requirement of proto.reqs, -1 unasked
}

// pclass is a set of c-free patterns with the same signature.
type pclass struct {
	rep     *kinfo
	members bitset
}

// newTyper prepares the search. With closureLimit > 0 pair questions are
// answered from the lifted closure while it has at most that many
// clauses, and by ground 2-SAT otherwise.
func newTyper(ctx context.Context, n *normal, maxNodes, closureLimit int) *typer {
	return initTyper(new(typer), ctx, n, maxNodes, closureLimit)
}

// initTyper is newTyper in t, whose buffers (from an earlier problem) are
// reused; nothing else of t survives.
func initTyper(t *typer, ctx context.Context, n *normal, maxNodes, closureLimit int) *typer {
	old := *t
	*t = typer{ctx: ctx, n: n, nn: len(n.nouns), nverbs: len(n.verbs), maxNodes: maxNodes,
		contains: old.contains, infos: old.infos, sigTab: old.sigTab, arenas: old.arenas,
		scratch: old.scratch, ts: old.ts, sigs: old.sigs[:0], classes: old.classes[:0], usig: old.usig, tables: old.tables}
	t.tables.init(n, t.nverbs)
	if t.contains == nil {
		t.contains = map[guard]bitset{}
	}
	clear(t.contains)
	t.sigTab.reset()
	t.arenas.reset()
	t.np = 1 << t.nn
	t.infos.init(t.nn, len(n.csrc))
	t.mono0 = t.allowed(-1)
	for c := range n.csrc {
		t.monoc = append(t.monoc, t.allowed(c))
	}
	t.groupClasses()
	if closureLimit > 0 {
		t.cl, t.lifted = t.closure(closureLimit)
	}
	return t
}

// initLazyTyper prepares t for the lazy search: only the per-key caches,
// none of the explicit pattern space.
func initLazyTyper(t *typer, ctx context.Context, n *normal, maxNodes int) *typer {
	old := *t
	*t = typer{ctx: ctx, n: n, nn: len(n.nouns), nverbs: len(n.verbs), maxNodes: maxNodes,
		contains: old.contains, infos: old.infos, sigTab: old.sigTab, arenas: old.arenas,
		scratch: old.scratch, ts: old.ts, sigs: old.sigs[:0], classes: old.classes[:0], usig: old.usig[:0], tables: old.tables}
	t.tables.init(n, t.nverbs)
	t.sigTab.reset()
	t.arenas.reset()
	t.infos.init(t.nn, len(n.csrc))
	return t
}

// newSet returns an empty set of noun patterns, valid for this problem.
func (t *typer) newSet() bitset {
	return t.arenas.words.take(int((t.np + 63) / 64))
}

// cloneSet returns a copy of b, valid for this problem.
func (t *typer) cloneSet(b bitset) bitset {
	c := t.arenas.words.takeDirty(len(b))
	copy(c, b)
	return c
}

// allowed returns the patterns that keys with fresh predicate c may have.
func (t *typer) allowed(c int) bitset {
	if c >= 0 {
		// M's clauses for c are mono0's plus c's own.
		b := t.cloneSet(t.mono0)
		for _, g := range t.n.mono {
			if g.c == c {
				b.andNot(t.containsOf(g))
			}
		}
		return b
	}
	b := t.newSet()
	forbid := monoFor(t.n, c, t.scratch.guards[:0])
	t.scratch.guards = forbid[:0]
	for u := uint64(0); u < t.np; u++ {
		ok := true
		for _, g := range forbid {
			if u&g.mask == g.val {
				ok = false
				break
			}
		}
		if ok {
			b.add(u)
		}
	}
	return b
}

func (t *typer) groupClasses() {
	idx := t.scratch.class[:0] // class index per signature, -1 for none
	defer func() { t.scratch.class = idx[:0] }()
	t.usig = slices.Grow(t.usig[:0], int(t.np))[:t.np]
	for i := range t.usig {
		t.usig[i] = -1
	}
	t.mono0.each(func(u uint64) bool {
		sig := t.sigOf(key{u, -1})
		t.usig[u] = int32(sig)
		for len(idx) <= sig {
			idx = append(idx, -1)
		}
		i := idx[sig]
		if i < 0 {
			i = len(t.classes)
			idx[sig] = i
			t.classes = append(t.classes, pclass{rep: t.info(key{u, -1}), members: t.newSet()})
		}
		t.classes[i].members.add(u)
		return true
	})
}

// containsOf returns the c-free patterns g applies to (ignoring g.c).
func (t *typer) containsOf(g guard) bitset {
	g.c = -1
	if b, ok := t.contains[g]; ok {
		return b
	}
	b := t.newSet()
	for u := uint64(0); u < t.np; u++ {
		if u&g.mask == g.val {
			b.add(u)
		}
	}
	t.contains[g] = b
	return b
}
