package phase

import (
	"math"

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

// Band is a closed range of P(sat); the paper's phase-change region is the
// band [0.35, 0.65].
type Band struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// PaperBand returns the band [0.35, 0.65] of the paper.
func PaperBand() Band { return Band{Lo: 0.35, Hi: 0.65} }

// Contains reports whether p lies in the band.
func (b Band) Contains(p float64) bool { return p >= b.Lo && p <= b.Hi }

// Verdict says where a point's interval lies relative to a band.
type Verdict string

// The verdicts: the interval lies above the band, inside it, below it, or
// straddles an edge of it (the sample budget was spent first).
const (
	Above     Verdict = "above"
	Inside    Verdict = "inside"
	Below     Verdict = "below"
	Straddles Verdict = "straddles"
)

// Classify returns the verdict for an interval against the band.
func (b Band) Classify(iv Interval) Verdict {
	switch {
	case iv.Lo > b.Hi:
		return Above
	case iv.Hi < b.Lo:
		return Below
	case iv.Lo >= b.Lo && iv.Hi <= b.Hi:
		return Inside
	}
	return Straddles
}
