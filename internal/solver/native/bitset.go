package native

import "math/bits"

// bitset is a set of noun patterns (or of small integers).
type bitset []uint64

func (b bitset) has(i uint64) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) add(i uint64)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) del(i uint64)      { b[i/64] &^= 1 << (i % 64) }

func (b bitset) empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

// count returns the number of elements of b.
func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// intersects reports whether b and c share an element.
func (b bitset) intersects(c bitset) bool {
	for i, w := range b {
		if w&c[i] != 0 {
			return true
		}
	}
	return false
}

// andNot removes c's elements from b in place.
func (b bitset) andNot(c bitset) {
	for i := range b {
		b[i] &^= c[i]
	}
}

// each calls fn on the elements of b in increasing order until fn returns
// false.
func (b bitset) each(fn func(uint64) bool) {
	for i, w := range b {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			if !fn(uint64(i*64 + t)) {
				return
			}
			w &= w - 1
		}
	}
}

// first returns the least element of b ∩ c, or ok = false.
func (b bitset) first(c bitset) (uint64, bool) {
	for i, w := range b {
		if w &= c[i]; w != 0 {
			return uint64(i*64 + bits.TrailingZeros64(w)), true
		}
	}
	return 0, false
}
