package phase

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/binom"
)

// PointsHeader is the header of points.csv.
var PointsHeader = []string{"fragment", "m", "n1", "n2", "alpha", "beta", "n", "sat", "unsat", "unknown", "p_sat", "ci_lo", "ci_hi", "verdict"}

// TimingHeader is the header of timing.csv.
var TimingHeader = []string{"fragment", "m", "n1", "n2", "n", "median_ms", "p90_ms"}

func f4(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

func ms(d time.Duration) string { return f4(float64(d) / float64(time.Millisecond)) }

// WritePoints writes the counts, estimates and verdicts as CSV: the file
// is byte-identical for the same sweep configuration.
func WritePoints(w io.Writer, es []Estimate) error {
	cw := csv.NewWriter(w)
	cw.Write(PointsHeader)
	for _, e := range es {
		cw.Write([]string{e.Fragment.String(), strconv.Itoa(e.M), strconv.Itoa(e.N1), strconv.Itoa(e.N2),
			f4(e.Alpha()), f4(e.Beta()), strconv.Itoa(e.N), strconv.Itoa(e.Sat), strconv.Itoa(e.Unsat),
			strconv.Itoa(e.Unknown), f4(e.P), f4(e.CI.Lo), f4(e.CI.Hi), string(e.Verdict)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteTiming writes the median and 90th-percentile solver time per point
// in milliseconds; unlike points.csv it varies from run to run.
func WriteTiming(w io.Writer, es []Estimate) error {
	cw := csv.NewWriter(w)
	cw.Write(TimingHeader)
	for _, e := range es {
		cw.Write([]string{e.Fragment.String(), strconv.Itoa(e.M), strconv.Itoa(e.N1), strconv.Itoa(e.N2),
			strconv.Itoa(e.N), ms(e.MedianTime), ms(e.P90Time)})
	}
	cw.Flush()
	return cw.Error()
}

// pointJSON is one line of points.jsonl, with the fields of points.csv.
type pointJSON struct {
	Fragment string         `json:"fragment"`
	M        int            `json:"m"`
	N1       int            `json:"n1"`
	N2       int            `json:"n2"`
	Alpha    float64        `json:"alpha"`
	Beta     float64        `json:"beta"`
	N        int            `json:"n"`
	Sat      int            `json:"sat"`
	Unsat    int            `json:"unsat"`
	Unknown  int            `json:"unknown"`
	PSat     *float64       `json:"p_sat"`
	CI       binom.Interval `json:"ci"`
	Verdict  Verdict        `json:"verdict"`
}

// WritePointsJSONL writes the content of points.csv as one JSON object
// per line; p_sat is null where nothing was decided.
func WritePointsJSONL(w io.Writer, es []Estimate) error {
	enc := json.NewEncoder(w)
	for _, e := range es {
		j := pointJSON{Fragment: e.Fragment.String(), M: e.M, N1: e.N1, N2: e.N2, Alpha: round4(e.Alpha()),
			Beta: round4(e.Beta()), N: e.N, Sat: e.Sat, Unsat: e.Unsat, Unknown: e.Unknown,
			CI: binom.Interval{Lo: round4(e.CI.Lo), Hi: round4(e.CI.Hi)}, Verdict: e.Verdict}
		if !math.IsNaN(e.P) {
			p := round4(e.P)
			j.PSat = &p
		}
		if err := enc.Encode(j); err != nil {
			return err
		}
	}
	return nil
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// WriteFile writes name atomically: it appears complete or not at all.
func WriteFile(name string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(name, io.Discard)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return f.Commit()
}
