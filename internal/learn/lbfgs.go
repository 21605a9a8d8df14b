package learn

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// lbfgs minimises a smooth convex function of dim variables from zero with
// limited-memory BFGS (Nocedal and Wright, Numerical Optimization,
// Algorithm 7.5: ten correction pairs, the two-loop recursion) and a
// backtracking line search with the Armijo condition. It stops after
// maxIter iterations, when the largest gradient entry is below 1e-6, or
// when an iteration lowers f by less than 1e-10·(1+|f|). It returns the
// point and the number of iterations. Every step is a fixed sequence of
// floating-point operations, so the result is reproducible. The gradient
// eval returns need only last until its next call.
func lbfgs(eval func(x []float64) (float64, []float64), dim, maxIter int) ([]float64, int) {
	const memory, c1 = 10, 1e-4
	x := make([]float64, dim)
	f, g0 := eval(x)
	g := slices.Clone(g0) // eval's gradient lasts until its next call
	var ss, ys [][]float64
	var spareS, spareY []float64 // a pair dropped from the memory, for reuse
	var rho []float64
	d, xNew := make([]float64, dim), make([]float64, dim)
	alpha := make([]float64, memory)
	it := 0
	for ; it < maxIter && maxAbs(g) >= 1e-6; it++ {
		// d = −H·g by the two-loop recursion.
		copy(d, g)
		for k := len(ss) - 1; k >= 0; k-- {
			alpha[k] = rho[k] * floats.Dot(ss[k], d)
			floats.AddScaled(d, -alpha[k], ys[k])
		}
		gamma := 1.0
		if k := len(ss) - 1; k >= 0 {
			gamma = floats.Dot(ss[k], ys[k]) / floats.Dot(ys[k], ys[k])
		} else {
			gamma = 1 / math.Max(1, maxAbs(g))
		}
		floats.Scale(gamma, d)
		for k := range ss {
			beta := rho[k] * floats.Dot(ys[k], d)
			floats.AddScaled(d, alpha[k]-beta, ss[k])
		}
		floats.Scale(-1, d)
		slope := floats.Dot(g, d)
		if slope >= 0 { // not a descent direction: restart from −g
			ss, ys, rho = nil, nil, nil
			copy(d, g)
			floats.Scale(-1/math.Max(1, maxAbs(g)), d)
			slope = floats.Dot(g, d)
		}
		t, fNew, gNew := 1.0, 0.0, []float64(nil)
		for range 50 {
			floats.AddScaledTo(xNew, x, t, d)
			if fNew, gNew = eval(xNew); fNew <= f+c1*t*slope {
				break
			}
			t /= 2
		}
		if fNew > f {
			break // no step lowers f: at the optimum up to rounding
		}
		s, y := spareS, spareY
		if s == nil {
			s, y = make([]float64, dim), make([]float64, dim)
		}
		spareS, spareY = nil, nil
		floats.SubTo(s, xNew, x)
		floats.SubTo(y, gNew, g)
		if sy := floats.Dot(s, y); sy > 1e-12 {
			if len(ss) == memory {
				spareS, spareY = ss[0], ys[0]
				ss, ys, rho = ss[1:], ys[1:], rho[1:]
			}
			ss, ys, rho = append(ss, s), append(ys, y), append(rho, 1/sy)
		} else {
			spareS, spareY = s, y
		}
		decrease := f - fNew
		copy(x, xNew)
		f = fNew
		copy(g, gNew)
		if decrease < 1e-10*(1+math.Abs(f)) {
			it++
			break
		}
	}
	return x, it
}

// maxAbs returns floats.Norm(s, math.Inf(1)), which folds math.Max over
// the entries' absolute values, at a comparison an entry: +Inf if an
// entry is infinite, else NaN if one is NaN, else the largest |v| (0 for
// none).
func maxAbs(s []float64) float64 {
	norm, nan := 0.0, false
	for _, v := range s {
		if a := math.Abs(v); a > norm {
			norm = a
		} else if a != a {
			nan = true
		}
	}
	if nan && !math.IsInf(norm, 1) {
		return math.NaN()
	}
	return norm
}
