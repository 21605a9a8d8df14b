package learn

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Design is a sparse matrix of feature values in compressed rows: row i
// has the columns col[ptr[i]:ptr[i+1]] with the values val[…].
type Design struct {
	ptr []int
	col []int32
	val []float32
	dim int
	// valued reports whether some value is not 1. Without one (a design
	// of presences), the loops skip the multiplications by 1, which
	// change no sum.
	valued bool
}

func (d *Design) rows() int { return len(d.ptr) - 1 }

// NewDesign returns an empty design of dim columns.
func NewDesign(dim int) *Design { return &Design{ptr: []int{0}, dim: dim} }

// Add appends a row; cols and vals have the same length.
func (d *Design) Add(cols []int32, vals []float32) {
	d.col = append(d.col, cols...)
	d.val = append(d.val, vals...)
	d.ptr = append(d.ptr, len(d.col))
	for _, v := range vals {
		d.valued = d.valued || v != 1
	}
}

// AddPresent appends a row of presences: value 1 in each of cols.
func (d *Design) AddPresent(cols []int32) {
	d.col = append(d.col, cols...)
	for range cols {
		d.val = append(d.val, 1)
	}
	d.ptr = append(d.ptr, len(d.col))
}

// Row returns the columns and values of row i, which the caller must not
// change.
func (d *Design) Row(i int) ([]int32, []float32) {
	return d.col[d.ptr[i]:d.ptr[i+1]], d.val[d.ptr[i]:d.ptr[i+1]]
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
	z := m.B
	if !d.valued {
		for _, c := range d.col[d.ptr[i]:d.ptr[i+1]] {
			z += m.W[c]
		}
		return z
	}
	for k := d.ptr[i]; k < d.ptr[i+1]; k++ {
		z += m.W[d.col[k]] * float64(d.val[k])
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

// objective is the penalised mean log-loss of a logistic model on d.
type objective struct {
	d      *Design
	y      []int8
	lambda float64
	block  int
	parts  [][]float64 // per block: loss, then gradient
}

func newObjective(d *Design, y []int8, lambda float64) *objective {
	n := d.rows()
	block := max(4096, (n+63)/64)
	nb := (n + block - 1) / block
	o := &objective{d: d, y: y, lambda: lambda, block: block, parts: make([][]float64, nb)}
	for i := range o.parts {
		o.parts[i] = make([]float64, d.dim+2)
	}
	return o
}

// eval returns the objective and its gradient at x; the gradient must not
// be changed by the caller.
func (o *objective) eval(x []float64) (float64, []float64) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(o.parts)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := int(next.Add(1)) - 1; b < len(o.parts); b = int(next.Add(1)) - 1 {
				o.blockLoss(x, b)
			}
		}()
	}
	wg.Wait()
	n := float64(o.d.rows())
	f := 0.0
	g := make([]float64, len(x))
	for _, p := range o.parts {
		f += p[0]
		for j := range g {
			g[j] += p[j+1]
		}
	}
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
// rows into o.parts[b] (gradient index 0 is the intercept).
func (o *objective) blockLoss(x []float64, b int) {
	p := o.parts[b]
	clear(p)
	d, g := o.d, o.parts[b][1:]
	m := Sparse{B: x[0], W: x[1:]}
	for i := b * o.block; i < min((b+1)*o.block, d.rows()); i++ {
		z := m.Score(d, i)
		// log(1+e^z) − y·z, computed without overflow.
		p[0] += math.Max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))) - float64(o.y[i])*z
		r := sigmoid(z) - float64(o.y[i])
		g[0] += r
		if !d.valued {
			for _, c := range d.col[d.ptr[i]:d.ptr[i+1]] {
				g[c+1] += r
			}
			continue
		}
		for k := d.ptr[i]; k < d.ptr[i+1]; k++ {
			g[d.col[k]+1] += r * float64(d.val[k])
		}
	}
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}
