package learn

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestPackColumns(t *testing.T) {
	for _, tc := range []struct {
		name string
		cols []int32
		size int // uint16s packed
	}{
		{"none", nil, 0},
		{"column 0", []int32{0}, 1},
		{"small differences", []int32{3, 4, 70000 - 1}, 3 + 2},
		{"a difference of 0xFFFE", []int32{0xFFFE}, 1},
		{"a difference of 0xFFFF", []int32{0xFFFF}, 3},
		{"the largest column", []int32{1, 1<<31 - 1}, 1 + 3},
		{"long differences among short ones", []int32{1, 2, 3, 0x10003, 0x10004, 0x10005, 0x10006, 0x20006, 0x20007, 0x20008}, 10 + 2*2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := PackColumns(tc.cols)
			if len(p) != tc.size || cap(p) != tc.size {
				t.Errorf("packed in %d uint16s (room %d), want %d", len(p), cap(p), tc.size)
			}
			if got := p.AppendTo(nil); !slices.Equal(got, tc.cols) {
				t.Errorf("read back %v, want %v", got, tc.cols)
			}
			if got := p.AppendTo([]int32{-1}); got[0] != -1 || !slices.Equal(got[1:], tc.cols) {
				t.Errorf("appended to a row: %v", got)
			}
		})
	}
	for name, cols := range map[string][]int32{"decreasing": {5, 4}, "repeated": {5, 5}, "negative": {-1, 3}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: packed without a panic", name)
				}
			}()
			PackColumns(cols)
		}()
	}
}

// TestPackColumnsRoundTrip: random increasing rows, of every spread of
// differences, read back as they were.
func TestPackColumnsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 2000 {
		spread := int32(1) << rng.IntN(24)
		var cols []int32
		c := int32(rng.IntN(int(spread)))
		for range rng.IntN(300) {
			cols = append(cols, c)
			c += 1 + rng.Int32N(spread)
		}
		if got := PackColumns(cols).AppendTo(nil); !slices.Equal(got, cols) {
			t.Fatalf("%v read back as %v", cols, got)
		}
	}
}

// TestPackedDesignSameFit: a design of packed rows must fit and score bit
// for bit as the design of the same rows unpacked, whole and as a
// subset, including rows whose differences take the long form.
func TestPackedDesignSameFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, tc := range append(sameFitCases, struct {
		name           string
		rows, dim, nnz int
	}{"long differences", 2000, 400000, 12}) {
		t.Run(tc.name, func(t *testing.T) {
			var each, bigEach [][]int32
			var packed, bigPacked []PackedColumns
			var keep []int
			y := make([]int8, tc.rows)
			for i := range tc.rows {
				cols := randomCols(rng, tc.dim, tc.nnz)
				slices.Sort(cols)
				cols = slices.Compact(cols)
				noise := []int32{int32(rng.IntN(tc.dim))}
				each, packed = append(each, cols), append(packed, PackColumns(cols))
				bigEach, bigPacked = append(bigEach, noise, cols), append(bigPacked, PackColumns(noise), PackColumns(cols))
				keep = append(keep, 2*i+1)
				y[i] = int8(rng.IntN(2))
				if cols[0]%3 == 0 {
					y[i] = 1
				}
			}
			s := Settings{Lambda: 1e-3, Iterations: 50}
			rows := DesignOfRows(tc.dim, each)
			want := FitSparse(rows, y, s)
			for name, d := range map[string]*Design{"packed": DesignOfPacked(tc.dim, packed), "subset of packed": DesignOfPacked(tc.dim, bigPacked).Subset(keep)} {
				checkSameFit(t, name, FitSparse(d, y, s), want, d, rows, tc.rows)
			}
		})
	}
}

// BenchmarkFitPacked fits a logistic model to the same rows held as
// slices of columns (DesignOfRows) and packed (DesignOfPacked): 20,000
// rows of 300 present patterns among 400,000, the shape of the pilot's
// pair model on A; then to those rows with 230 valued columns more, as
// columns and values (Add) and packed (DesignOfPackedValues). Compare
// the sub-benchmarks' times two by two.
func BenchmarkFitPacked(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, dim, nnz = 20000, 400000, 300
	w := make([]float64, dim)
	for j := range w {
		w[j] = rng.NormFloat64() / 4
	}
	each := make([][]int32, rows)
	packed := make([]PackedColumns, rows)
	y := make([]int8, rows)
	for i := range rows {
		// Common patterns are shown more often: a column drawn as the
		// square of a uniform number, scaled.
		set := map[int32]bool{}
		for len(set) < nnz {
			u := rng.Float64()
			set[int32(u*u*dim)] = true
		}
		cols := make([]int32, 0, nnz)
		for c := range set {
			cols = append(cols, c)
		}
		slices.Sort(cols)
		z := 0.0
		for _, c := range cols {
			z += w[c] / 10
		}
		if rng.Float64() < sigmoid(z) {
			y[i] = 1
		}
		each[i], packed[i] = cols, PackColumns(cols)
	}
	s := Settings{Lambda: 1e-3, Iterations: 30}
	b.Run("rows", func(b *testing.B) {
		for b.Loop() {
			FitSparse(DesignOfRows(dim, each), y, s)
		}
	})
	b.Run("packed", func(b *testing.B) {
		for b.Loop() {
			FitSparse(DesignOfPacked(dim, packed), y, s)
		}
	})
	// The same rows followed by 230 valued columns, the shape of the
	// residual stage's rows: in a design of columns and values, and
	// packed with the values apart.
	const nv = 230
	valued := NewDesign(dim + nv)
	tails := make([][]float32, rows)
	withValues := make([]PackedColumns, rows)
	for i := range rows {
		cols := slices.Clone(each[i])
		vals := make([]float32, len(cols), len(cols)+nv)
		for k := range vals {
			vals[k] = 1
		}
		for c := range nv {
			v := float32(rng.NormFloat64())
			cols, vals, tails[i] = append(cols, int32(dim+c)), append(vals, v), append(tails[i], v)
		}
		valued.Add(cols, vals)
		withValues[i] = PackColumns(cols)
	}
	b.Run("valued", func(b *testing.B) {
		for b.Loop() {
			FitSparse(valued, y, s)
		}
	})
	b.Run("packed values", func(b *testing.B) {
		for b.Loop() {
			FitSparse(DesignOfPackedValues(dim+nv, withValues, tails), y, s)
		}
	})
}

// TestPackedValuesSameFit: a design of packed rows with values must fit
// and score bit for bit as the valued design Add fills with the same
// rows, the value 1 written out, whole and as a subset.
func TestPackedValuesSameFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, tc := range []struct {
		name           string
		rows, dim, nnz int
		valued, ones   int // valued columns after the presences, and ones among them
	}{
		{"small", 300, 40, 5, 3, 0},
		{"several blocks", 9000, 300, 12, 8, 1},
		{"long differences", 2000, 300000, 10, 20, 2},
		{"values only", 500, 50, 0, 6, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			general, big := NewDesign(tc.dim+tc.valued), NewDesign(tc.dim+tc.valued)
			var rows, bigRows []PackedColumns
			var tails, bigTails [][]float32
			var keep []int
			y := make([]int8, tc.rows)
			for i := range tc.rows {
				var cols []int32
				if tc.nnz > 0 {
					cols = randomCols(rng, tc.dim, tc.nnz)
					slices.Sort(cols)
					cols = slices.Compact(cols)
				}
				vals := make([]float32, len(cols), len(cols)+tc.valued)
				for k := range vals {
					vals[k] = 1
				}
				var tail []float32
				for c := range tc.valued {
					v := float32(rng.NormFloat64())
					if c < tc.ones {
						v = 1 // a value 1 among the values
					}
					cols, vals, tail = append(cols, int32(tc.dim+c)), append(vals, v), append(tail, v)
				}
				general.Add(cols, vals)
				big.AddPresent([]int32{0})
				big.Add(cols, vals)
				rows, tails = append(rows, PackColumns(cols)), append(tails, tail)
				bigRows, bigTails = append(bigRows, PackColumns([]int32{0}), PackColumns(cols)), append(bigTails, nil, tail)
				keep = append(keep, 2*i+1)
				y[i] = int8(rng.IntN(2))
				if vals[len(vals)-1] > 0.3 {
					y[i] = 1
				}
			}
			s := Settings{Lambda: 1e-3, Iterations: 50}
			want := FitSparse(general, y, s)
			for name, d := range map[string]*Design{
				"packed values":           DesignOfPackedValues(tc.dim+tc.valued, rows, tails),
				"subset of packed values": DesignOfPackedValues(tc.dim+tc.valued, bigRows, bigTails).Subset(keep),
			} {
				checkSameFit(t, name, FitSparse(d, y, s), want, d, general, tc.rows)
			}
		})
	}
	for name, f := range map[string]func(){
		"rows and values of other counts": func() { DesignOfPackedValues(3, []PackedColumns{PackColumns([]int32{1})}, nil) },
		"more values than columns": func() {
			DesignOfPackedValues(3, []PackedColumns{PackColumns([]int32{1})}, [][]float32{{1, 2}})
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// checkSameFit fails t unless got is want bit for bit (intercept,
// iterations, weights) and scores each of the n rows of d as want scores
// the same row of ref.
func checkSameFit(t *testing.T, name string, got, want *Sparse, d, ref *Design, n int) {
	t.Helper()
	if got.B != want.B || got.Iterations != want.Iterations || !slices.Equal(got.W, want.W) {
		t.Fatalf("%s: the fit differs: B %v / %v, iterations %d / %d", name, got.B, want.B, got.Iterations, want.Iterations)
	}
	for i := range n {
		if got.Score(d, i) != want.Score(ref, i) {
			t.Fatalf("%s: row %d scores differently", name, i)
		}
	}
}
