package learn

import (
	"math"
	"slices"
)

// Boosted is a gradient-boosted model of P(sat | x) on dense features:
// the log-odds are Base plus the sum of the trees' leaves. Each tree splits
// on thresholds between the values a feature takes in training (at most
// BoostOptions.Bins candidate thresholds per feature), so it sees what a
// linear model cannot: interactions and thresholds. Its JSON form
// round-trips exactly, so a model in a checkpoint predicts the same.
type Boosted struct {
	Base  float64 `json:"base"`
	Trees []Tree  `json:"trees"`
}

// Tree is a regression tree in an array: node i splits on feature F[i] at
// threshold T[i] (left: x < T), its children are L[i] and R[i]; a node with
// F[i] < 0 is a leaf with value V[i].
type Tree struct {
	F []int     `json:"f"`
	T []float64 `json:"t"`
	L []int     `json:"l"`
	R []int     `json:"r"`
	V []float64 `json:"v"`
}

// BoostOptions are the fit's settings; a zero field takes the default in
// its comment.
type BoostOptions struct {
	Trees   int     // 100
	Depth   int     // 3
	Rate    float64 // 0.1, the shrinkage of every tree
	Bins    int     // 32 candidate thresholds per feature
	MinLeaf int     // 20 records at least in a leaf
	// Lambda is the L2 penalty on leaf values (1).
	Lambda float64
}

func (o BoostOptions) withDefaults() BoostOptions {
	if o.Trees == 0 {
		o.Trees = 100
	}
	if o.Depth == 0 {
		o.Depth = 3
	}
	if o.Rate == 0 {
		o.Rate = 0.1
	}
	if o.Bins == 0 {
		o.Bins = 32
	}
	o.Bins = min(o.Bins, 255) // a bin index is a byte
	if o.MinLeaf == 0 {
		o.MinLeaf = 20
	}
	if o.Lambda == 0 {
		o.Lambda = 1
	}
	return o
}

// FitBoosted fits a Boosted model to rows x and labels y (1 sat, 0 unsat)
// by Newton boosting on the log-loss. It is deterministic.
func FitBoosted(x [][]float64, y []int8, o BoostOptions) *Boosted {
	return FitBoostedFrom(x, y, nil, o)
}

// FitBoostedFrom fits a Boosted model as FitBoosted does, but on top of
// the log-odds offset[i] another model gives row i: the trees fit what
// that model leaves, and the predicted log-odds of a row are its offset
// plus Score (whose Base is then 0). A nil offset is FitBoosted, with
// Base the log-odds of the labels' mean.
func FitBoostedFrom(x [][]float64, y []int8, offset []float64, o BoostOptions) *Boosted {
	return FitBoostedMatrix(Rows(x), y, offset, o)
}

// FitBoostedMatrix is FitBoostedFrom on the rows of x, which it reads
// only to bin them, before the trees are grown.
func FitBoostedMatrix(x Matrix, y []int8, offset []float64, o BoostOptions) *Boosted {
	o = o.withDefaults()
	n := x.Len()
	m := &Boosted{}
	if n == 0 {
		return m
	}
	if offset == nil {
		sat := 0
		for _, l := range y {
			sat += int(l)
		}
		p := (float64(sat) + 1) / (float64(n) + 2)
		m.Base = math.Log(p / (1 - p))
	}
	cuts := thresholds(x, o.Bins)
	bins := binned(x, cuts)
	f := make([]float64, n)
	for i := range f {
		f[i] = m.Base
		if offset != nil {
			f[i] = offset[i]
		}
	}
	g, h := make([]float64, n), make([]float64, n)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	gr := newGrower(bins, g, h, cuts, o)
	gr.f = f
	gr.levels = make([][]int, o.Depth)
	for d := range gr.levels {
		gr.levels[d] = make([]int, n)
	}
	for range o.Trees {
		for i := range n {
			q := sigmoid(f[i])
			g[i], h[i] = q-float64(y[i]), max(q*(1-q), 1e-12)
		}
		t := &Tree{}
		var hs *hist
		if o.Depth > 0 {
			hs = gr.histOf(all)
		}
		gr.grow(t, all, 0, hs, 0)
		m.Trees = append(m.Trees, *t)
	}
	return m
}

// thresholds returns, per feature, up to bins thresholds: midpoints
// between distinct training values, taken at even quantiles.
func thresholds(x Matrix, bins int) [][]float64 {
	dim := x.Dim()
	out := make([][]float64, dim)
	col := make([]float64, 0, x.Len())
	for j := range dim {
		col = x.Column(j, col[:0])
		slices.Sort(col) // col is filled again for the next feature
		vals := slices.Compact(col)
		var mids []float64
		for k := 1; k < len(vals); k++ {
			mids = append(mids, (vals[k-1]+vals[k])/2)
		}
		if len(mids) > bins {
			picked := make([]float64, 0, bins)
			for b := range bins {
				picked = append(picked, mids[(2*b+1)*len(mids)/(2*bins)])
			}
			mids = slices.Compact(picked)
		}
		out[j] = mids
	}
	return out
}

// binned returns, per feature and record (column by column, so that the
// split search reads each feature's bins in order), the interval of the
// feature's thresholds its value lies in (0: below the first).
func binned(x Matrix, cuts [][]float64) [][]uint8 {
	out := make([][]uint8, len(cuts))
	col := make([]float64, 0, x.Len())
	for j := range out {
		out[j] = make([]uint8, x.Len())
		col = x.Column(j, col[:0])
		for i, v := range col {
			b, found := slices.BinarySearch(cuts[j], v)
			if found {
				b++
			}
			out[j][i] = uint8(b)
		}
	}
	return out
}

// hist holds, for a set of records, the sums of g and h and the count
// per interval of every feature's thresholds, feature j's intervals at
// off[j] to off[j+1]. The three of an interval lie together, so that
// adding a record to one touches one place in memory.
type hist []bin

type bin struct {
	g, h float64
	n    int
}

// grower grows the trees of one fit: the records' bins (feature by
// feature), gradients and Hessians, and where each feature's intervals
// start in a hist.
type grower struct {
	bins [][]uint8
	g, h []float64
	cuts [][]float64
	off  []int
	o    BoostOptions
	// f are the records' log-odds, to which each tree adds the value of
	// the leaf a record falls in as the tree is grown.
	f []float64
	// rootN are the counts of the root's histogram, the same in every
	// tree of a fit.
	rootN []int
	// levels[d] holds the records of the nodes at depth d+1, each node's
	// in a range of its own (its parent's range, left child first), so
	// that a split partitions its records without allocating.
	levels [][]int
}

func newGrower(bins [][]uint8, g, h []float64, cuts [][]float64, o BoostOptions) *grower {
	gr := &grower{bins: bins, g: g, h: h, cuts: cuts, o: o, off: make([]int, len(cuts)+1)}
	for j, cs := range cuts {
		gr.off[j+1] = gr.off[j] + len(cs) + 1
	}
	return gr
}

// histOf returns the histogram of the records idx. Four features are
// counted in one pass over the records: each bin still sums its records
// in increasing order, so the sums are those of one feature at a time,
// but the four features' additions do not wait on each other (two
// records in a row often fall in one bin of a feature, and its sum
// must then be stored before it is added to again). The root's counts
// are the same for every tree, so they are counted once, and its pass
// adds only the sums.
func (gr *grower) histOf(idx []int) *hist {
	hs := make(hist, gr.off[len(gr.off)-1])
	root := len(idx) == len(gr.g)
	if root && gr.rootN == nil {
		gr.rootN = make([]int, len(hs))
		for j, col := range gr.bins {
			ns := gr.rootN[gr.off[j]:gr.off[j+1]]
			if len(ns) > 1 {
				for _, b := range col {
					ns[b]++
				}
			}
		}
	}
	var group []int // features with thresholds, up to four
	for j := range gr.bins {
		if len(gr.cuts[j]) == 0 {
			continue
		}
		group = append(group, j)
		if len(group) == 4 {
			gr.count4(hs, group, idx, root)
			group = group[:0]
		}
	}
	for _, j := range group {
		gr.count1(hs, j, idx, root)
	}
	if root {
		for k, n := range gr.rootN {
			hs[k].n = n
		}
	}
	return &hs
}

// count4 adds the records idx to the bins of the four features js; at
// the root (idx every record, in order) it adds only the sums.
func (gr *grower) count4(hs hist, js []int, idx []int, root bool) {
	g, h := gr.g, gr.h
	c0, c1, c2, c3 := gr.bins[js[0]], gr.bins[js[1]], gr.bins[js[2]], gr.bins[js[3]]
	b0, b1, b2, b3 := hs[gr.off[js[0]]:gr.off[js[0]+1]], hs[gr.off[js[1]]:gr.off[js[1]+1]], hs[gr.off[js[2]]:gr.off[js[2]+1]], hs[gr.off[js[3]]:gr.off[js[3]+1]]
	if root {
		c1, c2, c3 = c1[:len(c0)], c2[:len(c0)], c3[:len(c0)]
		g, h = g[:len(c0)], h[:len(c0)]
		for i, b := range c0 {
			gi, hi := g[i], h[i]
			x0, x1, x2, x3 := &b0[b], &b1[c1[i]], &b2[c2[i]], &b3[c3[i]]
			x0.g, x0.h = x0.g+gi, x0.h+hi
			x1.g, x1.h = x1.g+gi, x1.h+hi
			x2.g, x2.h = x2.g+gi, x2.h+hi
			x3.g, x3.h = x3.g+gi, x3.h+hi
		}
		return
	}
	add := func(c *bin, gi, hi float64) { c.g, c.h, c.n = c.g+gi, c.h+hi, c.n+1 }
	for _, i := range idx {
		gi, hi := g[i], h[i]
		add(&b0[c0[i]], gi, hi)
		add(&b1[c1[i]], gi, hi)
		add(&b2[c2[i]], gi, hi)
		add(&b3[c3[i]], gi, hi)
	}
}

// count1 adds the records idx to the bins of feature j, as count4 does.
func (gr *grower) count1(hs hist, j int, idx []int, root bool) {
	g, h := gr.g, gr.h
	col, bs := gr.bins[j], hs[gr.off[j]:gr.off[j+1]]
	if root {
		for i, b := range col {
			c := &bs[b]
			c.g, c.h = c.g+g[i], c.h+h[i]
		}
		return
	}
	for _, i := range idx {
		c := &bs[col[i]]
		c.g, c.h, c.n = c.g+g[i], c.h+h[i], c.n+1
	}
}

// minus returns a − b, the histogram of the records of a not in b.
func (a *hist) minus(b *hist) *hist {
	out := make(hist, len(*a))
	for k, x := range *a {
		y := (*b)[k]
		out[k] = bin{x.g - y.g, x.h - y.h, x.n - y.n}
	}
	return &out
}

// grow adds to t the node for the records idx (whose histogram is hs,
// nil for a node that cannot split) at the given depth and returns its
// index: the split that most lowers the penalised loss, or a leaf with
// the Newton step −Σg/(Σh+λ), shrunk by the rate. The larger child's
// histogram is its parent's minus the smaller one's. The node's records
// lie at at in their level (levels[depth-1]; the root's are every
// record), and its children's lie at the same place one level down.
func (gr *grower) grow(t *Tree, idx []int, at int, hs *hist, depth int) int {
	o := gr.o
	node := len(t.F)
	t.F, t.T, t.L, t.R, t.V = append(t.F, -1), append(t.T, 0), append(t.L, -1), append(t.R, -1), append(t.V, 0)
	var sg, sh float64
	for _, i := range idx {
		sg, sh = sg+gr.g[i], sh+gr.h[i]
	}
	t.V[node] = -o.Rate * sg / (sh + o.Lambda)
	bestF, bestK := -1, 0
	if depth < o.Depth && len(idx) >= 2*o.MinLeaf {
		bestF, bestK = gr.bestSplit(hs, sg, sh, len(idx))
	}
	if bestF < 0 {
		// A leaf. A record's bins place it on the side of every
		// threshold that its value does (x < T exactly when its bin is
		// at most T's index), so the records here are those whose value
		// the tree reaches at this leaf.
		for _, i := range idx {
			gr.f[i] += t.V[node]
		}
		return node
	}
	// The left child's records from the front of the node's range, the
	// right child's from its back, then turned round: both in the order
	// of idx.
	below := gr.levels[depth][at : at+len(idx)]
	col := gr.bins[bestF]
	nl, nr := 0, len(below)
	for _, i := range idx {
		if int(col[i]) <= bestK {
			below[nl] = i
			nl++
		} else {
			nr--
			below[nr] = i
		}
	}
	left, right := below[:nl], below[nl:]
	slices.Reverse(right)
	var hl, hr *hist
	if depth+1 < o.Depth {
		if len(left) <= len(right) {
			hl = gr.histOf(left)
			hr = hs.minus(hl)
		} else {
			hr = gr.histOf(right)
			hl = hs.minus(hr)
		}
	}
	t.F[node], t.T[node] = bestF, gr.cuts[bestF][bestK]
	l := gr.grow(t, left, at, hl, depth+1)
	r := gr.grow(t, right, at+nl, hr, depth+1)
	t.L[node], t.R[node] = l, r
	return node
}

// bestSplit returns the feature and threshold index of the split of a
// node of n records (histogram hs, sums sg and sh) that most lowers the
// penalised loss, with at least MinLeaf records on each side; -1 if none
// does.
func (gr *grower) bestSplit(hs *hist, sg, sh float64, n int) (bestF, bestK int) {
	o := gr.o
	bestF, bestGain := -1, 1e-9
	parent := sg * sg / (sh + o.Lambda)
	for j, cs := range gr.cuts {
		var lg, lh float64
		ln := 0
		for k := range cs {
			b := gr.off[j] + k
			c := (*hs)[b]
			lg, lh, ln = lg+c.g, lh+c.h, ln+c.n
			if ln < o.MinLeaf || n-ln < o.MinLeaf {
				continue
			}
			rg, rh := sg-lg, sh-lh
			gain := lg*lg/(lh+o.Lambda) + rg*rg/(rh+o.Lambda) - parent
			if gain > bestGain {
				bestF, bestK, bestGain = j, k, gain
			}
		}
	}
	return bestF, bestK
}

// value is the tree's leaf value at x.
func (t *Tree) value(x []float64) float64 {
	i := 0
	for t.F[i] >= 0 {
		if x[t.F[i]] < t.T[i] {
			i = t.L[i]
		} else {
			i = t.R[i]
		}
	}
	return t.V[i]
}

// Score returns the model's log-odds of sat at x.
func (m *Boosted) Score(x []float64) float64 {
	z := m.Base
	for k := range m.Trees {
		z += m.Trees[k].value(x)
	}
	return z
}

// Prob returns the model's P(sat | x).
func (m *Boosted) Prob(x []float64) float64 { return sigmoid(m.Score(x)) }
