package learn

import (
	"fmt"
	"slices"
)

// PackedColumns are a row's columns, in increasing order, in about half
// the memory of []int32: each column as its difference from the one
// before (the first as itself) in one uint16, or, for a difference of
// 0xFFFF or more, 0xFFFF and then the difference in two more, low half
// first. The rows of a sparse model over some 400,000 sentence-pair
// patterns, about 300 columns each, have differences of a few thousand.
type PackedColumns []uint16

// PackColumns returns cols, which must increase, packed, in room of its
// size.
func PackColumns(cols []int32) PackedColumns {
	size, prev := 0, int32(0)
	for k, c := range cols {
		if c < prev || (k > 0 && c == prev) {
			panic(fmt.Sprintf("learn: packed columns must increase: %d after %d", c, prev))
		}
		size++
		if c-prev >= 0xFFFF {
			size += 2
		}
		prev = c
	}
	out := make(PackedColumns, 0, size)
	prev = 0
	for _, c := range cols {
		if d := uint32(c - prev); d >= 0xFFFF {
			out = append(out, 0xFFFF, uint16(d), uint16(d>>16))
		} else {
			out = append(out, uint16(d))
		}
		prev = c
	}
	return out
}

// AppendTo appends p's columns to dst, in order, and returns it.
func (p PackedColumns) AppendTo(dst []int32) []int32 {
	n := len(dst)
	dst = slices.Grow(dst, len(p))
	out := dst[n : n+len(p)]
	c, k, q := uint32(0), 0, 0
	for q < len(p) {
		// Four short differences at once, their sums in turn: the
		// common case, without a test between them.
		if q+4 <= len(p) && k+4 <= len(out) {
			d := p[q : q+4 : q+4]
			if d[0] != 0xFFFF && d[1] != 0xFFFF && d[2] != 0xFFFF && d[3] != 0xFFFF {
				o := out[k : k+4 : k+4]
				c0 := c + uint32(d[0])
				c1 := c0 + uint32(d[1])
				c2 := c1 + uint32(d[2])
				c = c2 + uint32(d[3])
				o[0], o[1], o[2], o[3] = int32(c0), int32(c1), int32(c2), int32(c)
				q, k = q+4, k+4
				continue
			}
		}
		d := uint32(p[q])
		if d == 0xFFFF {
			d = uint32(p[q+1]) | uint32(p[q+2])<<16
			q += 2
		}
		q++
		c += d
		out[k] = int32(c)
		k++
	}
	return dst[:n+k]
}

// DesignOfPacked returns the design of presences of dim columns whose row
// i has the value 1 in each of the columns rows[i] holds: DesignOfRows's
// design, its fits and scores the same bit for bit, in half the memory.
// It holds the slices themselves, not a copy, so they must not change
// while it is in use; it takes no more rows.
func DesignOfPacked(dim int, rows []PackedColumns) *Design {
	if rows == nil {
		rows = []PackedColumns{}
	}
	return &Design{dim: dim, packed: rows}
}

// DesignOfPackedValues returns the design of dim columns whose row i has
// the columns rows[i] holds, the last len(tails[i]) of them with the
// values tails[i] and the others the value 1: the design Add fills with
// the same rows of values, its fits and scores the same bit for bit (a
// term w·1 is w), in two bytes for each column of value 1, not eight. It
// holds the slices themselves, not a copy, so they must not change while
// it is in use; it takes no more rows.
func DesignOfPackedValues(dim int, rows []PackedColumns, tails [][]float32) *Design {
	if len(rows) != len(tails) {
		panic(fmt.Sprintf("learn: %d packed rows and %d of values", len(rows), len(tails)))
	}
	var buf []int32
	for i, p := range rows {
		if buf = p.AppendTo(buf[:0]); len(tails[i]) > len(buf) {
			panic(fmt.Sprintf("learn: row %d has %d columns and %d values", i, len(buf), len(tails[i])))
		}
	}
	d := DesignOfPacked(dim, rows)
	d.tails = tails
	return d
}

// packedValued returns B + W·x for the row whose columns are cols, the
// last len(tail) of them with the values tail and the others 1, added up
// in the order of its columns as ScoreRow adds up the row with every
// value.
func (m *Sparse) packedValued(cols []int32, tail []float32) float64 {
	z, w := m.B, m.W
	p := len(cols) - len(tail)
	for _, c := range cols[:p] {
		z += w[c]
	}
	for q, c := range cols[p:] {
		z += w[c] * float64(tail[q])
	}
	return z
}

// addPackedRow adds r times the row whose columns are cols, the last
// len(tail) of them with the values tail and the others 1, to g (whose
// index 0 is the intercept's).
func addPackedRow(g []float64, cols []int32, tail []float32, r float64) {
	p := len(cols) - len(tail)
	for _, c := range cols[:p] {
		g[c+1] += r
	}
	for q, c := range cols[p:] {
		g[c+1] += r * float64(tail[q])
	}
}
