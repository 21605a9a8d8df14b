package binom

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a confidence interval for a proportion.
type Interval struct {
	Lo, Hi float64
}

// Wilson returns the Wilson score interval for k successes in n trials at
// confidence level conf (for example 0.95). With n = 0 it returns [0, 1].
func Wilson(k, n int, conf float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	z := distuv.UnitNormal.Quantile(1 - (1-conf)/2)
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	iv := Interval{Lo: max(0, centre-half), Hi: min(1, centre+half)}
	if k == 0 {
		iv.Lo = 0 // exactly, not a rounding error away
	}
	if k == n {
		iv.Hi = 1
	}
	return iv
}

// MarshalJSON writes an interval as {"lo": …, "hi": …}.
func (iv Interval) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"lo":%s,"hi":%s}`, f4(iv.Lo), f4(iv.Hi)), nil
}

// UnmarshalJSON reads an interval written by MarshalJSON.
func (iv *Interval) UnmarshalJSON(b []byte) error {
	var v struct{ Lo, Hi float64 }
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	iv.Lo, iv.Hi = v.Lo, v.Hi
	return nil
}

func f4(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}
