package learn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/floats"
)

// TestMutualInfo checks values worked out by hand on 8 records. A copy of
// a balanced label carries 1 bit; a feature independent of it in the
// sample carries 0. Miller–Madow adds (cells−1)/(2N) nats to each of the
// three entropies, so MI moves by (Kx + Ky − Kxy − 1)/(2·8·ln 2) bits:
// +1/(16 ln 2) for the copy (2 + 2 − 2 − 1), −1/(16 ln 2) for the
// independent feature (2 + 2 − 4 − 1), 0 for a constant (1 + 2 − 2 − 1).
func TestMutualInfo(t *testing.T) {
	labels := []int8{0, 0, 0, 0, 1, 1, 1, 1}
	tests := []struct {
		name       string
		bins       []int
		mi, mm     float64
		cells, nbs int
	}{
		{"copy of the label", []int{0, 0, 0, 0, 1, 1, 1, 1}, 1, 1 + 1/(16*math.Ln2), 2, 2},
		{"independent", []int{0, 0, 1, 1, 0, 0, 1, 1}, 0, -1 / (16 * math.Ln2), 4, 2},
		{"constant", []int{3, 3, 3, 3, 3, 3, 3, 3}, 0, 0, 2, 1},
	}
	for _, tt := range tests {
		mi, cells, nb := PluginMI(tt.bins, labels)
		mm := mi - float64(cells-nb-2+1)/(2*8*math.Ln2)
		if math.Abs(mi-tt.mi) > 1e-12 || math.Abs(mm-tt.mm) > 1e-12 || cells != tt.cells || nb != tt.nbs {
			t.Errorf("%s: MI %v (MM %v), %d cells, %d bins; want %v (%v), %d, %d", tt.name, mi, mm, cells, nb, tt.mi, tt.mm, tt.cells, tt.nbs)
		}
	}
}

// TestFitSparse compares with the closed form of an unpenalised logistic
// model on one binary feature: the intercept is the log-odds of the group
// x = 0 and the weight the log odds ratio of the two groups.
func TestFitSparse(t *testing.T) {
	tests := []struct {
		name         string
		sat0, unsat0 int // records with x = 0
		sat1, unsat1 int // records with x = 1
	}{
		{"balanced", 50, 50, 50, 50},
		{"skewed", 30, 70, 80, 20},
		{"rare", 5, 95, 60, 40},
	}
	for _, tt := range tests {
		d := NewDesign(1)
		var y []int8
		for _, g := range []struct {
			x         float32
			sat, unst int
		}{{0, tt.sat0, tt.unsat0}, {1, tt.sat1, tt.unsat1}} {
			for i := range g.sat + g.unst {
				d.Add([]int32{0}, []float32{g.x})
				y = append(y, int8(min(1, max(0, g.sat-i))))
			}
		}
		m := FitSparse(d, y, Settings{Lambda: 1e-12, Iterations: 500})
		logOdds := func(s, u int) float64 { return math.Log(float64(s) / float64(u)) }
		b, w := logOdds(tt.sat0, tt.unsat0), logOdds(tt.sat1, tt.unsat1)-logOdds(tt.sat0, tt.unsat0)
		if math.Abs(m.B-b) > 1e-4 || math.Abs(m.W[0]-w) > 1e-4 {
			t.Errorf("%s: b = %.6f, w = %.6f; want %.6f, %.6f", tt.name, m.B, m.W[0], b, w)
		}
	}
}

// sameFitCases are the sizes at which the tests that hold one form of
// design to another draw their rows: rows of 1 to nnz of dim columns.
var sameFitCases = []struct {
	name           string
	rows, dim, nnz int
}{
	{"small", 200, 30, 4},
	{"wide", 3000, 2000, 25},
	{"several blocks", 9000, 500, 10},
}

// randomCols returns 1 to nnz columns below dim, drawn with repeats.
func randomCols(rng *rand.Rand, dim, nnz int) []int32 {
	var cols []int32
	for range 1 + rng.IntN(nnz) {
		cols = append(cols, int32(rng.IntN(dim)))
	}
	return cols
}

// TestPresenceDesignSameFit: a design of presences (AddPresent) takes the
// loops without multiplications; its fit must be bit for bit the one of
// the general loops.
func TestPresenceDesignSameFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range sameFitCases {
		t.Run(tc.name, func(t *testing.T) {
			fast, general := NewDesign(tc.dim), NewDesign(tc.dim)
			var each [][]int32
			y := make([]int8, tc.rows)
			for i := range tc.rows {
				cols, vals := presences(randomCols(rng, tc.dim, tc.nnz))
				fast.AddPresent(cols)
				general.Add(cols, vals)
				each = append(each, cols)
				y[i] = int8(rng.IntN(2))
				if cols[0]%3 == 0 {
					y[i] = 1
				}
			}
			general.valued()
			if fast.val != nil {
				t.Fatal("a design of ones holds its values")
			}
			s := Settings{Lambda: 1e-3, Iterations: 50}
			rows := DesignOfRows(tc.dim, each)
			a, b, c := FitSparse(fast, y, s), FitSparse(general, y, s), FitSparse(rows, y, s)
			if a.B != b.B || a.Iterations != b.Iterations || !slices.Equal(a.W, b.W) {
				t.Fatalf("fits differ: B %v / %v, iterations %d / %d", a.B, b.B, a.Iterations, b.Iterations)
			}
			if c.B != b.B || c.Iterations != b.Iterations || !slices.Equal(c.W, b.W) {
				t.Fatalf("the design of rows fits differently: B %v / %v, iterations %d / %d", c.B, b.B, c.Iterations, b.Iterations)
			}
			for i := range tc.rows {
				if a.Score(fast, i) != a.Score(general, i) || a.Score(rows, i) != a.Score(general, i) {
					t.Fatalf("row %d: scores differ", i)
				}
			}
		})
	}
}

// levelValues are the values of a design of levels in the tests:
// log(1 + level) as a float32, the n-gram model's.
func levelValues() *[256]float32 {
	var v [256]float32
	for k := range v {
		v[k] = float32(math.Log1p(float64(k)))
	}
	return &v
}

// TestLevelDesignSameFit: a design of levels (DesignOfLevels) must fit
// and score bit for bit as the valued design that Add fills with the
// values its levels stand for.
func TestLevelDesignSameFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	values := levelValues()
	for _, tc := range sameFitCases {
		t.Run(tc.name, func(t *testing.T) {
			general := NewDesign(tc.dim)
			var each [][]int32
			var levels [][]uint8
			y := make([]int8, tc.rows)
			for i := range tc.rows {
				cols, _ := presences(randomCols(rng, tc.dim, tc.nnz))
				lv, vals := make([]uint8, len(cols)), make([]float32, len(cols))
				for k := range cols {
					lv[k] = uint8(1 + rng.IntN(4))
					vals[k] = values[lv[k]]
				}
				general.Add(cols, vals)
				each, levels = append(each, cols), append(levels, lv)
				y[i] = int8(rng.IntN(2))
				if lv[0] >= 3 {
					y[i] = 1
				}
			}
			s := Settings{Lambda: 1e-3, Iterations: 50}
			d := DesignOfLevels(tc.dim, each, levels, values)
			a, b := FitSparse(d, y, s), FitSparse(general, y, s)
			if a.B != b.B || a.Iterations != b.Iterations || !slices.Equal(a.W, b.W) {
				t.Fatalf("fits differ: B %v / %v, iterations %d / %d", a.B, b.B, a.Iterations, b.Iterations)
			}
			for i := range tc.rows {
				if b.Score(d, i) != b.Score(general, i) || b.Predict(d, i) != b.Predict(general, i) {
					t.Fatalf("row %d: scores differ", i)
				}
			}
		})
	}
}

// presences returns the distinct columns of cols in order, each with the
// value 1: a row of a design of presences.
func presences(cols []int32) ([]int32, []float32) {
	slices.Sort(cols)
	cols = slices.Compact(cols)
	vals := make([]float32, len(cols))
	for k := range vals {
		vals[k] = 1
	}
	return cols, vals
}

// TestDesignFormsSameFit: a dense design, a subset of a larger design
// (valued or dense), and an objective
// summed with one buffer or many, must all give bit for bit the same fit
// and scores as the plain valued design of the same rows.
func TestDesignFormsSameFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const dim = 12
	for _, rows := range []int{50, 4096, 9001} {
		// Every even row of big is a row of the fit; the odd ones are
		// noise that the subset must skip.
		dense, valued, big, bigDense := NewDesign(dim), NewDesign(dim), NewDesign(dim), NewDesign(dim)
		// Reserved designs are filled in the room reserved for them.
		reserved, reservedDense := NewDesign(dim), NewDesign(dim)
		reserved.Reserve(rows, rows*dim)
		reservedDense.ReserveDense(rows)
		room := unsafe.SliceData(reservedDense.val)
		roomCol := unsafe.SliceData(reserved.col)
		var y []int8
		var keep []int
		cols := make([]int32, dim)
		for j := range cols {
			cols[j] = int32(j)
		}
		for i := range 2 * rows {
			vals := make([]float32, dim)
			for j := range vals {
				vals[j] = float32(rng.NormFloat64())
			}
			big.Add(cols, vals)
			bigDense.AddDense(vals)
			if i%2 == 1 {
				continue
			}
			keep = append(keep, i)
			dense.AddDense(vals)
			valued.Add(cols, vals)
			reserved.Add(cols, vals)
			reservedDense.AddDense(vals)
			label := int8(0)
			if float64(vals[0]+vals[3]) > rng.NormFloat64() {
				label = 1
			}
			y = append(y, label)
		}
		s := Settings{Lambda: 1e-3, Iterations: 60}
		want := FitSparse(valued, y, s)
		if unsafe.SliceData(reserved.col) != roomCol || unsafe.SliceData(reservedDense.val) != room {
			t.Errorf("%d rows: a reserved design grew out of its room", rows)
		}
		forms := map[string]*Design{"dense": dense, "subset": big.Subset(keep), "dense subset": bigDense.Subset(keep),
			"reserved": reserved, "reserved dense": reservedDense}
		for name, d := range forms {
			if d.rows() != rows {
				t.Fatalf("%d rows, %s: %d rows", rows, name, d.rows())
			}
			got := FitSparse(d, y, s)
			if got.B != want.B || got.Iterations != want.Iterations || !slices.Equal(got.W, want.W) {
				t.Errorf("%d rows, %s: the fit differs from the valued design's", rows, name)
			}
			for i := range rows {
				if got.Score(d, i) != want.Score(valued, i) {
					t.Fatalf("%d rows, %s: row %d scores differently", rows, name, i)
				}
			}
		}
		// One buffer: every block is its own wave.
		o := newObjective(valued, y, s.Lambda)
		o.parts = o.parts[:1]
		x, it := lbfgs(o.eval, dim+1, s.Iterations)
		if x[0] != want.B || it != want.Iterations || !slices.Equal(x[1:], want.W) {
			t.Errorf("%d rows: the fit summed with one buffer differs", rows)
		}
	}
}

// TestDesignForms: which form rows put a design in, and the mixtures it
// refuses.
func TestDesignForms(t *testing.T) {
	d := NewDesign(3)
	d.AddPresent([]int32{0, 2})
	d.Add([]int32{1}, []float32{1})
	if d.val != nil {
		t.Fatal("a design of ones holds its values")
	}
	d.Add([]int32{0, 1}, []float32{1, 2.5})
	if !slices.Equal(d.val, []float32{1, 1, 1, 1, 2.5}) {
		t.Fatalf("values %v, want the ones before the first other value filled in", d.val)
	}
	d.AddPresent([]int32{2})
	if d.rows() != 4 || d.val[len(d.val)-1] != 1 {
		t.Fatalf("%d rows, values %v", d.rows(), d.val)
	}
	sub := d.Subset([]int{3, 1}).Subset([]int{1})
	m := &Sparse{B: 0.5, W: []float64{1, 10, 100}}
	if got := m.Score(sub, 0); got != 10.5 {
		t.Errorf("a subset of a subset scores %v, want row 1's 10.5", got)
	}
	for name, add := range map[string]func(){
		"dense after sparse":  func() { d.AddDense([]float32{1, 2, 3}) },
		"to a subset":         func() { sub.AddPresent([]int32{0}) },
		"sparse after dense":  func() { e := NewDesign(1); e.AddDense([]float32{1}); e.AddPresent([]int32{0}) },
		"short dense row":     func() { NewDesign(2).AddDense([]float32{1}) },
		"to a design of rows": func() { DesignOfRows(2, [][]int32{{1}}).AddPresent([]int32{0}) },
		"to a design of packed rows": func() {
			DesignOfPacked(2, []PackedColumns{PackColumns([]int32{1})}).AddPresent([]int32{0})
		},
		"to a design of levels": func() {
			DesignOfLevels(2, [][]int32{{1}}, [][]uint8{{3}}, levelValues()).Add([]int32{0}, []float32{2})
		},
		"levels of another row count": func() { DesignOfLevels(2, [][]int32{{1}}, nil, levelValues()) },
		"a row's levels short":        func() { DesignOfLevels(2, [][]int32{{0, 1}}, [][]uint8{{3}}, levelValues()) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			add()
		}()
	}
}

// TestBlockLossRowOrder holds the objective's four-rows-at-a-time loop
// (scores4, the dense gradient's one visit per column) to the sums a
// plain loop over the rows, one at a time, adds: bit for bit, on every
// form of design, with block sizes that leave one to three rows over.
func TestBlockLossRowOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const dim = 40
	for _, rows := range []int{3, 4, 4097, 4099} {
		forms := map[string]*Design{"presences": NewDesign(dim), "valued": NewDesign(dim), "dense": NewDesign(dim)}
		big := NewDesign(dim)
		var each, bigEach [][]int32
		var packed, bigPacked []PackedColumns
		var packedTails [][]float32
		var levels, bigLevels [][]uint8
		values := levelValues()
		var y []int8
		var keep []int
		for i := range rows {
			// Rows of 0 to 20 columns, so that four rows seldom have one
			// length.
			cols := rng.Perm(dim)[:rng.IntN(21)]
			c32, ones, vals := make([]int32, len(cols)), make([]float32, len(cols)), make([]float32, len(cols))
			dense := make([]float32, dim)
			for k, c := range cols {
				c32[k], ones[k], vals[k] = int32(c), 1, float32(rng.NormFloat64())
				dense[c] = vals[k]
			}
			forms["presences"].AddPresent(c32)
			forms["valued"].Add(c32, vals)
			lv := make([]uint8, len(cols))
			for k := range lv {
				lv[k] = uint8(rng.IntN(256))
			}
			levels = append(levels, lv)
			bigLevels = append(bigLevels, lv, []uint8{uint8(rng.IntN(256))})
			forms["dense"].AddDense(dense)
			big.Add(c32, vals)
			big.AddPresent([]int32{int32(rng.IntN(dim))})
			each = append(each, c32)
			sorted := slices.Sorted(slices.Values(c32))
			packed = append(packed, PackColumns(sorted))
			packedTails = append(packedTails, vals[:len(vals)/2]) // the last columns of sorted get some of vals
			bigPacked = append(bigPacked, PackColumns(sorted), PackColumns([]int32{int32(rng.IntN(dim))}))
			bigEach = append(bigEach, c32, []int32{int32(rng.IntN(dim))})
			keep = append(keep, 2*i)
			y = append(y, int8(rng.IntN(2)))
		}
		forms["subset"] = big.Subset(keep)
		forms["rows"] = DesignOfRows(dim, each)
		forms["subset of rows"] = DesignOfRows(dim, bigEach).Subset(keep)
		forms["levels"] = DesignOfLevels(dim, each, levels, values)
		forms["packed"] = DesignOfPacked(dim, packed)
		forms["packed values"] = DesignOfPackedValues(dim, packed, packedTails)
		forms["subset of packed"] = DesignOfPacked(dim, bigPacked).Subset(keep)
		forms["subset of levels"] = DesignOfLevels(dim, bigEach, bigLevels, values).Subset(keep)
		x := make([]float64, dim+1)
		for j := range x {
			x[j] = rng.NormFloat64()
		}
		for name, d := range forms {
			o := newObjective(d, y, 0.1)
			for b := range o.blocks {
				got := make([]float64, dim+2)
				o.blockLoss(x, b, got)
				want := make([]float64, dim+2)
				m := Sparse{B: x[0], W: x[1:]}
				for i := b * o.block; i < min((b+1)*o.block, rows); i++ {
					z := m.Score(d, i)
					want[0] += math.Max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))) - float64(y[i])*z
					r := sigmoid(z) - float64(y[i])
					want[1] += r
					o.addGradient(want[1:], i, r)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%d rows, %s, block %d: the sums differ from a row-by-row loop's", rows, name, b)
				}
			}
			for i := 0; i+4 <= rows; i += 4 {
				m := Sparse{B: x[0], W: x[1:]}
				if got, want := m.scores4(d, i), [4]float64{m.Score(d, i), m.Score(d, i+1), m.Score(d, i+2), m.Score(d, i+3)}; got != want {
					t.Fatalf("%d rows, %s: rows %d–%d score %v, one at a time %v", rows, name, i, i+3, got, want)
				}
			}
		}
	}
}

// TestScoreRow holds ScoreRow on a row that is not in a design to
// Score on the same row in one, presences and values alike, bit for bit:
// the balance scores candidates outside the design it fitted on.
func TestScoreRow(t *testing.T) {
	m := &Sparse{B: -0.3, W: []float64{0.1, 1e-17, -2.5, 1e17, 0.7}}
	for _, tc := range []struct {
		name string
		cols []int32
		vals []float32 // nil: presences
		want float64
	}{
		{"empty", nil, nil, -0.3},
		{"presences", []int32{4, 0}, nil, -0.3 + 0.7 + 0.1},
		{"repeated column", []int32{2, 2}, nil, -0.3 - 2.5 - 2.5},
		{"values", []int32{0, 2}, []float32{2, 0.5}, -0.3 + 0.2 - 1.25},
		// Added left to right in float64, -0.3 is lost to 1e17: 0.
		{"order kept", []int32{3, 1, 3}, []float32{1, 1, -1}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDesign(len(m.W))
			if tc.vals == nil {
				d.AddPresent(tc.cols)
			} else {
				d.Add(tc.cols, tc.vals)
			}
			got := m.ScoreRow(tc.cols, tc.vals)
			if in := m.Score(d, 0); got != in {
				t.Errorf("ScoreRow %v, Score on a design %v", got, in)
			}
			if math.Abs(got-tc.want) > 1e-9*max(1, math.Abs(tc.want)) {
				t.Errorf("ScoreRow %v, want %v", got, tc.want)
			}
		})
	}
}

// TestMaxAbs: maxAbs is floats.Norm's infinity norm, over vectors of
// every sign, zeros of both signs, infinities and NaNs.
func TestMaxAbs(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, -5}
	for n := range 40 {
		for range 50 {
			s := make([]float64, n)
			for k := range s {
				s[k] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
				if rng.IntN(6) == 0 {
					s[k] = special[rng.IntN(len(special))]
				}
			}
			got, want := maxAbs(s), floats.Norm(s, math.Inf(1))
			if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("%v: %v, want %v", s, got, want)
			}
		}
	}
}
