package split

import (
	"encoding/binary"
	"slices"

	"github.com/nlsat/nlsat/internal/textfeat"
)

// packedNumbers is a set of numbers of a pilot's pattern table, packed:
// in increasing order, each written as the uvarint of its difference from
// the one before (the first as itself). A pilot candidate of A shows some
// 400 patterns; their numbers held as uint32s were two thirds of what a
// pilot of 100,000 A candidates held when its fit began (183 MB), and
// packed they take about two bytes each, since the patterns a pilot shows
// most are numbered first. Nothing is lost: a candidate's patterns are a
// set, and its rows of a model's columns (Vocabulary numbers them in the
// order of the patterns) are in increasing order as well.
type packedNumbers []byte

// packNumbers sorts ids, distinct numbers, and returns them packed. The
// result is not nil, even for no numbers.
func packNumbers(ids []uint32) packedNumbers {
	slices.Sort(ids)
	size, prev := 0, uint32(0)
	for _, id := range ids {
		size += uvarintLen(uint64(id - prev))
		prev = id
	}
	out := make([]byte, 0, size)
	prev = 0
	for _, id := range ids {
		out = binary.AppendUvarint(out, uint64(id-prev))
		prev = id
	}
	return out
}

// uvarintLen is the number of bytes of binary.AppendUvarint's encoding
// of v.
func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// each calls f with each of p's numbers, in increasing order.
func (p packedNumbers) each(f func(id uint32)) {
	id := uint64(0)
	for len(p) > 0 {
		d, n := binary.Uvarint(p)
		if n <= 0 {
			panic("split: a corrupt set of packed pattern numbers")
		}
		id += d
		f(uint32(id))
		p = p[n:]
	}
}

// appendTo appends p's numbers to dst, in increasing order.
func (p packedNumbers) appendTo(dst []uint32) []uint32 {
	p.each(func(id uint32) { dst = append(dst, id) })
	return dst
}

// appendColumns appends to dst the columns of p's numbers that have one,
// in increasing order, and returns it. Where column numbers a model's
// columns in the order of their patterns (Vocabulary), that is the order
// of the patterns, the one PatternColumns.Append gives for the numbers of
// a set of patterns in their order.
func (p packedNumbers) appendColumns(dst []int32, column textfeat.PatternColumns) []int32 {
	n := len(dst)
	p.each(func(id uint32) {
		if c := column[id]; c >= 0 {
			dst = append(dst, c)
		}
	})
	slices.Sort(dst[n:])
	return dst
}
