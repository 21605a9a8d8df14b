package phase

import (
	"strconv"

	"github.com/nlsat/nlsat/internal/binom"
)

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

// String returns the band as "[0.35, 0.65]".
func (b Band) String() string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return "[" + g(b.Lo) + ", " + g(b.Hi) + "]"
}

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
func (b Band) Classify(iv binom.Interval) Verdict {
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
