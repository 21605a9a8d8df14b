package canon

import "slices"

// maxAuts bounds the automorphisms kept for orbit pruning; dropping one
// only prunes less.
const maxAuts = 64

// leaf is a discrete partition kept for comparison: its encoding, its
// labelling, the vertices individualised on the way to it and the traces
// of the nodes on the way.
type leaf struct {
	codes []uint64
	lab   []int32
	path  []int32
	trace []uint64
}

func (l *leaf) set(codes []uint64, lab, path []int32, trace []uint64) {
	l.codes = append(l.codes[:0], codes...)
	l.lab = append(l.lab[:0], lab...)
	l.path = append(l.path[:0], path...)
	l.trace = append(l.trace[:0], trace...)
}

// orbits caches, for one level of the search, the orbits of the
// automorphisms found so far that fix the level's individualised vertices.
type orbits struct {
	uf    []int32
	nAuts int // automorphisms the cache was computed from; -1 when stale
}

// searcher holds the state of one canonical-form search; it is reused
// through a pool, so its slices keep their capacity between calls.
type searcher struct {
	g           graph
	levels      []part    // levels[d]: the partition at depth d
	tried       [][]int32 // tried[d]: children searched at depth d
	orbits      []orbits
	path        []int32  // the vertices individualised, by depth
	trace       []uint64 // trace[d]: the trace of the node at depth d on the path
	auts        [][]int32
	num         []int32  // scratch: a number per vertex
	sig         []uint64 // scratch: a refinement signature per vertex
	cur         []uint64 // scratch: sentence codes
	first, best leaf
	haveLeaf    bool
	nodes       int
	leaves      int
	maxNodes    int
	capped      bool
}

// run searches g's tree and leaves the canonical encoding in s.best.
func (s *searcher) run(maxNodes int) {
	s.nodes, s.leaves, s.maxNodes, s.capped, s.haveLeaf = 1, 0, maxNodes, false, false
	s.auts = s.auts[:0]
	s.path = s.path[:0]
	n := s.g.n
	s.num = slices.Grow(s.num[:0], n)[:n]
	s.sig = slices.Grow(s.sig[:0], n)[:n]
	s.level(n + 1) // the depth is at most n; levels must not move during the search
	s.levels[0].init(s.g.k, n)
	s.trace = append(s.trace[:0], s.refine(&s.levels[0], 0))
	s.search(0)
}

// level makes sure the buffers for depth d exist.
func (s *searcher) level(d int) {
	for len(s.levels) <= d {
		s.levels = append(s.levels, part{})
		s.tried = append(s.tried, nil)
		s.orbits = append(s.orbits, orbits{})
	}
}

// search explores the node at depth d, whose refined partition is
// levels[d]. It returns the depth at which the search goes on: d−1 after
// a full search, less when an automorphism shows that the rest of an
// ancestor's subtree repeats what was seen, −1 when the cap was hit.
func (s *searcher) search(d int) int {
	p := &s.levels[d]
	if p.cells == s.g.n {
		return s.leaf(d)
	}
	if s.haveLeaf && worse(s.trace[:d+1], s.best.trace) {
		return d - 1
	}
	start, size := p.target()
	s.orbits[d].nAuts = -1
	s.tried[d] = s.tried[d][:0]
	for _, v := range p.lab[start : start+size] {
		if s.sameOrbit(d, v) {
			continue
		}
		if s.nodes >= s.maxNodes {
			s.capped = true
			return -1
		}
		s.nodes++
		s.tried[d] = append(s.tried[d], v)
		q := &s.levels[d+1]
		q.copyFrom(p)
		q.individualise(v)
		s.trace = append(s.trace[:d+1], s.refine(q, uint64(start)<<32|uint64(size)))
		s.path = append(s.path[:d], v)
		if back := s.search(d + 1); back < d {
			return back
		}
	}
	return d - 1
}

// worse reports whether every leaf below a node whose path has the traces
// tr comes after a leaf with the traces best: leaves are ordered by their
// sequence of traces (a proper prefix first), then by encoding, and every
// leaf below the node has a sequence longer than tr.
func worse(tr, best []uint64) bool {
	n := min(len(tr), len(best))
	if c := slices.Compare(tr[:n], best[:n]); c != 0 {
		return c > 0
	}
	return len(tr) >= len(best)
}

// refine refines p to a partition that hashing neighbourhoods cannot split
// further: a vertex's signature is the multiset of (colour of sentence,
// role) over its occurrences, a sentence's colour being its code with each
// word replaced by its cell. It returns a trace of the refinement, a hash
// of seed and of every split. Everything is computed from colours, so
// refinement and trace commute with isomorphisms.
func (s *searcher) refine(p *part, seed uint64) uint64 {
	g := &s.g
	trace := mix(seed)
	for p.cells < g.n {
		for v := range g.n {
			s.num[v] = p.cell[v]
			if v >= g.k {
				s.num[v] -= int32(g.k)
			}
		}
		s.cur = g.encode(s.cur, s.num)
		for v := range g.n {
			if p.size[p.cell[v]] == 1 {
				continue
			}
			var sum uint64
			for _, o := range g.occ[g.occStart[v]:g.occStart[v+1]] {
				sum += mix(s.cur[o>>3] + uint64(o&7)*0x9e3779b97f4a7c15)
			}
			s.sig[v] = sum
		}
		if !p.split(s.sig, &trace) {
			break
		}
	}
	return mix(trace ^ uint64(p.cells))
}

// mix is the finaliser of SplitMix64, a bijection of uint64.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// leaf handles the discrete partition at depth d: it encodes the sentences
// under it and keeps the least leaf (by traces, then encoding), and turns
// an encoding equal to the first or best leaf's into an automorphism and a
// jump back to where the two paths part.
func (s *searcher) leaf(d int) int {
	p, g := &s.levels[d], &s.g
	s.leaves++
	for i, v := range p.lab {
		s.num[v] = int32(i)
		if i >= g.k {
			s.num[v] -= int32(g.k)
		}
	}
	s.cur = g.encode(s.cur, s.num)
	slices.Sort(s.cur)
	path, trace := s.path[:d], s.trace[:d+1]
	if !s.haveLeaf {
		s.haveLeaf = true
		s.first.set(s.cur, p.lab, path, trace)
		s.best.set(s.cur, p.lab, path, trace)
		return d - 1
	}
	if slices.Equal(s.cur, s.first.codes) {
		s.addAut(p.lab, s.first.lab)
		return commonPrefix(path, s.first.path)
	}
	c := slices.Compare(trace, s.best.trace)
	if c == 0 {
		c = slices.Compare(s.cur, s.best.codes)
	}
	switch c {
	case -1:
		s.best.set(s.cur, p.lab, path, trace)
	case 0:
		s.addAut(p.lab, s.best.lab)
		return commonPrefix(path, s.best.path)
	}
	return d - 1
}

func commonPrefix(a, b []int32) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// addAut records the automorphism mapping the vertex at each position of
// from to the vertex at the same position of to.
func (s *searcher) addAut(from, to []int32) {
	if len(s.auts) == maxAuts {
		return
	}
	n := len(from)
	var gamma []int32
	if len(s.auts) < cap(s.auts) {
		gamma = s.auts[:len(s.auts)+1][len(s.auts)]
	}
	gamma = slices.Grow(gamma[:0], n)[:n]
	for i, v := range from {
		gamma[v] = to[i]
	}
	s.auts = append(s.auts, gamma)
}

// sameOrbit reports whether v is mapped onto a child already tried at
// depth d by the group generated by the automorphisms found that fix the
// vertices individualised above depth d.
func (s *searcher) sameOrbit(d int, v int32) bool {
	tried := s.tried[d]
	if len(s.auts) == 0 || len(tried) == 0 {
		return false
	}
	o := &s.orbits[d]
	if o.nAuts != len(s.auts) {
		s.computeOrbits(o, s.path[:d])
	}
	r := find(o.uf, v)
	for _, u := range tried {
		if find(o.uf, u) == r {
			return true
		}
	}
	return false
}

func (s *searcher) computeOrbits(o *orbits, fixed []int32) {
	n := s.g.n
	o.uf = slices.Grow(o.uf[:0], n)[:n]
	for v := range o.uf {
		o.uf[v] = int32(v)
	}
	o.nAuts = len(s.auts)
	for _, gamma := range s.auts {
		if !fixes(gamma, fixed) {
			continue
		}
		for v, w := range gamma {
			a, b := find(o.uf, int32(v)), find(o.uf, w)
			if a != b {
				o.uf[max(a, b)] = min(a, b)
			}
		}
	}
}

func fixes(gamma, vs []int32) bool {
	for _, v := range vs {
		if gamma[v] != v {
			return false
		}
	}
	return true
}

func find(uf []int32, v int32) int32 {
	for uf[v] != v {
		uf[v] = uf[uf[v]]
		v = uf[v]
	}
	return v
}
