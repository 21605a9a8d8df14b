package phase

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/nlsat/nlsat/internal/binom"
	"github.com/nlsat/nlsat/internal/fragments"
)

// Confidence is the confidence level of every interval: 95%.
const Confidence = 0.95

// Config describes one sweep over the points of one fragment.
type Config struct {
	Fragment fragments.Fragment
	Params   fragments.Params
	Points   []Point
	// Samples is the number of instances per point, or in adaptive mode
	// the size of the first batch.
	Samples int
	// Budget, when greater than Samples, makes the sweep adaptive: a point
	// is sampled in batches that double its count until its interval lies
	// clearly above, inside or below Band, or Budget instances are spent.
	Budget int
	Band   Band
	Seed   uint64
}

// Estimate is the outcome of a sweep at one point.
type Estimate struct {
	Fragment fragments.Fragment
	Point
	N, Sat, Unsat, Unknown int
	// P is sat / (sat + unsat), NaN if nothing was decided; CI is its
	// Wilson interval at Confidence.
	P       float64
	CI      binom.Interval
	Verdict Verdict
	// Timed reports whether MedianTime and P90Time were measured.
	Timed               bool
	MedianTime, P90Time time.Duration
	times               []time.Duration
	// Quant counts the instances by the existential shares of their
	// subject and object quantifiers, sorted by bin; empty for sweeps
	// written before nlsat recorded it.
	Quant []QuantCell
}

// Record is the durable form of a final estimate, for checkpoints and
// shards: the counts and the measured times.
type Record struct {
	Point
	N       int   `json:"n"`
	Sat     int   `json:"sat"`
	Unsat   int   `json:"unsat"`
	Unknown int   `json:"unknown"`
	Timed   bool  `json:"timed"`
	Median  int64 `json:"median_ns"`
	P90     int64 `json:"p90_ns"`
	// Quant is Estimate.Quant; absent from older checkpoints and shards.
	Quant []QuantCell `json:"quant,omitempty"`
}

// Record returns the durable form of e.
func (e *Estimate) Record() Record {
	return Record{Point: e.Point, N: e.N, Sat: e.Sat, Unsat: e.Unsat, Unknown: e.Unknown,
		Timed: e.Timed, Median: int64(e.MedianTime), P90: int64(e.P90Time), Quant: e.Quant}
}

// Estimate rebuilds the estimate of fragment f that r records, with its
// interval and verdict for band b.
func (r Record) Estimate(f fragments.Fragment, b Band) Estimate {
	e := Estimate{Fragment: f, Point: r.Point, N: r.N, Sat: r.Sat, Unsat: r.Unsat, Unknown: r.Unknown, Quant: r.Quant}
	e.finish(b)
	e.Timed, e.MedianTime, e.P90Time = r.Timed, time.Duration(r.Median), time.Duration(r.P90)
	return e
}

// Decided returns sat + unsat.
func (e *Estimate) Decided() int { return e.Sat + e.Unsat }

// finish computes P, its interval, the verdict and the time quantiles.
func (e *Estimate) finish(b Band) {
	e.P = math.NaN()
	if d := e.Decided(); d > 0 {
		e.P = float64(e.Sat) / float64(d)
	}
	e.CI = binom.Wilson(e.Sat, e.Decided(), Confidence)
	e.Verdict = b.Classify(e.CI)
	if len(e.times) > 0 {
		ts := slices.Clone(e.times)
		slices.Sort(ts)
		e.Timed = true
		e.MedianTime, e.P90Time = quantile(ts, 0.5), quantile(ts, 0.9)
	}
}

// quantile returns the q-quantile of sorted durations (nearest rank).
func quantile(ts []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(ts)))) - 1
	return ts[min(max(i, 0), len(ts)-1)]
}

// Stream returns the PCG stream of sample s at point p of fragment f: the
// instance's randomness depends only on the seed and this global index,
// never on the worker count, the grid around p or the order of work.
func Stream(f fragments.Fragment, p Point, s int) uint64 {
	return uint64(f)<<60 | uint64(p.M)<<48 | uint64(p.N1)<<40 | uint64(p.N2)<<32 | uint64(s)
}

// Draw samples instance s of point p.
func Draw(f fragments.Fragment, params fragments.Params, seed uint64, p Point, s int) (fragments.Instance, error) {
	rng := rand.New(rand.NewPCG(seed, Stream(f, p, s)))
	return fragments.Sample(rng, f, params, p.M, p.N1, p.N2)
}

func (c *Config) check() error {
	switch {
	case c.Samples < 1:
		return fmt.Errorf("samples must be at least 1, got %d", c.Samples)
	case !(c.Band.Lo <= c.Band.Hi):
		return fmt.Errorf("band [%v, %v] is empty", c.Band.Lo, c.Band.Hi)
	}
	for _, p := range c.Points {
		if p.M >= 1<<12 || p.N1 >= 1<<8 || p.N2 >= 1<<8 {
			return fmt.Errorf("point m=%d n1=%d n2=%d is too large for a sweep", p.M, p.N1, p.N2)
		}
	}
	return nil
}
