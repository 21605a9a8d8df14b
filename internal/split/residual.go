package split

import (
	"math"
	"slices"
	"sync"

	"github.com/nlsat/nlsat/internal/learn"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// The residual stage. Free and Core are fitted to the pilot, and judged
// there out of fold; but what they leave in the candidates the set goes
// on to keep is not what they leave on the pilot. On A (30,000 train
// records), a pairs baseline trained on the instances a build keeps
// separated the sat test instances from the unsat ones without a
// contradictory pair with an AUC of 0.57, and a second model fitted to
// the pilot, each candidate weighted by the probability that Free keeps
// it, did not find that signal (0.565 after thinning by it). A model
// fitted to candidates that Free and Core really kept did (0.52–0.53).
//
// So a set whose plan asks for it (Balance.Residual) draws a residual
// pilot of ResidualFor candidates after its pilot, keeps those the first
// stages keep, and fits Residual to the kept ones without a contradictory
// pair: a logistic model of P(sat) on the patterns of their sentence
// pairs (sharing one content word, and sharing two), in the audit's
// form, and on their standardised surface features. Each candidate of
// the set without a contradictory pair that Free keeps is thinned again
// by it, as Free thins (keepProb, at the ratio of sat to unsat among
// what it was fitted to), before Core.
//
// A joint build's audit learns from every fragment's train at once, and
// with a stage per fragment it found what the stages had left of the
// patterns the fragments share (pairs-2 AUC 0.57–0.58 on V and A at
// --min-core 3, 30,000 / 3,000 / 3,000). So the stages of a joint
// build's train sets are fitted together, as are those of its
// evaluation sets (fitResidualStages), to 0.54–0.56.

// residualLambda and residualIters are Residual's L2 penalty (on the mean
// log-loss) and its most L-BFGS iterations.
const (
	residualLambda = 1e-3
	residualIters  = 200
)

// residualSeed separates Residual's keep draws from the other stages'.
const residualSeed = 0x7265736964 // "resid"

// residual is the residual stage: Fit's columns are Keys[0]'s patterns
// (pairs sharing at least one content word), Keys[1]'s (two), and the
// surface features standardised by Mean and Scale.
type residual struct {
	Keys  [2][]uint64   `json:"keys"`
	Mean  []float64     `json:"mean"`
	Scale []float64     `json:"scale"`
	Fit   *learn.Sparse `json:"fit"`
	// Odds is the ratio of sat to unsat candidates it was fitted to,
	// which its thinning keeps.
	Odds float64 `json:"odds"`
	// Kept is the share of the unsat candidates like those it was
	// fitted to that it keeps (by their probabilities), for Core
	// (balanceModels.coreOdds); 0 when unknown.
	Kept float64 `json:"kept"`

	column     [2]textfeat.PatternIndex
	columnOnce sync.Once
}

// fitResidualStage fits Residual to the residual pilot's candidates s
// (their patterns numbered by one table) with labels y and indices idx;
// it is nil when they hold fewer than minClass of a label.
func fitResidualStage(s []surface, y []int8, idx []int) *residual {
	return fitResidualStages(s, y, idx, nil, 1)[0]
}

// fitResidualStages fits the residual stages of sets sets together, to
// the candidates s of their residual pilots (their patterns numbered by
// one table) with labels y, indices idx in their own pilots, and
// member[j] the set of candidate j (nil: all of the first set). It
// returns one stage per set, nil for a set whose candidates hold fewer
// than minClass of a label, all nil when all of them together do.
//
// The sets share the pattern columns: one weight per pattern, fitted to
// every set's candidates, as a classifier trained on all of them learns
// it (a joint build's audit learns from every fragment's train at once,
// and V, Z and A share most of their patterns). Each set has its own
// block of standardised surface features (the fragments' features are
// not the same ones) and, after the first, a column of its own that
// moves the intercept, so each set's stage is a model of its own
// candidates: the shared weights, its block, and the intercept with its
// column added. One set is the single-set stage column for column.
func fitResidualStages(s []surface, y []int8, idx []int, member []int, sets int) []*residual {
	out := make([]*residual, sets)
	if !enough(y) {
		return out
	}
	set := func(j int) int {
		if member == nil {
			return 0
		}
		return member[j]
	}
	t := s[0].table
	var keys [2][]uint64
	var cols [2]textfeat.PatternColumns
	for k := range 2 {
		var buf []uint32
		ids, column := t.Vocabulary(len(s), func(i int) []uint32 {
			buf = s[i].numbers(k+1, buf[:0])
			return buf
		}, pairMinCount)
		keys[k], cols[k] = t.Keys(ids), column
	}
	n1 := len(keys[0])
	rows := make([][]int, sets) // each set's candidates
	for j := range s {
		rows[set(j)] = append(rows[set(j)], j)
	}
	// Set f's surface block starts at column off[f]; its intercept
	// column, for f > 0, is shift+f-1.
	off := make([]int, sets+1)
	off[0] = n1 + len(keys[1])
	for f := range sets {
		r := &residual{Keys: keys}
		out[f] = r
		nx := 0
		if len(rows[f]) > 0 {
			nx = s[rows[f][0]].nfeatures()
		}
		var buf []float64
		r.Mean, r.Scale = learn.MeanSD(len(rows[f]), nx, func(j int) []float64 {
			buf = s[rows[f][j]].features(buf[:0])
			return buf
		})
		for c := range r.Scale {
			if r.Scale[c] == 0 {
				r.Scale[c] = 1
			}
		}
		off[f+1] = off[f] + nx
	}
	shift := off[sets]
	// The rows are held packed, the values of the surface features apart
	// (learn.DesignOfPackedValues): a row of an A residual pilot, some
	// 400 pattern columns and 230 surface features, took 5 KB in a
	// design of columns and values, and takes about 2 KB.
	packed := make([]learn.PackedColumns, len(s))
	tails := make([][]float32, len(s))
	var ci, c1, c2 []int32
	var cv []float32
	sat := make([]int, sets)
	for j := range s {
		f := set(j)
		c1, c2 = s[j].packed(1).AppendColumns(c1[:0], cols[0]), s[j].packed(2).AppendColumns(c2[:0], cols[1])
		ci, cv = out[f].appendRow(ci[:0], cv[:0], s[j], c1, c2)
		if f > 0 {
			// Move its surface block from off[0] to off[f], and add
			// its intercept column.
			for c := range ci {
				if int(ci[c]) >= off[0] {
					ci[c] += int32(off[f] - off[0])
				}
			}
			ci, cv = append(ci, int32(shift+f-1)), append(cv, 1)
		}
		// Its columns increase: the patterns' (each set in their
		// order), then its surface block, then its intercept.
		packed[j], tails[j] = learn.PackColumns(ci), slices.Clone(cv[len(c1)+len(c2):])
		sat[f] += int(y[j])
	}
	d := learn.DesignOfPackedValues(shift+sets-1, packed, tails)
	for f, r := range out {
		r.Odds = float64(sat[f]) / float64(len(rows[f])-sat[f])
	}
	// The share of unsat candidates it keeps, out of sample: fitted to
	// all folds of the residual pilot but one and judged on that one.
	// (On the candidates it was fitted to it keeps far fewer: on A, at a
	// penalty of 0.003, 29% of them where it kept 82% of new ones.)
	var in, held []int
	var yin []int8
	for j, i := range idx {
		if i%balanceFolds == 0 {
			held = append(held, j)
		} else {
			in, yin = append(in, j), append(yin, y[j])
		}
	}
	// The penalty is on the mean log-loss, so on the summed loss it grows
	// with the rows. Divided among the sets, it stays what one set's fit
	// puts on each weight: a pattern that several sets show is shrunk
	// less than in any set's fit alone, one that a single set shows as
	// much as there.
	fitting := learn.Settings{Lambda: residualLambda / float64(sets), Iterations: residualIters}
	if len(held) > 0 && enough(yin) {
		fold := learn.FitSparse(d.Subset(in), yin, fitting)
		n := make([]int, sets)
		for _, j := range held {
			if f := set(j); y[j] == 0 {
				out[f].Kept += keepProb(sigmoid(fold.Score(d, j)), 0, out[f].Odds)
				n[f]++
			}
		}
		for f, r := range out {
			if n[f] > 0 {
				r.Kept /= float64(n[f])
			}
		}
	}
	fit := learn.FitSparse(d, y, fitting)
	for f, r := range out {
		ys := make([]int8, len(rows[f]))
		for j, i := range rows[f] {
			ys[j] = y[i]
		}
		if !enough(ys) {
			out[f] = nil
			continue
		}
		if sets == 1 {
			r.Fit = fit
			continue
		}
		b := fit.B
		if f > 0 {
			b += fit.W[shift+f-1]
		}
		w := slices.Concat(fit.W[:off[0]], fit.W[off[f]:off[f+1]])
		r.Fit = &learn.Sparse{B: b, W: w, Iterations: fit.Iterations}
	}
	return out
}

// appendRow appends a candidate's row of Fit's design (its patterns'
// columns c1 and c2 among Keys[0] and Keys[1], then its standardised
// surface features) to the columns ci and values cv.
func (r *residual) appendRow(ci []int32, cv []float32, s surface, c1, c2 []int32) ([]int32, []float32) {
	n1, n2 := len(r.Keys[0]), len(r.Keys[1])
	for _, c := range c1 {
		ci, cv = append(ci, c), append(cv, 1)
	}
	for _, c := range c2 {
		ci, cv = append(ci, int32(n1)+c), append(cv, 1)
	}
	for c, v := range s.features(nil) {
		ci, cv = append(ci, int32(n1+n2+c)), append(cv, float32((v-r.Mean[c])/r.Scale[c]))
	}
	return ci, cv
}

// prob returns Residual's P(sat) of a candidate of the set: the score
// Fit gives its row (learn.Sparse.ScoreRow, as Score sums a design's).
func (r *residual) prob(s surface) float64 {
	r.columnOnce.Do(func() {
		for k := range 2 {
			r.column[k] = textfeat.NewPatternIndex(r.Keys[k])
		}
	})
	ci, cv := r.appendRow(nil, nil, s, r.column[0].AppendColumns(nil, s.patterns(1)), r.column[1].AppendColumns(nil, s.patterns(2)))
	return sigmoid(r.Fit.ScoreRow(ci, cv))
}

// coreOdds returns the odds at which Core keeps its classes. Core keeps
// the unsat candidates with a contradictory pair in proportion to those
// without, which Residual, when there is one, thins too: then Core's
// odds grow by the share of them Residual keeps, so that the share of
// contradictory pairs among unsat instances stays the sampler's. (Core
// keeps its class 1 and class 0 at its odds; Residual leaves r_u of the
// unsat ones in class 1, so the kept ratio of unsat candidates without a
// pair to those with one is the pilot's times r_u over the factor the
// odds grew by.)
func (m *balanceModels) coreOdds() float64 {
	odds := m.Core.Odds
	if m.Residual != nil && m.Residual.Kept > 0 {
		odds /= m.Residual.Kept
	}
	return odds
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
