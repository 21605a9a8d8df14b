package native

import (
	"slices"
	"sync"

	"github.com/nlsat/nlsat/internal/sat"
)

// infoCache maps keys to their kinfo: per fresh predicate a segment of a
// flat slice indexed by noun pattern when the pattern space is small, a
// map otherwise. The kinfos themselves come from slabs, to allocate them
// in bulk. Its memory is reused from problem to problem.
type infoCache[P pat] struct {
	flat  []*kinfo[P] // segment c+1 holds [u]; valid when ready[c+1]
	ready []bool
	np    int
	big   map[key[P]]*kinfo[P]
	slab  []kinfo[P]
}

// denseNouns bounds the nouns for which the cache uses slices.
const denseNouns = 12

func (c *infoCache[P]) init(nn, nc int) {
	c.slab = c.slab[:0]
	if nn > denseNouns {
		c.big = map[key[P]]*kinfo[P]{}
		return
	}
	c.big = nil
	c.np = 1 << nn
	if n := (nc + 1) * c.np; cap(c.flat) < n {
		c.flat = make([]*kinfo[P], n)
	} else {
		c.flat = c.flat[:n]
	}
	c.ready = slices.Grow(c.ready[:0], nc+1)[:nc+1]
	clear(c.ready)
}

func (c *infoCache[P]) get(k key[P]) *kinfo[P] {
	if c.big != nil {
		return c.big[k]
	}
	if i := k.c + 1; c.ready[i] {
		return c.flat[i*c.np+int(k.u[0])] // k.u < 2^denseNouns
	}
	return nil
}

func (c *infoCache[P]) put(k key[P], ki *kinfo[P]) {
	if c.big != nil {
		c.big[k] = ki
		return
	}
	i := k.c + 1
	seg := c.flat[i*c.np : (i+1)*c.np]
	if !c.ready[i] {
		clear(seg)
		c.ready[i] = true
	}
	seg[k.u[0]] = ki
}

// alloc returns a fresh kinfo from the current slab.
func (c *infoCache[P]) alloc() *kinfo[P] {
	if len(c.slab) == cap(c.slab) {
		c.slab = make([]kinfo[P], 0, min(max(16, 2*cap(c.slab)), 256))
	}
	c.slab = c.slab[:len(c.slab)+1]
	return &c.slab[len(c.slab)-1]
}

// scratch holds buffers reused within one search, so the hot paths do not
// allocate.
type scratch[P pat] struct {
	sig      []uint64     // info's signature
	guards   []guard[P]   // monoFor's output
	pcs      []pclause    // pairSAT's ground clauses
	need     []int        // viable's requirements witnessed by the key itself
	units    []blit       // viable's unit literals
	rel      []byte       // eligibleGround's pair-problem key
	memo     []int8       // candidates' viability per signature: 0 unknown, 1 yes, 2 no
	byD      [][]gpair[P] // closure's subsumption index
	class    []int        // groupClasses' class per signature
	conflict []pclause    // conflict's minimal unsatisfiable set
}

// workspace is the memory one Solve call works in. Workspaces are reused,
// so a call reuses the buffers of an earlier one instead of allocating;
// each call has its own workspace, so Backend stays safe for concurrent
// use. Nothing a call returns points into its workspace.
type workspace[P pat] struct {
	slab   nodeSlab
	shapes shapeCache
	norm   normal[P]
	t      typer[P]
	sat    sat.Solver
	lz     lazy[P]
}

// workspaces is a free list of workspaces. Unlike a sync.Pool it is not
// emptied by the garbage collector, which at the rate Solve is called in
// bulk runs would otherwise throw the buffers away every few calls; it
// holds as many workspaces as calls ever ran at once.
var workspaces freeList[workspace[p1]]

// freeList is a mutex-protected stack of reusable values.
type freeList[T any] struct {
	mu   sync.Mutex
	free []*T
}

// get returns a free value, or a new one.
func (f *freeList[T]) get() *T {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := len(f.free); n > 0 {
		v := f.free[n-1]
		f.free = f.free[:n-1]
		return v
	}
	return new(T)
}

// put makes v free again.
func (f *freeList[T]) put(v *T) {
	f.mu.Lock()
	f.free = append(f.free, v)
	f.mu.Unlock()
}

// arena hands out slices of a few large allocations.
type arena[T any] struct {
	buf []T
}

// take returns a zeroed slice of n elements with capacity n.
func (a *arena[T]) take(n int) []T {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]T, 0, max(n, min(max(16, 2*cap(a.buf)), 1024)))
	}
	l := len(a.buf)
	a.buf = a.buf[:l+n]
	out := a.buf[l : l+n : l+n]
	clear(out) // the chunk may be reused from an earlier problem
	return out
}

// takeDirty is take without the zeroing, for callers that overwrite
// every element before reading it.
func (a *arena[T]) takeDirty(n int) []T {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]T, 0, max(n, min(max(16, 2*cap(a.buf)), 1024)))
	}
	l := len(a.buf)
	a.buf = a.buf[:l+n]
	return a.buf[l : l+n : l+n]
}

// reset makes the current chunk reusable. Only for a new problem: the
// slices handed out before must no longer be used.
func (a *arena[T]) reset() { a.buf = a.buf[:0] }

// arenas are the typer's arenas.
type arenas[P pat] struct {
	words   arena[uint64]
	ints    arena[int]
	bitsets arena[bitset]
	bools   arena[bool]
	sigs    arena[sigInfo[P]]
}

func (a *arenas[P]) reset() {
	a.words.reset()
	a.ints.reset()
	a.bitsets.reset()
	a.bools.reset()
	a.sigs.reset()
}
