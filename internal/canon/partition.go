package canon

import (
	"cmp"
	"slices"
)

// part is an ordered partition of a graph's vertices. lab lists the
// vertices cell by cell; cell[v] is the position where v's cell starts,
// which is v's colour; size[p] is the size of the cell starting at p.
// Nouns always occupy positions 0…k−1 and verbs k…n−1: the initial cells
// separate them and refinement only splits cells.
type part struct {
	lab, cell, size []int32
	cells           int
}

func (p *part) resize(n int) {
	p.lab = slices.Grow(p.lab[:0], n)[:n]
	p.cell = slices.Grow(p.cell[:0], n)[:n]
	p.size = slices.Grow(p.size[:0], n)[:n]
}

// init makes p the partition into nouns and verbs.
func (p *part) init(k, n int) {
	p.resize(n)
	p.cells = 0
	for v := range n {
		p.lab[v] = int32(v)
		p.cell[v] = 0
		if v >= k {
			p.cell[v] = int32(k)
		}
	}
	if k > 0 {
		p.size[0] = int32(k)
		p.cells++
	}
	if n > k {
		p.size[k] = int32(n - k)
		p.cells++
	}
}

func (p *part) copyFrom(q *part) {
	p.resize(len(q.lab))
	copy(p.lab, q.lab)
	copy(p.cell, q.cell)
	copy(p.size, q.size)
	p.cells = q.cells
}

// target returns the first smallest cell with more than one vertex; p must
// not be discrete.
func (p *part) target() (start, size int32) {
	for i := int32(0); int(i) < len(p.lab); i += p.size[i] {
		if sz := p.size[i]; sz > 1 && (size == 0 || sz < size) {
			start, size = i, sz
		}
	}
	return start, size
}

// individualise splits v's cell into {v} followed by the rest.
func (p *part) individualise(v int32) {
	c := p.cell[v]
	sz := p.size[c]
	i := slices.Index(p.lab[c:c+sz], v)
	p.lab[c], p.lab[c+int32(i)] = v, p.lab[c]
	p.size[c], p.size[c+1] = 1, sz-1
	for _, u := range p.lab[c+1 : c+sz] {
		p.cell[u] = c + 1
	}
	p.cells++
}

// split splits every cell by sig, ordering the new cells by increasing
// sig, and reports whether any cell was split. It folds each split (where,
// into what sizes, with what signatures) into *trace.
func (p *part) split(sig []uint64, trace *uint64) bool {
	changed := false
	for i := int32(0); int(i) < len(p.lab); {
		sz := p.size[i]
		if sz > 1 && p.splitCell(i, sz, sig, trace) {
			changed = true
		}
		i += sz
	}
	return changed
}

func (p *part) splitCell(start, sz int32, sig []uint64, trace *uint64) bool {
	vs := p.lab[start : start+sz]
	sortBySig(vs, sig)
	if sig[vs[0]] == sig[vs[sz-1]] {
		return false
	}
	*trace = mix(*trace ^ uint64(start)<<32 ^ uint64(sz))
	run := start
	for j := int32(1); j <= sz; j++ {
		if j < sz && sig[vs[j]] == sig[vs[j-1]] {
			continue
		}
		p.size[run] = start + j - run
		for _, u := range p.lab[run : start+j] {
			p.cell[u] = run
		}
		*trace = mix(*trace ^ sig[vs[run-start]] + uint64(p.size[run]))
		if run != start {
			p.cells++
		}
		run = start + j
	}
	return true
}

func sortBySig(vs []int32, sig []uint64) {
	if len(vs) > 12 {
		slices.SortFunc(vs, func(a, b int32) int { return cmp.Compare(sig[a], sig[b]) })
		return
	}
	for i := 1; i < len(vs); i++ {
		for j := i; j > 0 && sig[vs[j]] < sig[vs[j-1]]; j-- {
			vs[j], vs[j-1] = vs[j-1], vs[j]
		}
	}
}
