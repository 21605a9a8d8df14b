package entail

import (
	"github.com/nlsat/nlsat/internal/learn"
	"github.com/nlsat/nlsat/internal/split/units"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// The balance of the premise–hypothesis patterns. A triple's hypotheses
// share their shape and novelty, but not how each meets the premises
// that share its words: the patterns of a premise and the hypothesis
// (textfeat.PremisePatterns) are largely where a proof starts or ends,
// and a logistic model over them told the labels apart (the audit's
// premise-pairs: 52% of three-way votes right on V, 46% on A, against
// 33% by chance). Matching the patterns themselves across a triple finds
// no triple at an affordable cost, and thinning triples by a model of
// them barely helps (a premise set that makes one label's hypothesis
// easy to read tends to make the next one drawn for it easy too). So a
// build matches the three hypotheses on what a model of the patterns
// makes of them.
//
// A pilot of triples, drawn before the build's candidates without the
// balance, fits one model per fragment: three pairwise logistic models
// on the patterns, each on the pilot's records of two labels, whose
// log-odds estimate log f_a(x) / f_b(x), f_c the density of label c's
// hypotheses at the patterns x, combined by least squares into one score
// s_c(x) per label. A hypothesis's bin is the order of its three scores
// (numOrders of them: which label the model finds likeliest, and which
// next), and a triple's three hypotheses share their bin as they share
// their novelty. A model of the patterns like the pilot's then reads the
// same order in all three records of every triple, whatever their labels.
//
// That closes the direction the pilot's model found, but not the channel:
// in triples matched on it, a model fitted to them finds another
// direction, which a model of unmatched triples does not see (on V, the
// audit's premise-pairs still voted right on 42–47% of the validation
// and test records, and told entailment from contradiction on 68%). So
// the balance has a residual stage (units.Refiner): a second pilot of as
// many triples, drawn with the first model's matching, fits a second
// model the same way, and a hypothesis's bin is the first model's order
// with the label the second finds likeliest (numOrders × 3 bins).
// Matching on the second model's whole order (36 bins) did no better on
// V and draws more slowly.

// Balance settings: the pilot's size, the patterns a fragment's pilot
// must show this often to be features, and the models' L2 penalty and
// iterations (the audit's premise-pairs' own).
const (
	maxPilot        = 6000
	minPilot        = 600
	patternMinCount = 2
	balanceLambda   = 1e-3
	balanceIters    = 100
	// minBalanced is the fewest pilot triples of a fragment that fit
	// its model; a fragment with fewer is drawn without bins.
	minBalanced = 50
)

// pilotUnits is the pilot of a build of n triples: twice as many, at
// least minPilot or eight times as many, whichever is less, and at most
// maxPilot.
func pilotUnits(n int) int {
	return min(maxPilot, max(2*n, min(minPilot, 8*n)))
}

// balancer is one fragment's balance: the model fitted to the pilot
// and, once the residual pilot is fitted, the model fitted to it.
type balancer struct {
	first, residual *patternModel
}

// bin returns the hypothesis's bin: the order of the first model's
// scores for it, and with the residual stage, that order and the label
// the second model finds likeliest.
func (b *balancer) bin(premises *textfeat.Premises, hypothesis string) int {
	pats, _ := premises.Patterns(hypothesis)
	k := order(b.first.scores(pats))
	if b.residual != nil {
		k = k*3 + order(b.residual.scores(pats))/2
	}
	return k
}

// patternModel is one fragment's model of the patterns.
type patternModel struct {
	column textfeat.PatternIndex
	// pair[k] scores labels a over b for the k-th of pairs.
	pair [3]*learn.Sparse
}

// pairs are the pairs of labels of the pairwise models, in order.
var pairs = [3][2]Label{{Entailment, Neutral}, {Entailment, Contradiction}, {Neutral, Contradiction}}

// fitBalance fits a model per fragment to the pilot's triples.
func fitBalance(pilot [][]units.Record) map[string]*patternModel {
	byFrag := map[string][]*Record{}
	var frags []string
	for _, u := range pilot {
		for _, r := range u {
			e := r.(*Record)
			if byFrag[e.Fragment] == nil {
				frags = append(frags, e.Fragment)
			}
			byFrag[e.Fragment] = append(byFrag[e.Fragment], e)
		}
	}
	out := map[string]*patternModel{}
	for _, f := range frags {
		if recs := byFrag[f]; len(recs) >= 3*minBalanced {
			out[f] = fitPatternModel(recs)
		}
	}
	return out
}

// fitPatternModel fits the pairwise models to the records of one
// fragment.
func fitPatternModel(recs []*Record) *patternModel {
	pats := make([][]uint64, len(recs))
	for i, r := range recs {
		pats[i], _ = textfeat.PremisePatterns(r.Premises, r.Hypothesis, nil)
	}
	keys := textfeat.CommonPatterns(len(pats), func(i int) []uint64 { return pats[i] }, patternMinCount)
	m := &patternModel{column: textfeat.NewPatternIndex(keys)}
	for k, pr := range pairs {
		d := learn.NewDesign(len(keys))
		var y []int8
		for i, r := range recs {
			switch Label(r.Label) {
			case pr[0]:
				y = append(y, 1)
			case pr[1]:
				y = append(y, 0)
			default:
				continue
			}
			d.AddPresent(m.column.AppendColumns(nil, pats[i]))
		}
		m.pair[k] = learn.FitSparse(d, y, learn.Settings{Lambda: balanceLambda, Iterations: balanceIters})
	}
	return m
}

// numOrders is the number of orders of a model's three scores (order),
// and numBins the number of bins of a hypothesis (balancer.bin).
const (
	numOrders = 6
	numBins   = numOrders * 3
)

// order returns the order of three scores: the likeliest label times two
// plus whether the first label after it (in MNLI's order, wrapping
// around) outscores the other.
func order(s [3]float64) int {
	best := 0
	for c := range s {
		if s[c] > s[best] {
			best = c
		}
	}
	if s[(best+1)%3] > s[(best+2)%3] {
		return 2*best + 1
	}
	return 2 * best
}

// scores returns the least-squares scores of the three labels from the
// pairwise log-odds l01, l02 and l12 of a hypothesis whose patterns with
// the premises are pats: s0 − s1 ≈ l01 and so on, the three summing to 0.
func (m *patternModel) scores(pats []uint64) [3]float64 {
	cols := m.column.AppendColumns(nil, pats)
	var l [3]float64
	for k, sp := range m.pair {
		l[k] = sp.ScoreRow(cols, nil)
	}
	return [3]float64{(l[0] + l[1]) / 3, (-l[0] + l[2]) / 3, (-l[1] - l[2]) / 3}
}
