package learn

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Design is a matrix of feature values in compressed rows. It takes one
// of four forms, set by how it is filled, and each loop over a row adds
// the same terms in the same order whatever the form:
//
//   - presences (AddPresent, or Add with every value 1): row i has the
//     columns col[ptr[i]:ptr[i+1]], each with the value 1, and the loops
//     skip the multiplications by 1, which change no sum;
//   - valued (Add with some value not 1): the same, with the values
//     val[ptr[i]:ptr[i+1]];
//   - dense (AddDense): row i has every column in order, with the values
//     val[i·dim:(i+1)·dim], and no column numbers are stored;
//   - rows of presences (DesignOfRows): row i has the columns rows[i],
//     each with the value 1, held in slices of the caller's;
//   - packed rows of presences (DesignOfPacked): the same, each row's
//     columns increasing and packed (PackedColumns), unpacked four rows
//     at a time as the loops reach them;
//   - packed rows with values (DesignOfPackedValues): the same, the last
//     columns of row i with the values tails[i], the others 1;
//   - rows of levels (DesignOfLevels): row i has the columns rows[i],
//     column rows[i][q] with the value values[levels[i][q]], the rows
//     and levels held in slices of the caller's.
//
// A design can also stand for some of another's rows (Subset), sharing
// its storage: a fold of a cross-validation costs no copy.
type Design struct {
	ptr   []int // not used in a dense design
	col   []int32
	val   []float32 // nil in a design of presences
	dim   int
	dense bool
	n     int       // the rows of a dense design
	sel   []int32   // a subset's rows, in the storage's numbering
	each  [][]int32 // a design of rows: each row's columns
	// packed are a design of packed rows' rows, tails the values of
	// their last columns (nil for presences).
	packed []PackedColumns
	tails  [][]float32
	// levels are a design of levels' rows of levels, values what each
	// level stands for.
	levels [][]uint8
	values *[256]float32
}

// rows returns the number of rows.
func (d *Design) rows() int {
	switch {
	case d.sel != nil:
		return len(d.sel)
	case d.dense:
		return d.n
	case d.each != nil:
		return len(d.each)
	case d.packed != nil:
		return len(d.packed)
	}
	return len(d.ptr) - 1
}

// cols returns the columns of the row at r in the storage of a design
// that is not dense: those it holds, or, in a design of packed rows, the
// row unpacked into buf's room.
func (d *Design) cols(r int, buf []int32) []int32 {
	switch {
	case d.each != nil:
		return d.each[r]
	case d.packed != nil:
		return d.packed[r].AppendTo(buf[:0])
	}
	return d.col[d.ptr[r]:d.ptr[r+1]]
}

// at returns where row i lies in the storage.
func (d *Design) at(i int) int {
	if d.sel != nil {
		return int(d.sel[i])
	}
	return i
}

// NewDesign returns an empty design of dim columns.
func NewDesign(dim int) *Design { return &Design{ptr: []int{0}, dim: dim} }

// DesignOfRows returns the design of presences of dim columns whose row
// i has the value 1 in each of the columns rows[i]. It holds the slices
// themselves, not a copy (a pair model's rows over a pilot of 100,000
// candidates take some 120 MB), so they must not change while it is in
// use; it takes no more rows.
func DesignOfRows(dim int, rows [][]int32) *Design {
	if rows == nil {
		rows = [][]int32{}
	}
	return &Design{dim: dim, each: rows}
}

// DesignOfLevels returns the design of dim columns whose row i has the
// value values[levels[i][q]] in column rows[i][q]: a row of small counts,
// say, each a byte, whose values are some function of the count. It
// holds the slices themselves, as DesignOfRows does, and its sums are
// those of the design that Add fills with the same rows of values.
func DesignOfLevels(dim int, rows [][]int32, levels [][]uint8, values *[256]float32) *Design {
	if len(rows) != len(levels) {
		panic(fmt.Sprintf("learn: %d rows of columns and %d of levels", len(rows), len(levels)))
	}
	for i := range rows {
		if len(rows[i]) != len(levels[i]) {
			panic(fmt.Sprintf("learn: row %d has %d columns and %d levels", i, len(rows[i]), len(levels[i])))
		}
	}
	if rows == nil {
		rows, levels = [][]int32{}, [][]uint8{}
	}
	return &Design{dim: dim, each: rows, levels: levels, values: values}
}

// Add appends a row; cols and vals have the same length.
func (d *Design) Add(cols []int32, vals []float32) {
	d.mustGrow(false)
	if d.val == nil && slices.ContainsFunc(vals, func(v float32) bool { return v != 1 }) {
		d.valued()
	}
	d.col = append(d.col, cols...)
	if d.val != nil {
		d.val = append(d.val, vals...)
	}
	d.ptr = append(d.ptr, len(d.col))
}

// AddPresent appends a row of presences: value 1 in each of cols.
func (d *Design) AddPresent(cols []int32) {
	d.mustGrow(false)
	d.col = append(d.col, cols...)
	if d.val != nil {
		for range cols {
			d.val = append(d.val, 1)
		}
	}
	d.ptr = append(d.ptr, len(d.col))
}

// Reserve makes room for rows more rows of entries more entries in all,
// so that a design whose size is known is filled without growing by
// appends, which copy it and for a moment hold it twice (a pair model's
// design of 100,000 rows takes some 180 MB).
func (d *Design) Reserve(rows, entries int) {
	d.ptr = slices.Grow(d.ptr, rows)
	d.col = slices.Grow(d.col, entries)
	if d.val != nil {
		d.val = slices.Grow(d.val, entries)
	}
}

// ReserveDense makes room for rows more rows of a dense design.
func (d *Design) ReserveDense(rows int) {
	d.val = slices.Grow(d.val, rows*d.dim)
}

// AddDense appends a row with a value for each of the design's columns,
// in order. A design filled by AddDense is dense: it takes no other rows.
func (d *Design) AddDense(vals []float32) {
	if len(vals) != d.dim {
		panic(fmt.Sprintf("learn: a dense row of %d values in a design of %d columns", len(vals), d.dim))
	}
	if !d.dense && d.rows() == 0 {
		d.dense, d.ptr = true, nil
	}
	d.mustGrow(true)
	d.val = append(d.val, vals...)
	d.n++
}

// mustGrow panics when a row of the other form is added to a dense
// design or to one that is not, or any row to a subset or a design of
// rows.
func (d *Design) mustGrow(dense bool) {
	if d.sel != nil || d.each != nil || d.packed != nil || d.dense != dense {
		panic("learn: a row added to a subset or a design of rows, or dense and sparse rows in one design")
	}
}

// valued gives a design of presences its values, all 1.
func (d *Design) valued() {
	d.val = make([]float32, len(d.col), cap(d.col))
	for k := range d.val {
		d.val[k] = 1
	}
}

// Subset returns the design of rows rows of d, in that order; it shares
// d's storage, so d must not grow while it is in use.
func (d *Design) Subset(rows []int) *Design {
	s := *d
	s.sel = make([]int32, len(rows))
	for k, i := range rows {
		s.sel[k] = int32(d.at(i))
	}
	return &s
}

// Sparse is a logistic model trained on a Design: P(1 | x) = σ(B + W·x).
type Sparse struct {
	B          float64
	W          []float64
	Iterations int // the L-BFGS iterations its fit took
}

// Settings are the knobs of FitSparse.
type Settings struct {
	Lambda     float64 // L2 penalty on W (not on B), on the mean log-loss
	Iterations int     // most L-BFGS iterations
}

// FitSparse minimises the mean log-loss plus λ/2·|w|² (the intercept is not
// penalised) with L-BFGS from zero; see lbfgs. The loss and gradient are
// summed over fixed blocks of rows, in parallel, and the block sums are
// added in block order, so the result does not depend on the number of
// cores.
func FitSparse(d *Design, y []int8, s Settings) *Sparse {
	obj := newObjective(d, y, s.Lambda)
	x, it := lbfgs(obj.eval, d.dim+1, s.Iterations)
	return &Sparse{B: x[0], W: x[1:], Iterations: it}
}

// Score returns B + W·x for row i of d.
func (m *Sparse) Score(d *Design, i int) float64 {
	r := d.at(i)
	if d.packed != nil {
		var buf [512]int32
		cols := d.cols(r, buf[:])
		if d.tails != nil {
			return m.packedValued(cols, d.tails[r])
		}
		return m.ScoreRow(cols, nil)
	}
	if !d.dense {
		cols := d.cols(r, nil)
		if d.levels != nil {
			return m.levelRow(cols, d.levels[r], d.values)
		}
		if d.val == nil {
			return m.ScoreRow(cols, nil)
		}
		return m.ScoreRow(cols, d.val[d.ptr[r]:d.ptr[r+1]])
	}
	z := m.B
	for j, v := range d.val[r*d.dim : (r+1)*d.dim] {
		z += m.W[j] * float64(v)
	}
	return z
}

// ScoreRow returns B + W·x for the sparse row x whose column cols[q]
// holds vals[q], or 1 in every column of cols when vals is nil: the
// score of a row that is not in a Design, added up in the same order as
// Score adds up a row that is.
func (m *Sparse) ScoreRow(cols []int32, vals []float32) float64 {
	z := m.B
	if vals == nil {
		for _, c := range cols {
			z += m.W[c]
		}
		return z
	}
	for q, c := range cols {
		z += m.W[c] * float64(vals[q])
	}
	return z
}

// levelRow is ScoreRow of the row whose value in column cols[q] is
// values[levels[q]].
func (m *Sparse) levelRow(cols []int32, levels []uint8, values *[256]float32) float64 {
	z := m.B
	levels = levels[:len(cols)]
	for q, c := range cols {
		z += m.W[c] * float64(values[levels[q]])
	}
	return z
}

// Predict returns 1 (sat) where the score is at least 0, else 0.
func (m *Sparse) Predict(d *Design, i int) int8 {
	if m.Score(d, i) >= 0 {
		return 1
	}
	return 0
}

// objective is the penalised mean log-loss of a logistic model on d. The
// loss and gradient are summed over fixed blocks of rows, and the block
// sums are added in block order. The blocks are computed a wave at a
// time, as many as there are buffers (parts), in parallel, and each wave
// is added before the next begins: a fit of many columns holds a few
// gradients, not one per block, and the sums are the same whatever the
// number of buffers and cores.
type objective struct {
	d      *Design
	y      []int8
	lambda float64
	block  int
	blocks int
	parts  [][]float64 // per buffer: loss, then gradient
	grad   []float64   // what eval returns
}

// objectiveWaves is the number of blocks in a wave per core.
const objectiveWaves = 2

func newObjective(d *Design, y []int8, lambda float64) *objective {
	n := d.rows()
	block := max(4096, (n+63)/64)
	nb := (n + block - 1) / block
	o := &objective{d: d, y: y, lambda: lambda, block: block, blocks: nb, grad: make([]float64, d.dim+1)}
	o.parts = make([][]float64, min(nb, objectiveWaves*runtime.GOMAXPROCS(0)))
	for i := range o.parts {
		o.parts[i] = make([]float64, d.dim+2)
	}
	return o
}

// eval returns the objective and its gradient at x. The gradient is valid
// until the next call, and must not be changed by the caller.
func (o *objective) eval(x []float64) (float64, []float64) {
	f := 0.0
	g := o.grad
	clear(g)
	for start := 0; start < o.blocks; start += len(o.parts) {
		end := min(start+len(o.parts), o.blocks)
		var next atomic.Int64
		next.Store(int64(start))
		var wg sync.WaitGroup
		for range min(runtime.GOMAXPROCS(0), end-start) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for b := int(next.Add(1)) - 1; b < end; b = int(next.Add(1)) - 1 {
					o.blockLoss(x, b, o.parts[b-start])
				}
			}()
		}
		wg.Wait()
		for _, p := range o.parts[:end-start] {
			f += p[0]
			for j := range g {
				g[j] += p[j+1]
			}
		}
	}
	n := float64(o.d.rows())
	f /= n
	for j := range g {
		g[j] /= n
	}
	for j := 1; j < len(x); j++ {
		f += o.lambda / 2 * x[j] * x[j]
		g[j] += o.lambda * x[j]
	}
	return f, g
}

// blockLoss writes the summed log-loss and its gradient over block b's
// rows into p (gradient index 0 is the intercept). It takes the rows four
// at a time (scores4): each row's score, loss and gradient terms are the
// ones Score and a row-by-row loop would compute, added in row order.
func (o *objective) blockLoss(x []float64, b int, p []float64) {
	clear(p)
	d, g := o.d, p[1:]
	m := Sparse{B: x[0], W: x[1:]}
	var z, r [4]float64
	var rows [4][]int32 // a design of packed rows: the four rows, unpacked
	lo, hi := b*o.block, min((b+1)*o.block, d.rows())
	for i0 := lo; i0 < hi; i0 += 4 {
		k := min(4, hi-i0)
		switch {
		case d.packed != nil:
			for j := range k {
				rows[j] = d.packed[d.at(i0+j)].AppendTo(rows[j][:0])
			}
			switch {
			case d.tails != nil:
				for j := range k {
					z[j] = m.packedValued(rows[j], d.tails[d.at(i0+j)])
				}
			case k == 4:
				z = m.presences4(rows[0], rows[1], rows[2], rows[3])
			default:
				for j := range k {
					z[j] = m.ScoreRow(rows[j], nil)
				}
			}
		case k == 4:
			z = m.scores4(d, i0)
		default:
			for j := range k {
				z[j] = m.Score(d, i0+j)
			}
		}
		for j := range k {
			y := float64(o.y[i0+j])
			// log(1+e^z) − y·z, computed without overflow.
			p[0] += math.Max(z[j], 0) + math.Log1p(math.Exp(-math.Abs(z[j]))) - y*z[j]
			r[j] = sigmoid(z[j]) - y
			g[0] += r[j]
		}
		if d.dense && k == 4 {
			// Each column's four terms in row order, in one visit.
			v0, v1, v2, v3 := d.denseRow(i0), d.denseRow(i0+1), d.denseRow(i0+2), d.denseRow(i0+3)
			gs := g[1 : 1+len(v0)]
			v1, v2, v3 = v1[:len(v0)], v2[:len(v0)], v3[:len(v0)]
			for j, v := range v0 {
				gs[j] = gs[j] + r[0]*float64(v) + r[1]*float64(v1[j]) + r[2]*float64(v2[j]) + r[3]*float64(v3[j])
			}
			continue
		}
		if d.packed != nil {
			for j := range k {
				var tail []float32
				if d.tails != nil {
					tail = d.tails[d.at(i0+j)]
				}
				addPackedRow(g, rows[j], tail, r[j])
			}
			continue
		}
		for j := range k {
			o.addGradient(g, i0+j, r[j])
		}
	}
}

// addGradient adds r times row i of the design to g (whose index 0 is
// the intercept's).
func (o *objective) addGradient(g []float64, i int, r float64) {
	d := o.d
	row := d.at(i)
	switch {
	case d.dense:
		for j, v := range d.denseRow(i) {
			g[j+1] += r * float64(v)
		}
	case d.levels != nil:
		cols, levels := d.each[row], d.levels[row]
		levels = levels[:len(cols)]
		for q, c := range cols {
			g[c+1] += r * float64(d.values[levels[q]])
		}
	case d.packed != nil:
		var tail []float32
		if d.tails != nil {
			tail = d.tails[row]
		}
		var buf [512]int32
		addPackedRow(g, d.cols(row, buf[:]), tail, r)
	case d.val == nil:
		for _, c := range d.cols(row, nil) {
			g[c+1] += r
		}
	default:
		for k := d.ptr[row]; k < d.ptr[row+1]; k++ {
			g[d.col[k]+1] += r * float64(d.val[k])
		}
	}
}

// denseRow returns the values of row i of a dense design.
func (d *Design) denseRow(i int) []float32 {
	r := d.at(i)
	return d.val[r*d.dim : (r+1)*d.dim]
}

// scores4 returns Score of rows i to i+3 of d. Each score sums its terms
// in Score's order, but the four sums are taken side by side, so that
// each does not wait for the last addition of the others.
func (m *Sparse) scores4(d *Design, i int) [4]float64 {
	z0, z1, z2, z3 := m.B, m.B, m.B, m.B
	if d.dense {
		v0, v1, v2, v3 := d.denseRow(i), d.denseRow(i+1), d.denseRow(i+2), d.denseRow(i+3)
		w := m.W[:len(v0)]
		v1, v2, v3 = v1[:len(v0)], v2[:len(v0)], v3[:len(v0)]
		for j, v := range v0 {
			z0 += w[j] * float64(v)
			z1 += w[j] * float64(v1[j])
			z2 += w[j] * float64(v2[j])
			z3 += w[j] * float64(v3[j])
		}
		return [4]float64{z0, z1, z2, z3}
	}
	if d.packed != nil {
		return [4]float64{m.Score(d, i), m.Score(d, i+1), m.Score(d, i+2), m.Score(d, i+3)}
	}
	r0, r1, r2, r3 := d.at(i), d.at(i+1), d.at(i+2), d.at(i+3)
	c0, c1, c2, c3 := d.cols(r0, nil), d.cols(r1, nil), d.cols(r2, nil), d.cols(r3, nil)
	w := m.W
	if d.levels != nil {
		return [4]float64{m.levelRow(c0, d.levels[r0], d.values), m.levelRow(c1, d.levels[r1], d.values),
			m.levelRow(c2, d.levels[r2], d.values), m.levelRow(c3, d.levels[r3], d.values)}
	}
	if d.val == nil {
		return m.presences4(c0, c1, c2, c3)
	}
	out := [4]float64{}
	for k, r := range [4]int{r0, r1, r2, r3} {
		z := m.B
		for q := d.ptr[r]; q < d.ptr[r+1]; q++ {
			z += w[d.col[q]] * float64(d.val[q])
		}
		out[k] = z
	}
	return out
}

// presences4 returns ScoreRow of the four rows of presences c0 to c3:
// the terms the four rows all have, side by side, then each row's
// remaining ones.
func (m *Sparse) presences4(c0, c1, c2, c3 []int32) [4]float64 {
	z0, z1, z2, z3 := m.B, m.B, m.B, m.B
	w := m.W
	n := min(len(c0), len(c1), len(c2), len(c3))
	h1, h2, h3 := c1[:n], c2[:n], c3[:n]
	for t, c := range c0[:n] {
		z0 += w[c]
		z1 += w[h1[t]]
		z2 += w[h2[t]]
		z3 += w[h3[t]]
	}
	return [4]float64{tail(z0, w, c0[n:]), tail(z1, w, c1[n:]), tail(z2, w, c2[n:]), tail(z3, w, c3[n:])}
}

// tail returns z plus w's entries at cols, added in order.
func tail(z float64, w []float64, cols []int32) float64 {
	for _, c := range cols {
		z += w[c]
	}
	return z
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}
