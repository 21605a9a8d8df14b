package native

import (
	"context"
	"slices"
)

// typer holds the state of the type search for one problem.
type typer[P pat] struct {
	ctx       context.Context
	n         *normal[P]
	nn        int
	np        uint64 // number of noun patterns, 2^nn
	nverbs    int
	mono0     bitset   // c-free patterns allowed by M
	monoc     []bitset // per c, patterns allowed by M for keys with c
	infos     infoCache[P]
	contains  map[guard[P]]bitset
	classes   []pclass[P] // c-free patterns of mono0 grouped by pair signature
	usig      []int32     // per c-free pattern of mono0, its signature; -1 elsewhere
	sigs      []*sigInfo[P]
	sigTab    sigTable
	arenas    arenas[P]
	ts        twoSAT
	nodes     int
	learnt    int // nogoods learnt by the lazy search
	processed int // members the lazy search's BUILD processed
	backjumps int // branches the lazy search skipped
	rounds    int // rounds of the lazy search's region loop
	maxNodes  int
	budget    int64         // bytes a model may take (0: no limit)
	cl        []*lclause[P] // the lifted closure; nil in ground mode
	lifted    bool
	liftQ     []*liftReq[P] // per requirement, built on first use
	tables    pairTables[P]
	cds       [][]blit // per ∀∀-clause, its D (for loadPair)
	scratch   scratch[P]
}

// kinfo is what the search needs to know of a key. Everything but k is
// shared by the keys of one signature.
type kinfo[P pat] struct {
	k    key[P]
	xs   []int  // ∀∀-clauses whose X applies
	xm   bitset // xs as a set
	ym   bitset // ∀∀-clauses whose Y applies
	reqs []int  // requirements whose X applies
	sig  int    // keys with equal sig have equal pair problems and requirements
}

// sigInfo is what keys of one signature share: their kinfo fields (proto
// is the kinfo of the first key met) and the eligible sets computed so
// far, per requirement of proto.reqs (by position).
type sigInfo[P pat] struct {
	proto kinfo[P]
	elig  []bitset
	done  []bool
	refl  int8    // whether (T1) holds without units: 0 unknown, 1 yes, 2 no
	lazy  []int32 // the lazy search's witInfo per requirement of proto.reqs, -1 unasked
}

// pclass is a set of c-free patterns with the same signature.
type pclass[P pat] struct {
	rep     *kinfo[P]
	members bitset
}

// newTyper prepares the search. With closureLimit > 0 pair questions are
// answered from the lifted closure while it has at most that many
// clauses, and by ground 2-SAT otherwise.
func newTyper[P pat](ctx context.Context, n *normal[P], maxNodes, closureLimit int) *typer[P] {
	return initTyper(new(typer[P]), ctx, n, maxNodes, closureLimit)
}

// initTyper is newTyper in t, whose buffers (from an earlier problem) are
// reused; nothing else of t survives.
func initTyper[P pat](t *typer[P], ctx context.Context, n *normal[P], maxNodes, closureLimit int) *typer[P] {
	old := *t
	*t = typer[P]{ctx: ctx, n: n, nn: len(n.nouns), nverbs: len(n.verbs), maxNodes: maxNodes,
		contains: old.contains, infos: old.infos, sigTab: old.sigTab, arenas: old.arenas,
		scratch: old.scratch, ts: old.ts, cds: old.cds, sigs: old.sigs[:0], classes: old.classes[:0], usig: old.usig, tables: old.tables}
	t.tables.init(n, t.nverbs)
	t.initCDs()
	if t.contains == nil {
		t.contains = map[guard[P]]bitset{}
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
func initLazyTyper[P pat](t *typer[P], ctx context.Context, n *normal[P], maxNodes int) *typer[P] {
	old := *t
	*t = typer[P]{ctx: ctx, n: n, nn: len(n.nouns), nverbs: len(n.verbs), maxNodes: maxNodes,
		contains: old.contains, infos: old.infos, sigTab: old.sigTab, arenas: old.arenas,
		scratch: old.scratch, ts: old.ts, cds: old.cds, sigs: old.sigs[:0], classes: old.classes[:0], usig: old.usig[:0], tables: old.tables}
	t.tables.init(n, t.nverbs)
	t.initCDs()
	t.sigTab.reset()
	t.arenas.reset()
	t.infos.init(t.nn, len(n.csrc))
	return t
}

// newSet returns an empty set of noun patterns, valid for this problem.
func (t *typer[P]) newSet() bitset {
	return t.arenas.words.take(int((t.np + 63) / 64))
}

// cloneSet returns a copy of b, valid for this problem.
func (t *typer[P]) cloneSet(b bitset) bitset {
	c := t.arenas.words.takeDirty(len(b))
	copy(c, b)
	return c
}

// allowed returns the patterns that keys with fresh predicate c may have.
func (t *typer[P]) allowed(c int) bitset {
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
			if u&g.mask[0] == g.val[0] { // the explicit search has few nouns
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

func (t *typer[P]) groupClasses() {
	idx := t.scratch.class[:0] // class index per signature, -1 for none
	defer func() { t.scratch.class = idx[:0] }()
	t.usig = slices.Grow(t.usig[:0], int(t.np))[:t.np]
	for i := range t.usig {
		t.usig[i] = -1
	}
	t.mono0.each(func(u uint64) bool {
		sig := t.sigOf(key[P]{pOf[P](u), -1})
		t.usig[u] = int32(sig)
		for len(idx) <= sig {
			idx = append(idx, -1)
		}
		i := idx[sig]
		if i < 0 {
			i = len(t.classes)
			idx[sig] = i
			t.classes = append(t.classes, pclass[P]{rep: t.info(key[P]{pOf[P](u), -1}), members: t.newSet()})
		}
		t.classes[i].members.add(u)
		return true
	})
}

// containsOf returns the c-free patterns g applies to (ignoring g.c).
func (t *typer[P]) containsOf(g guard[P]) bitset {
	g.c = -1
	if b, ok := t.contains[g]; ok {
		return b
	}
	b := t.newSet()
	for u := uint64(0); u < t.np; u++ {
		if u&g.mask[0] == g.val[0] { // the explicit search has few nouns
			b.add(u)
		}
	}
	t.contains[g] = b
	return b
}

// initCDs records the D of every ∀∀-clause in t.cds.
func (t *typer[P]) initCDs() {
	t.cds = t.cds[:0]
	for i := range t.n.cs {
		t.cds = append(t.cds, t.n.cs[i].d)
	}
}
