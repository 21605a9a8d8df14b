package native

import "math/bits"

// A noun pattern is a set of nouns, one bit per noun, in an array of
// words. pat lists the widths the type search is compiled for: a problem
// of nn nouns runs with the narrowest array of at least nn bits (see
// Backend.solveWide), so the usual problems, of at most 64 nouns, run on
// one word (p1) and wider ones pay for their width only. Each width is
// its own instantiation of the search (arrays of different lengths have
// different shapes), with the operations below inlined; arrays rather
// than slices keep keys and guards comparable values, as map keys and
// with ==.
type pat interface {
	~[1]uint64 | ~[2]uint64 | ~[4]uint64 | ~[8]uint64 | ~[16]uint64 | ~[32]uint64 | ~[64]uint64 | ~[128]uint64
}

// p1 is the one-word pattern of problems of at most 64 nouns.
type p1 = [1]uint64

// maxPatternNouns is the most nouns the widest pattern holds.
const maxPatternNouns = 128 * 64

// patBits returns the number of nouns a P holds.
func patBits[P pat]() int {
	var p P
	return 64 * len(p)
}

// The operations on patterns. Each has a branch for one word, which the
// compiler resolves in the one-word instantiation, so that it compiles to
// the plain uint64 operation.

// pBit returns {i}.
func pBit[P pat](i int) P {
	var p P
	p[i/64] = 1 << (i % 64)
	return p
}

// pHas reports whether i is in p.
func pHas[P pat](p P, i int) bool { return p[i/64]&(1<<(i%64)) != 0 }

// pAnd returns a ∩ b.
func pAnd[P pat](a, b P) P {
	if len(a) == 1 {
		a[0] &= b[0]
		return a
	}
	for i := range len(a) {
		a[i] &= b[i]
	}
	return a
}

// pOr returns a ∪ b.
func pOr[P pat](a, b P) P {
	if len(a) == 1 {
		a[0] |= b[0]
		return a
	}
	for i := range len(a) {
		a[i] |= b[i]
	}
	return a
}

// pAndNot returns a \ b.
func pAndNot[P pat](a, b P) P {
	if len(a) == 1 {
		a[0] &^= b[0]
		return a
	}
	for i := range len(a) {
		a[i] &^= b[i]
	}
	return a
}

// pXor returns the symmetric difference of a and b.
func pXor[P pat](a, b P) P {
	if len(a) == 1 {
		a[0] ^= b[0]
		return a
	}
	for i := range len(a) {
		a[i] ^= b[i]
	}
	return a
}

// pEmpty reports whether p has no element.
func pEmpty[P pat](p P) bool {
	if len(p) == 1 {
		return p[0] == 0
	}
	for i := range len(p) {
		if p[i] != 0 {
			return false
		}
	}
	return true
}

// pMeets reports whether a and b have a common element.
func pMeets[P pat](a, b P) bool {
	if len(a) == 1 {
		return a[0]&b[0] != 0
	}
	for i := range len(a) {
		if a[i]&b[i] != 0 {
			return true
		}
	}
	return false
}

// pCount returns the number of elements of p.
func pCount[P pat](p P) int {
	if len(p) == 1 {
		return bits.OnesCount64(p[0])
	}
	n := 0
	for i := range len(p) {
		n += bits.OnesCount64(p[i])
	}
	return n
}

// pLowest returns the smallest element of p, which is not empty.
func pLowest[P pat](p P) int {
	if len(p) == 1 {
		return bits.TrailingZeros64(p[0])
	}
	for i := range len(p) {
		if p[i] != 0 {
			return 64*i + bits.TrailingZeros64(p[i])
		}
	}
	return 64 * len(p)
}

// pOne reports whether p has exactly one element.
func pOne[P pat](p P) bool {
	if len(p) == 1 {
		return p[0] != 0 && p[0]&(p[0]-1) == 0
	}
	return pCount(p) == 1
}

// pOf returns the pattern of the explicit search's pattern index u (its
// first word: the explicit search has few nouns).
func pOf[P pat](u uint64) P {
	var p P
	p[0] = u
	return p
}
