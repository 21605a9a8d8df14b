package learn

import "math"

// Matrix is what FitBoostedMatrix reads its records from: Len rows of Dim
// features, a column at a time (a fit's thresholds and bins are made
// feature by feature).
type Matrix interface {
	Len() int
	Dim() int
	// Column appends feature j of every row, in order, to dst.
	Column(j int, dst []float64) []float64
}

// Rows is a Matrix held row by row.
type Rows [][]float64

func (x Rows) Len() int { return len(x) }

func (x Rows) Dim() int {
	if len(x) == 0 {
		return 0
	}
	return len(x[0])
}

func (x Rows) Column(j int, dst []float64) []float64 {
	for _, row := range x {
		dst = append(dst, row[j])
	}
	return dst
}

// Columns is a Matrix held column by column, each column in the narrowest
// of three forms that holds all its values exactly: a byte for integers
// from 0 to 255, a float32, or a float64. Counts, which most features of a
// surface are, so take a byte each instead of eight.
type Columns struct {
	n    int
	cols []column
}

// column holds its values in one of its three slices.
type column struct {
	u8  []uint8
	f32 []float32
	f64 []float64
}

// NewColumns returns an empty Columns of dim features.
func NewColumns(dim int) *Columns {
	return &Columns{cols: make([]column, dim)}
}

// Append adds a row of Dim features.
func (c *Columns) Append(row []float64) {
	if len(row) != len(c.cols) {
		panic("learn: a row of another width")
	}
	for j, v := range row {
		c.cols[j].add(v)
	}
	c.n++
}

// add appends v to the column, widening the column (byte, float32,
// float64) when v does not fit its form. Values convert exactly both
// ways, bit for bit: a negative zero is not stored as a byte, nor a NaN
// as a float32.
func (col *column) add(v float64) {
	if col.f32 == nil && col.f64 == nil {
		if b := uint8(v); float64(b) == v && !math.Signbit(v) {
			col.u8 = append(col.u8, b)
			return
		}
		col.f32, col.u8 = widen[float32](col.u8), nil
	}
	if col.f64 == nil {
		if f := float32(v); float64(f) == v {
			col.f32 = append(col.f32, f)
			return
		}
		col.f64, col.f32 = widen[float64](col.f32), nil
	}
	col.f64 = append(col.f64, v)
}

// widen returns the values of from as Ts, with room for as many more.
func widen[T, F uint8 | float32 | float64](from []F) []T {
	out := make([]T, len(from), 2*len(from)+1)
	for i, v := range from {
		out[i] = T(v)
	}
	return out
}

func (c *Columns) Len() int { return c.n }

func (c *Columns) Dim() int { return len(c.cols) }

func (c *Columns) Column(j int, dst []float64) []float64 {
	return c.cols[j].appendTo(dst, nil)
}

// appendTo appends the column's values at rows (nil: every row) to dst.
func (col *column) appendTo(dst []float64, rows []int) []float64 {
	switch {
	case col.f64 != nil:
		return appendAt(dst, col.f64, rows)
	case col.f32 != nil:
		return appendAt(dst, col.f32, rows)
	}
	return appendAt(dst, col.u8, rows)
}

// appendAt appends vals at rows (nil: all of them), as float64s, to dst.
func appendAt[T uint8 | float32 | float64](dst []float64, vals []T, rows []int) []float64 {
	if rows == nil {
		for _, v := range vals {
			dst = append(dst, float64(v))
		}
		return dst
	}
	for _, i := range rows {
		dst = append(dst, float64(vals[i]))
	}
	return dst
}

// Subset returns the Matrix of c's rows rows, in that order.
func (c *Columns) Subset(rows []int) Matrix { return subset{c, rows} }

type subset struct {
	c    *Columns
	rows []int
}

func (s subset) Len() int { return len(s.rows) }

func (s subset) Dim() int { return len(s.c.cols) }

func (s subset) Column(j int, dst []float64) []float64 {
	return s.c.cols[j].appendTo(dst, s.rows)
}
