package dataset

import "math"

// The order of a split file. A file can give its labels away by its
// order alone: if records of one label come in runs, a record's
// neighbour tells its label. The audit measures how often two records
// Lag apart share their label, for every lag 1 to OrderMaxLag, beside
// chance (ChanceAgreement), and nlsat split writes a file of
// OrderMinRecords or more in an order whose every lag lies within
// OrderTolerance of chance (LagDeviation).

// OrderMaxLag is the largest lag whose label agreement is measured.
const OrderMaxLag = 20

// OrderTolerance is how far from chance a lag's agreement may lie.
const OrderTolerance = 0.03

// OrderMinRecords is the fewest records of a file whose order is drawn
// to keep every lag's agreement within OrderTolerance of chance. Below
// it a lag's agreement varies by more than that by chance alone (its
// standard deviation is 2.2 points at 500 records, half sat), so most
// orders would miss the band.
const OrderMinRecords = 500

// OrderTries is how many orders of such a file are drawn at most. A
// 3,000-record file of blocks of ten of each label found one in the band
// within 8 tries in six seeds, a 1,000-record one within 405, a
// 600-record one within 9,290.
const OrderTries = 1 << 15

// NearChanceOrderNote is the sentence a dataset card gives for files
// whose order is drawn to keep LagDeviation within OrderTolerance.
const NearChanceOrderNote = "Of the orders drawn from the seed, a file of at least 500 records takes the first in which records 1 to 20 apart share their label within 3 points of chance (the sum of the squared label shares) at every distance, or the closest of the first 32,768 drawn when none is. "

// ChanceAgreement is the probability that two records drawn apart from
// the label sequence y (labels 0 to labels-1) share their label: the sum
// of the squared label shares.
func ChanceAgreement(y []int8, labels int) float64 {
	if len(y) == 0 {
		return 0
	}
	n := make([]int, labels)
	for _, l := range y {
		n[l]++
	}
	c := 0.0
	for _, k := range n {
		p := float64(k) / float64(len(y))
		c += p * p
	}
	return c
}

// SameAt counts the records of the label sequence y that share their
// label with the record lag places before them.
func SameAt(y []int8, lag int) int {
	same := 0
	for k := lag; k < len(y); k++ {
		if y[k] == y[k-lag] {
			same++
		}
	}
	return same
}

// LagDeviation returns how far from chance (ChanceAgreement) the share of
// records Lag apart that share their label lies at its farthest, over
// the lags 1 to OrderMaxLag, in the label sequence y of a file.
func LagDeviation(y []int8, labels int) float64 {
	chance := ChanceAgreement(y, labels)
	worst := 0.0
	for lag := 1; lag <= OrderMaxLag && lag < len(y); lag++ {
		worst = max(worst, math.Abs(float64(SameAt(y, lag))/float64(len(y)-lag)-chance))
	}
	return worst
}

// NearChanceOrder returns the first of the orders draw(0), draw(1), …
// of a file's records in which records Lag apart share their label
// (label, 0 to labels-1) within OrderTolerance of chance at every lag up
// to OrderMaxLag, or, when none of the first OrderTries is, the first
// that comes closest. An order of fewer than OrderMinRecords records is
// taken as draw(0) gives it.
func NearChanceOrder[T any](labels int, label func(T) int8, draw func(try int) []T) []T {
	var best []T
	bestDev := 0.0
	var y []int8
	for try := range OrderTries {
		out := draw(try)
		if len(out) < OrderMinRecords {
			return out
		}
		y = y[:0]
		for _, r := range out {
			y = append(y, label(r))
		}
		dev := LagDeviation(y, labels)
		if dev <= OrderTolerance {
			return out
		}
		if best == nil || dev < bestDev {
			best, bestDev = out, dev
		}
	}
	return best
}
