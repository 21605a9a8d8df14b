package native

import "slices"

// A signature says, for every ∀∀-clause, whether its X and its Y apply
// to a key, and the same for every requirement: four bit vectors, stored
// back to back as words (see sigLayout).

// sigLayout returns the number of words of each of a signature's four
// vectors: clauses (X, then Y), then requirements (X, then Y).
func (t *typer[P]) sigLayout() (wc, wq int) {
	return (len(t.n.cs) + 63) / 64, (len(t.n.qs) + 63) / 64
}

// info returns the (cached) kinfo of k.
func (t *typer[P]) info(k key[P]) *kinfo[P] {
	if ki := t.infos.get(k); ki != nil {
		return ki
	}
	id := -1
	if k.c < 0 && k.u[0] < uint64(len(t.usig)) { // usig is empty but in the explicit search, of few nouns
		id = int(t.usig[k.u[0]])
	}
	if id < 0 {
		id = t.sigOf(k)
	}
	var ki *kinfo[P]
	if p := &t.sigs[id].proto; p.k == k {
		ki = p
	} else {
		ki = t.infos.alloc()
		*ki = *p
		ki.k = k
	}
	t.infos.put(k, ki)
	return ki
}

// sigOf returns the index of k's signature, registering it (with k as
// its first key) when it is new.
func (t *typer[P]) sigOf(k key[P]) int {
	wc, wq := t.sigLayout()
	sig := slices.Grow(t.scratch.sig[:0], 2*(wc+wq))[:2*(wc+wq)]
	clear(sig)
	xm, ym, rx, ry := sig[:wc], sig[wc:2*wc], sig[2*wc:2*wc+wq], sig[2*wc+wq:]
	for i := range t.n.cs {
		c := &t.n.cs[i]
		xm[i/64] |= b2u(c.x.applies(k)) << (i % 64)
		ym[i/64] |= b2u(c.y.applies(k)) << (i % 64)
	}
	for j := range t.n.qs {
		q := &t.n.qs[j]
		rx[j/64] |= b2u(q.x.applies(k)) << (j % 64)
		ry[j/64] |= b2u(q.y.applies(k)) << (j % 64)
	}
	t.scratch.sig = sig
	id, fresh := t.sigID(sig)
	if fresh {
		t.sigs[id].proto.k = k
	}
	return id
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// sigID returns the index of signature sig; fresh is true when it is new
// (it is then registered).
func (t *typer[P]) sigID(sig []uint64) (id int, fresh bool) {
	h := uint64(14695981039346656037)
	for _, w := range sig {
		h = (h ^ w) * 1099511628211
		h ^= h >> 29
	}
	if id, ok := t.sigTab.find(h, sig); ok {
		return id, false
	}
	id = len(t.sigs)
	t.sigTab.insert(h, sig, id)
	t.sigs = append(t.sigs, t.newSig(id, sig))
	return id, true
}

// newSig builds the shared part of the kinfos of signature sig.
func (t *typer[P]) newSig(id int, sig []uint64) *sigInfo[P] {
	wc, wq := t.sigLayout()
	bits := t.arenas.words.takeDirty(2 * wc)
	copy(bits, sig[:2*wc])
	si := t.arenas.sigs.takeDirty(1)
	si[0] = sigInfo[P]{proto: kinfo[P]{xm: bits[:wc:wc], ym: bits[wc:], sig: id}}
	p := &si[0].proto
	rx := bitset(sig[2*wc : 2*wc+wq])
	nx, nr := p.xm.count(), rx.count()
	if nx+nr > 0 {
		ints := t.arenas.ints.takeDirty(nx + nr)[:0]
		p.xm.each(func(i uint64) bool {
			ints = append(ints, int(i))
			return true
		})
		rx.each(func(j uint64) bool {
			ints = append(ints, int(j))
			return true
		})
		if nx > 0 {
			p.xs = ints[:nx:nx]
		}
		if nr > 0 {
			p.reqs = ints[nx : nx+nr : nx+nr]
		}
	}
	si[0].elig = t.arenas.bitsets.takeDirty(nr) // valid where done
	si[0].done = t.arenas.bools.take(nr)
	return &si[0]
}

// sigTable is an open-addressing hash table from signatures to their
// indices; the signatures themselves are stored back to back.
type sigTable struct {
	slots  []int32 // index+1; 0 is empty
	hashes []uint64
	words  []uint64
}

// reset empties the table, keeping its memory.
func (s *sigTable) reset() {
	clear(s.slots)
	s.hashes, s.words = s.hashes[:0], s.words[:0]
}

func (s *sigTable) find(h uint64, sig []uint64) (int, bool) {
	if len(s.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := s.slots[i]
		if v == 0 {
			return 0, false
		}
		id := int(v - 1)
		if s.hashes[id] == h && slices.Equal(s.words[id*len(sig):(id+1)*len(sig)], sig) {
			return id, true
		}
	}
}

func (s *sigTable) insert(h uint64, sig []uint64, id int) {
	s.hashes = append(s.hashes, h)
	s.words = append(s.words, sig...)
	if 2*len(s.hashes) > len(s.slots) {
		size := 64 // a power of two, at least twice the entries
		for size < 4*len(s.hashes) {
			size *= 2
		}
		s.slots = make([]int32, size)
		for j, hj := range s.hashes {
			s.place(hj, j)
		}
		return
	}
	s.place(h, id)
}

func (s *sigTable) place(h uint64, id int) {
	mask := uint64(len(s.slots) - 1)
	i := h & mask
	for s.slots[i] != 0 {
		i = (i + 1) & mask
	}
	s.slots[i] = int32(id + 1)
}
