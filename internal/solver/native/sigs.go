package native

// info returns the (cached) kinfo of k.
func (t *typer) info(k key) *kinfo {
	if ki := t.infos.get(k); ki != nil {
		return ki
	}
	sig := t.scratch.sig[:0]
	for _, c := range t.n.cs {
		sig = append(sig, sigByte(c.x, c.y, k))
	}
	for _, q := range t.n.qs {
		sig = append(sig, sigByte(q.x, q.y, k))
	}
	t.scratch.sig = sig
	id, fresh := t.sigID(sig)
	var ki *kinfo
	if fresh {
		ki = &t.sigs[id].proto
		ki.k = k
	} else {
		ki = t.infos.alloc()
		*ki = t.sigs[id].proto
		ki.k = k
	}
	t.infos.put(k, ki)
	return ki
}

// sigByte is '0' plus 1 if x applies to k, plus 2 if y does.
func sigByte(x, y guard, k key) byte {
	var b byte = '0'
	if x.applies(k) {
		b = '1'
	}
	if y.applies(k) {
		b += 2
	}
	return b
}

// sigID returns the index of signature sig; fresh is true when it is new
// (it is then registered).
func (t *typer) sigID(sig []byte) (id int, fresh bool) {
	h := uint64(14695981039346656037) // FNV-1a
	for _, b := range sig {
		h = (h ^ uint64(b)) * 1099511628211
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
func (t *typer) newSig(id int, sig []byte) *sigInfo {
	ncs := len(t.n.cs)
	w := (ncs + 63) / 64
	bits := t.arenas.words.take(2 * w)
	si := t.arenas.sigs.takeDirty(1)
	si[0] = sigInfo{proto: kinfo{xm: bits[:w:w], ym: bits[w:], sig: id}}
	p := &si[0].proto
	var nx, nr int
	for i, b := range sig[:ncs] {
		if b&1 != 0 {
			nx++
			p.xm.add(uint64(i))
		}
		if b >= '2' {
			p.ym.add(uint64(i))
		}
	}
	for _, b := range sig[ncs:] {
		if b&1 != 0 {
			nr++
		}
	}
	if nx+nr > 0 {
		ints := t.arenas.ints.take(nx + nr)[:0]
		for i, b := range sig[:ncs] {
			if b&1 != 0 {
				ints = append(ints, i)
			}
		}
		for j, b := range sig[ncs:] {
			if b&1 != 0 {
				ints = append(ints, j)
			}
		}
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
	bytes  []byte
}

// reset empties the table, keeping its memory.
func (s *sigTable) reset() {
	clear(s.slots)
	s.hashes, s.bytes = s.hashes[:0], s.bytes[:0]
}

func (s *sigTable) find(h uint64, sig []byte) (int, bool) {
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
		if s.hashes[id] == h && string(s.bytes[id*len(sig):(id+1)*len(sig)]) == string(sig) {
			return id, true
		}
	}
}

func (s *sigTable) insert(h uint64, sig []byte, id int) {
	s.hashes = append(s.hashes, h)
	s.bytes = append(s.bytes, sig...)
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
type arenas struct {
	words   arena[uint64]
	ints    arena[int]
	bitsets arena[bitset]
	bools   arena[bool]
	sigs    arena[sigInfo]
}

func (a *arenas) reset() {
	a.words.reset()
	a.ints.reset()
	a.bitsets.reset()
	a.bools.reset()
	a.sigs.reset()
}
