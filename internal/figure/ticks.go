package figure

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// Ticks is a plot.Ticker with major ticks at a round step (1, 2, 2.5 or
// 5 times a power of ten) that puts at most N of them in the range, each
// labelled with the same number of decimals, and unlabelled minor ticks
// between them.
type Ticks struct {
	// N is the most major ticks (default 8).
	N int
	// Integer keeps the step a whole number, for axes of counts.
	Integer bool
}

// Ticks returns the ticks of [min, max].
func (t Ticks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return nil
	}
	step, minor, dec := t.step(max - min)
	var ts []plot.Tick
	for k := math.Ceil(min/minor - 1e-9); k*minor <= max+1e-9*minor; k++ {
		v := k * minor
		if v == 0 {
			v = 0 // not -0
		}
		tick := plot.Tick{Value: v}
		if r := v / step; math.Abs(r-math.Round(r)) < 1e-6 {
			tick.Label = strconv.FormatFloat(v, 'f', dec, 64)
		}
		ts = append(ts, tick)
	}
	return ts
}

// step returns the major step for a range of the given span, the minor
// step and the decimals a label needs.
func (t Ticks) step(span float64) (step, minor float64, dec int) {
	n := t.N
	if n < 2 {
		n = 8
	}
	step = Nice(span, n-1, t.Integer)
	e := int(math.Floor(math.Log10(step) + 1e-9))
	m := math.Round(step/math.Pow(10, float64(e))*10) / 10
	dec, parts := max(0, -e), 2.0
	if m == 2.5 {
		dec = max(0, 1-e)
	}
	if m == 2.5 || m == 5 {
		parts = 5
	}
	return step, step / parts, dec
}

// Nice returns the smallest round width (1, 2, 2.5 or 5 times a power of
// ten, whole with integer) that cuts span into at most n cells.
func Nice(span float64, n int, integer bool) float64 {
	if !(span > 0) {
		return 1
	}
	for e := math.Floor(math.Log10(span/float64(n))) - 1; ; e++ {
		p := math.Pow(10, e)
		for _, m := range []float64{1, 2, 2.5, 5} {
			w := m * p
			if integer && (m == 2.5 || w < 1) || span/w > float64(n) {
				continue
			}
			return w
		}
	}
}
