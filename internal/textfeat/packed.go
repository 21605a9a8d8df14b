package textfeat

import (
	"encoding/binary"
	"slices"
)

// PackedNumbers is a set of numbers of a PatternTable, packed: in
// increasing order, each written as the uvarint of its difference from
// the one before (the first as itself). An A instance shows some 400
// patterns; held as uint32s their numbers were most of what a pilot of
// 100,000 candidates held when its fit began (183 MB) and a third of
// what the audit of 120,000 records held, and packed they take about two
// bytes each, since a table numbers the patterns most shown first.
// Nothing is lost: an instance's patterns are a set, and its row of a
// model's columns (Vocabulary numbers them in the order of the patterns)
// is in increasing order as well (AppendColumns).
type PackedNumbers []byte

// PackNumbers sorts ids, distinct numbers, and returns them packed, in
// room of its size. The result is not nil, even for no numbers.
func PackNumbers(ids []uint32) PackedNumbers {
	slices.Sort(ids)
	return AppendPacked(make([]byte, 0, PackedSize(ids)), ids)
}

// AppendPacked appends ids, distinct numbers in increasing order, packed,
// to dst.
func AppendPacked(dst []byte, ids []uint32) []byte {
	prev := uint32(0)
	for _, id := range ids {
		dst = binary.AppendUvarint(dst, uint64(id-prev))
		prev = id
	}
	return dst
}

// PackedSize is the number of bytes ids, distinct numbers in increasing
// order, take packed.
func PackedSize(ids []uint32) int {
	size, prev := 0, uint32(0)
	for _, id := range ids {
		for v := id - prev; ; v >>= 7 {
			size++
			if v < 0x80 {
				break
			}
		}
		prev = id
	}
	return size
}

// each calls f with each of p's numbers, in increasing order.
func (p PackedNumbers) each(f func(id uint32)) {
	id := uint64(0)
	for len(p) > 0 {
		d, n := binary.Uvarint(p)
		if n <= 0 {
			panic("textfeat: a corrupt set of packed pattern numbers")
		}
		id += d
		f(uint32(id))
		p = p[n:]
	}
}

// AppendTo appends p's numbers to dst, in increasing order.
func (p PackedNumbers) AppendTo(dst []uint32) []uint32 {
	p.each(func(id uint32) { dst = append(dst, id) })
	return dst
}

// AppendColumns appends to dst the columns of p's numbers that have one,
// in increasing order, and returns it. Where c numbers a model's columns
// in the order of their patterns (Vocabulary), that is the order of the
// patterns, the one Append gives for the numbers of a set of patterns in
// their order.
func (p PackedNumbers) AppendColumns(dst []int32, c PatternColumns) []int32 {
	n := len(dst)
	p.each(func(id uint32) {
		if col := c[id]; col >= 0 {
			dst = append(dst, col)
		}
	})
	slices.Sort(dst[n:])
	return dst
}
