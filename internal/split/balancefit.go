package split

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/learn"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// The surface balance in stages. An unsat instance with a
// contradictory pair of sentences (its certified UnsatPair) is one that a
// reasoner comparing sentences two at a time refutes: that is difficulty,
// and its pair stays as it is. What must not tell the labels apart is the
// rest: on the instances without such a pair, how the sentences combine
// (their pair patterns, textfeat.PairPatterns) as much as what single
// sentences show. So the balance thins in two stages, each a model of the
// kind stage describes, fitted to the pilot (and, where the plan asks for
// it, a third between them, Residual, fitted to a second pilot: see
// residual.go):
//
//   - Free, on the candidates without a contradictory pair (every sat one
//     and the unsat ones without), models P(sat) on the surface features,
//     the trees' structure and three scores of the candidate's pair
//     patterns, and thins the two labels to one distribution of all of
//     them. The scores come from logistic models on the patterns of pairs
//     sharing one content word, fitted to Free's candidates, and sharing
//     one and two, fitted to every candidate: an unsat instance with a
//     contradictory pair tends to hold more pairs that nearly contradict,
//     and the weights a model learns from those instances (as the audit's
//     pairs baselines do, trained on all of train) also tell sat from
//     unsat instances without one, more sharply than the fewer instances
//     without a pair alone can teach it;
//   - Core, on every candidate, those without a pair weighted by what Free
//     keeps of them, models P(no contradictory pair) on the surface alone,
//     and thins the two kinds to one distribution of it.
//
// A stage keeps a candidate of class c with probability min(1, f_other(x)
// / f_c(x)) (f_c the density of class c at its features x, as the model
// has them, times a target ratio of the classes), so the kept candidates
// of both classes have one density and the target ratio: for Free the
// pilot's ratio of sat to unsat, for Core the one that keeps the pilot's
// ratio of unsat candidates with and without a contradictory pair. Core
// thins the sat and unsat candidates without a pair by the same function
// of the surface, so what Free made alike stays alike; after both, sat
// instances, unsat ones without a contradictory pair and unsat ones with
// one share one distribution of the surface, and the first two one
// distribution of their pair patterns.

// keepProb returns the probability of keeping a candidate of the given
// class (1 or 0; a sat label is 1) whose modelled P(class 1) is p, in a
// stage that keeps odds of class 1 over class 0: min(1, f_0 / f_1) for
// class 1 and min(1, f_1 / f_0) for class 0, where f_1 / f_0 is p's odds
// (p clipped to [PClip, 1−PClip]) over those.
func keepProb(p float64, class int, odds float64) float64 {
	p = math.Min(math.Max(p, PClip), 1-PClip)
	d := p / (1 - p) / odds
	if class == 1 {
		return math.Min(1, 1/d)
	}
	return math.Min(1, d)
}

// Seeds that separate the streams of keep decisions from the sampler's
// and from each other.
const (
	balanceSeed = 0x62616c616e6365 // "balance": Free's draw of a candidate
	coreSeed    = 0x636f7265       // "core": Core's draw of a candidate
	pilotSeed   = 0x70696c6f74     // "pilot": Free's draw of a pilot candidate, for fitting Core
)

// keepDraw is candidate idx's uniform number in [0, 1) for the keep
// decision of the stream salt: a function of the seed, the stream and the
// index alone.
func keepDraw(seed, salt uint64, idx int) float64 {
	return rand.New(rand.NewPCG(seed^salt, uint64(idx))).Float64()
}

// balanceFolds is the number of folds of the pilot: a candidate of fold
// f (index i, i mod balanceFolds = f) is scored out of sample by the
// models fitted to the other folds. The more folds, the closer those
// models come to the one fitted to the whole pilot, which scores the
// set's candidates, and the less the calibration fitted to their scores
// understates its confidence.
const balanceFolds = 5

// balanceModels are the two stages of a pool's balance (see above); a
// stage whose pilot holds fewer than minClass of one of its classes is
// nil and thins nothing.
type balanceModels struct {
	Free     *stage    `json:"free"`
	Residual *residual `json:"residual,omitempty"`
	Core     *stage    `json:"core"`
}

// minClass is the fewest pilot candidates of each class a stage is
// fitted to.
const minClass = 10

// stage is one binary model of the balance. Full, fitted to every pilot
// candidate of the stage, scores the set's candidates; Folds[f], fitted to
// every fold but f, scores fold f out of sample while the stages are
// fitted (and is dropped after). Boost adds to each
// logistic model's log-odds what gradient-boosted trees on the
// candidate's structure find in what it leaves (boostModels). Pairs, when
// the stage sees pair patterns, score them; each score is one more
// feature of both. Calib maps the two log-odds to P(class 1): a logistic
// regression of the pilot's classes on their out-of-fold values. It
// shrinks each toward the base rate as far as it fails to predict candidates its model
// has not seen, so that where the features carry no signal the estimation
// noise of the weights is not turned into one.
type stage struct {
	Full  *learn.Logistic   `json:"full"`
	Folds []*learn.Logistic `json:"folds"`
	Boost *boostModels      `json:"boost"`
	Pairs []*pairScorer     `json:"pairs,omitempty"`
	Calib *learn.Logistic   `json:"calib"`
	// Odds is the ratio of class 1 to class 0 that the thinning keeps:
	// the pilot's (see fitModels for Core's).
	Odds float64 `json:"odds"`
	// Shortcut is what the features told of the class before thinning.
	Shortcut PilotShortcut `json:"shortcut"`
}

// keep reports whether candidate idx (an index of the whole build, as
// keepDraw takes it) with surface s and the given label is kept.
func (m *balanceModels) keep(seed uint64, idx int, s surface, label int) bool {
	if label == dataset.LabelUnsat && s.core {
		return m.Core == nil || keepDraw(seed, coreSeed, idx) < keepProb(m.Core.prob(s, -1), 0, m.coreOdds())
	}
	if m.Free != nil && keepDraw(seed, balanceSeed, idx) >= keepProb(m.Free.prob(s, -1), label, m.Free.Odds) {
		return false
	}
	if m.Residual != nil && keepDraw(seed, residualSeed, idx) >= keepProb(m.Residual.prob(s), label, m.Residual.Odds) {
		return false
	}
	return m.Core == nil || keepDraw(seed, coreSeed, idx) < keepProb(m.Core.prob(s, -1), 1, m.coreOdds())
}

// boostModels are the nonlinear part of a stage. A linear model on
// counts misses interactions and thresholds: gradient boosting on the
// counts of sentence skeletons and on structural statistics of the text
// (textfeat.Structure) predicted 57-61% of default builds whose linear
// baselines were at chance. So the trees are fitted to the pilot on top
// of the logistic model's log-odds (learn.FitBoostedFrom), on the sizes,
// the counted features of Features, the structural statistics, the
// counts of the pilot's commonest skeletons and the pair scores; Full and
// Folds pair with the logistic models of the same name.
type boostModels struct {
	Skeletons *textfeat.Skeletons `json:"skeletons"`
	Full      *learn.Boosted      `json:"full"`
	Folds     []*learn.Boosted    `json:"folds"`
}

// boostSkeletons is the number of skeletons the trees count.
const boostSkeletons = 128

// surface is what the balance sees of a candidate: Features, the
// skeletons and structural statistics of textfeat.Structure, the
// patterns of its sentence pairs sharing a content word
// (textfeat.PairPatterns), and whether it holds a contradictory pair.
type surface struct {
	// fc counts the candidate's Features (features computes them); x,
	// where it is not nil, holds them instead (tests' surfaces).
	fc    featureCounts
	x, st []float64
	skel  []uint64
	pairs [2][]uint64 // sharing one content word, two
	core  bool
	// A pilot candidate holds its pair patterns as numbers of the pilot's
	// table instead (compact): ids in place of pairs, packed.
	ids   [2]textfeat.PackedNumbers
	table *textfeat.PatternTable
}

// features appends s's Features to dst.
func (s surface) features(dst []float64) []float64 {
	if s.x != nil {
		return append(dst, s.x...)
	}
	return s.fc.appendTo(dst)
}

// nfeatures is the number of s's Features.
func (s surface) nfeatures() int {
	if s.x != nil {
		return len(s.x)
	}
	return s.fc.len()
}

// patterns returns s's patterns of pairs sharing at least shared content
// words.
func (s surface) patterns(shared int) []uint64 {
	if s.table == nil {
		return s.pairs[shared-1]
	}
	keys := s.table.Keys(s.numbers(shared, nil))
	slices.Sort(keys)
	return keys
}

// numbers appends to dst the numbers of s's patterns of pairs sharing at
// least shared content words, of a pilot candidate, in increasing order.
func (s surface) numbers(shared int, dst []uint32) []uint32 {
	return s.packed(shared).AppendTo(dst)
}

// packed returns the packed numbers of s's patterns of pairs sharing at
// least shared content words, of a pilot candidate.
func (s surface) packed(shared int) textfeat.PackedNumbers {
	if s.ids[shared-1] == nil {
		panic("split: the pair patterns of a pilot candidate read after fitModels let them go")
	}
	return s.ids[shared-1]
}

// compact replaces s's patterns by their numbers in t, the table of its
// pilot, packed (textfeat.PackedNumbers): a pilot of 100,000 A
// candidates, about 400 patterns each, takes a quarter of the memory of
// its patterns held as they are, and the pair models count and look up
// numbers instead of hashing patterns.
func compact(s *surface, t *textfeat.PatternTable) {
	for k, ps := range s.pairs {
		s.ids[k] = textfeat.PackNumbers(t.Numbers(ps, true))
	}
	s.pairs, s.table = [2][]uint64{}, t
}

// surfaceRecord returns what surfaceOf reads of record r (its
// sentences, templates, words, formulas and contradictory pair), and its
// label: all the merge reads of a pilot candidate, which a shard so
// stores without the rest (its text and certificate).
func surfaceRecord(r *dataset.Record) *dataset.Record {
	return &dataset.Record{Sentences: r.Sentences, Templates: r.Templates, N1: r.N1, N2: r.N2, Nouns: r.Nouns, Verbs: r.Verbs,
		Formulas: r.Formulas, Label: r.Label, Difficulty: dataset.Difficulty{UnsatPair: r.Difficulty.UnsatPair}}
}

// surfaceOf returns the surface of record r of fragment f.
func surfaceOf(f fragments.Fragment, r *dataset.Record) surface {
	skel, st := textfeat.Structure(r.Sentences)
	one, two := textfeat.PairPatterns(r.Sentences, nil)
	return surface{fc: countFeatures(f, r), st: st[:], skel: skel, pairs: [2][]uint64{one, two}, core: len(r.Difficulty.UnsatPair) > 0}
}

// boostRow returns the trees' input for a candidate: m, n1, n2, the
// counts of Features (not their shares and logarithms, which trees do not
// need), the structural statistics and the skeleton counts.
func boostRow(s surface, sk *textfeat.Skeletons) []float64 {
	x := s.features(nil)
	nc := (len(x) - 5 - len(balanceWords) - 18) / 3
	row := make([]float64, 0, 4+nc+len(s.st)+len(sk.Keys))
	row = append(row, x[:3]...)
	for j := range nc {
		row = append(row, x[5+3*j])
	}
	row = append(row, s.st...)
	row = row[:len(row)+len(sk.Keys)]
	sk.Count(s.skel, row[len(row)-len(sk.Keys):])
	return row
}

// PilotShortcut measures the shortcut of a stage before thinning: on its
// pilot candidates, the accuracy of the out-of-fold scores (class 1 where
// the calibrated P(class 1) is at least 1/2) of the logistic model alone
// (Linear) and with the trees (Accuracy), and of the majority class.
type PilotShortcut struct {
	Decided  int     `json:"decided"`
	Linear   float64 `json:"linear"`
	Accuracy float64 `json:"accuracy"`
	Majority float64 `json:"majority"`
}

// without returns the rows whose pilot index (idx) is not in fold f.
func without[T any](rows []T, idx []int, f int) []T {
	var out []T
	for j, i := range idx {
		if i%balanceFolds != f {
			out = append(out, rows[j])
		}
	}
	return out
}

// fitModels fits the two stages to the surfaces s and labels y of the
// decided pilot candidates, whose indices in the pilot are idx; draw(i)
// is pilot candidate i's uniform number for Free's keep decision.
func fitModels(s []surface, y []int8, idx []int, draw func(i int) float64) *balanceModels {
	m := &balanceModels{}
	if len(s) > 0 && s[0].table == nil {
		t := textfeat.NewPatternTable()
		for j := range s {
			compact(&s[j], t)
		}
	}
	var fy []int8
	var fi, free []int // Free's candidates: their labels, pilot indices and rows of s
	for j := range s {
		if y[j] == 1 || !s[j].core {
			fy, fi, free = append(fy, y[j]), append(fi, idx[j]), append(free, j)
		}
	}
	if enough(fy) {
		// Once the scorers are fitted the pilot's pair patterns are read
		// through their out-of-fold scores alone, which cover every
		// candidate the fit scores (Free's, and the others are never
		// scored by Free), so the patterns go as soon as the designs
		// that need them are made: those of pairs sharing two words
		// after the design of the one scorer that reads them, fitted
		// first. Those of pairs sharing one serve two scorers, whose
		// columns are both chosen first; then the patterns become the
		// rows of the scorer fitted to every candidate, and go, and
		// once it is fitted Free's rows are made from the rows of Free's
		// candidates (a pattern Free's candidates show pairMinCount
		// times every candidate does).
		t := s[0].table
		all := make([]int, len(s))
		for j := range all {
			all[j] = j
		}
		drop := func(k int) {
			for j := range s {
				s[j].ids[k] = nil
			}
		}
		twoIDs, twoCols := pilotVocabulary(s, all, 2)
		twoRows := pilotRows(s, all, 2, twoCols)
		drop(1)
		two := fitPairScorer(t, twoIDs, learn.DesignOfPacked(len(twoIDs), twoRows), y, idx, 2)
		freeIDs, freeCols := pilotVocabulary(s, free, 1)
		oneIDs, oneCols := pilotVocabulary(s, all, 1)
		rows := pilotRows(s, all, 1, oneCols)
		drop(0)
		one := fitPairScorer(t, oneIDs, learn.DesignOfPacked(len(oneIDs), rows), y, idx, 1)
		toFree := make([]int32, len(oneIDs))
		for c, id := range oneIDs {
			toFree[c] = freeCols[id]
		}
		freeRows := make([]learn.PackedColumns, len(free))
		var buf []int32
		for k, j := range free {
			buf = remap(rows[j].AppendTo(buf[:0]), toFree)
			freeRows[k] = learn.PackColumns(buf)
		}
		pairs := []*pairScorer{fitPairScorer(t, freeIDs, learn.DesignOfPacked(len(freeIDs), freeRows), fy, fi, 1), one, two}
		// Free's surfaces are copied only now, while no pattern numbers
		// are held, and without them.
		fs := make([]surface, len(free))
		for k, j := range free {
			fs[k] = s[j]
		}
		m.Free = fitStage(fs, fy, fi, pairs)
	}
	// Core's classes: 1 for a candidate without a pair that Free keeps
	// (judged out of fold, as a candidate of the set is judged by a model
	// that has not seen it), 0 for one with a pair.
	var cs []surface
	var cy []int8
	var ci []int
	unsat, kept := 0, 0 // unsat candidates without a pair, and those Free keeps
	for j := range s {
		switch {
		case y[j] == 0 && s[j].core:
			cs, cy, ci = append(cs, s[j]), append(cy, 0), append(ci, idx[j])
		case m.Free == nil || draw(idx[j]) < keepProb(m.Free.prob(s[j], idx[j]), int(y[j]), m.Free.Odds):
			cs, cy, ci = append(cs, s[j]), append(cy, 1), append(ci, idx[j])
			kept += 1 - int(y[j])
			unsat += 1 - int(y[j])
		default:
			unsat += 1 - int(y[j])
		}
	}
	if enough(cy) {
		m.Core = fitStage(cs, cy, ci, nil)
		// Free thinned the unsat candidates without a pair and not those
		// with one: Core keeps the two kinds of unsat candidates in the
		// pilot's proportion, so that the share of contradictory pairs
		// among unsat instances is the sampler's.
		if kept > 0 {
			m.Core.Odds *= float64(unsat) / float64(kept)
		}
	}
	m.Free.trim()
	m.Core.trim()
	return m
}

// trim drops the fold models, which only serve the fit: the set's
// candidates are scored by the full ones, and the checkpoint that holds
// the stage is written again and again.
func (st *stage) trim() {
	if st == nil {
		return
	}
	st.Folds = nil
	if st.Boost != nil {
		st.Boost.Folds = nil
	}
	for _, ps := range st.Pairs {
		ps.Folds, ps.oof = nil, nil
	}
}

// fitEach runs fit(0) to fit(n-1), as many at once as there are cores.
// Each fit must read only what they share and write only its own
// result; a deterministic fit then comes out the same in any order.
func fitEach(n int, fit func(k int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for k := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			fit(k)
		}()
	}
	wg.Wait()
}

// enough reports whether y holds minClass of each class.
func enough(y []int8) bool {
	n1 := 0
	for _, c := range y {
		n1 += int(c)
	}
	return n1 >= minClass && len(y)-n1 >= minClass
}

// fitStage fits a stage to the surfaces s and classes y of pilot
// candidates whose indices are idx, with the scores of the pair models.
func fitStage(s []surface, y []int8, idx []int, pairs []*pairScorer) *stage {
	st := &stage{Pairs: pairs}
	// The logistic models read the rows one at a time: a stage with pair
	// scores would otherwise hold a copy of every candidate's features.
	var buf []float64
	fit := func(rows []int) *learn.Logistic {
		ys := make([]int8, len(rows))
		for k, j := range rows {
			ys[k] = y[j]
		}
		row := func(k int) []float64 {
			j := rows[k]
			buf = st.appendLinear(buf[:0], s[j], st.pairScores(s[j], idx[j]))
			return buf
		}
		return learn.FitLogisticRows(len(rows), s[0].nfeatures()+len(st.Pairs), row, ys, balanceLambda, balanceIters)
	}
	all := make([]int, len(s))
	for j := range all {
		all[j] = j
	}
	folds := make([][]int, balanceFolds) // per fold, the rows of every other fold
	for f := range folds {
		folds[f] = without(all, idx, f)
	}
	st.Full = fit(all)
	for _, rows := range folds {
		st.Folds = append(st.Folds, fit(rows))
	}
	linear := st.calibrate(s, y, idx)
	st.Boost = st.fitBoost(s, y, idx, folds)
	st.calibrate(s, y, idx)
	st.Shortcut.Linear = linear.Accuracy
	n1 := 0
	for _, c := range y {
		n1 += int(c)
	}
	st.Odds = float64(n1) / float64(len(y)-n1)
	return st
}

// pairScores returns the scores of the stage's pair models for a
// candidate: a pilot candidate (i ≥ 0, its pilot index) gets those of the
// pair models that have not seen it, a candidate of the set (i < 0)
// those of the full ones. It is nil for a stage without pair models.
func (st *stage) pairScores(s surface, i int) []float64 {
	if st.Pairs == nil {
		return nil
	}
	out := make([]float64, len(st.Pairs))
	for k, ps := range st.Pairs {
		out[k] = ps.score(s, i)
	}
	return out
}

// linear returns the logistic models' input for a candidate: Features,
// then its pair scores (pairScores).
func (st *stage) linear(s surface, pairs []float64) []float64 {
	if st.Pairs == nil {
		return s.features(nil)
	}
	return st.appendLinear(nil, s, pairs)
}

// appendLinear appends linear's input for a candidate to dst.
func (st *stage) appendLinear(dst []float64, s surface, pairs []float64) []float64 {
	return append(s.features(dst), pairs...)
}

// tree returns the trees' input for a candidate: boostRow, then its pair
// scores.
func (st *stage) tree(s surface, pairs []float64) []float64 {
	return append(boostRow(s, st.Boost.Skeletons), pairs...)
}

// fitBoost fits the trees on top of the logistic models: Full on Full's
// log-odds, each fold's (on the rows folds[f] of the other folds) on its
// logistic model's.
func (st *stage) fitBoost(s []surface, y []int8, idx []int, folds [][]int) *boostModels {
	skels := make([][]uint64, len(s))
	for j := range s {
		skels[j] = s[j].skel
	}
	st.Boost = &boostModels{Skeletons: textfeat.CommonSkeletons(skels, boostSkeletons)}
	bm := st.Boost
	// The offsets of Full's trees and of each fold's: the log-odds of the
	// logistic model of the same name, scored in one pass. The trees'
	// rows are held by column, each in the narrowest exact form: most
	// are counts, a byte each (a pilot of 100,000 A candidates held
	// 227 MB of rows as float64s).
	var rows *learn.Columns
	off := make([][]float64, 1+len(st.Folds))
	for k := range off {
		off[k] = make([]float64, len(s))
	}
	var lin []float64
	for j := range s {
		sc := st.pairScores(s[j], idx[j])
		row := st.tree(s[j], sc)
		if rows == nil {
			rows = learn.NewColumns(len(row))
		}
		rows.Append(row)
		lin = st.appendLinear(lin[:0], s[j], sc)
		off[0][j] = st.Full.Score(lin)
		for f, l := range st.Folds {
			off[1+f][j] = l.Score(lin)
		}
	}
	if rows == nil {
		rows = learn.NewColumns(0)
	}
	// A tree fit is serial: Full and the folds' fits run side by side,
	// one per core. (The logistic fits, whose objective already works on
	// blocks of rows in parallel, run one at a time: side by side they
	// held two fits' working sets, up to a few hundred MB each for the
	// pair models, for little gain in time on large pilots, whose
	// blocks keep the cores busy.)
	fits := make([]*learn.Boosted, 1+len(st.Folds))
	fitEach(len(fits), func(k int) {
		if k == 0 {
			fits[0] = learn.FitBoostedMatrix(rows, y, off[0], learn.BoostOptions{})
			return
		}
		f := k - 1
		fits[k] = learn.FitBoostedMatrix(rows.Subset(folds[f]), without(y, idx, f), without(off[k], idx, f), learn.BoostOptions{})
	})
	bm.Full, bm.Folds = fits[0], fits[1:]
	return bm
}

// calibrate fits Calib to the out-of-fold scores of the pilot and sets
// Shortcut from them; it returns Shortcut.
func (st *stage) calibrate(s []surface, y []int8, idx []int) PilotShortcut {
	z := make([][]float64, len(s))
	for j, i := range idx {
		z[j] = st.outOfFold(i, s[j])
	}
	st.Calib = learn.FitLogistic(z, y, 0, balanceIters)
	acc, maj := accuracy(st.Calib, z, y)
	st.Shortcut = PilotShortcut{Decided: len(z), Accuracy: acc, Majority: maj}
	return st.Shortcut
}

// accuracy returns how often calib's P(class 1) of the scores z is on
// the side of 1/2 of the classes y, and the share of the majority class,
// both rounded to 4 places.
func accuracy(calib *learn.Logistic, z [][]float64, y []int8) (acc, majority float64) {
	right, ones := 0, 0
	for j := range z {
		if (calib.Prob(z[j]) >= 0.5) == (y[j] == 1) {
			right++
		}
		ones += int(y[j])
	}
	n := len(z)
	if n == 0 {
		return 0, 0
	}
	return math.Round(1e4*float64(right)/float64(n)) / 1e4, math.Round(1e4*float64(max(ones, n-ones))/float64(n)) / 1e4
}

// outOfFold returns the log-odds of pilot candidate i (surface s) by the
// logistic model and by the trees that have not seen it (0 before there
// are trees). Calib weighs the two apart: the trees, fitted to what the
// logistic model leaves, are the noisier, and one weight for their sum
// would shrink the logistic part's signal with their noise.
func (st *stage) outOfFold(i int, s surface) []float64 {
	f := i % balanceFolds
	sc := st.pairScores(s, i)
	z := []float64{st.Folds[f].Score(st.linear(s, sc)), 0}
	if st.Boost != nil {
		z[1] = st.Boost.Folds[f].Score(st.tree(s, sc))
	}
	return z
}

// prob returns the calibrated P(class 1) of a candidate with surface s:
// a candidate of the set (i < 0) by the full models, pilot candidate i
// out of fold.
func (st *stage) prob(s surface, i int) float64 {
	if i >= 0 {
		return st.Calib.Prob(st.outOfFold(i, s))
	}
	sc := st.pairScores(s, -1)
	z := []float64{st.Full.Score(st.linear(s, sc)), 0}
	if st.Boost != nil {
		z[1] = st.Boost.Full.Score(st.tree(s, sc))
	}
	return st.Calib.Prob(z)
}

// pairScorer is the pair part of a stage: a logistic model on which of
// the pilot's common pair patterns (those of at least pairMinCount of its
// candidates) a candidate's sentences show, fitted to the whole pilot
// (Full) and to every fold but one (Folds), with the penalty Lambda.
type pairScorer struct {
	// Shared is the fewest content words the pairs share: 1 or 2.
	Shared int             `json:"shared"`
	Keys   []uint64        `json:"keys"`
	Lambda float64         `json:"lambda"`
	Full   *learn.Sparse   `json:"full"`
	Folds  []*learn.Sparse `json:"folds"`
	// oof holds, while the stages are fitted, the out-of-fold score of
	// each pilot candidate the scorer was fitted to, by pilot index (NaN
	// for the others): the fit asks for it again and again.
	oof []float64
	// column maps Keys to their places, made on first use (also for a
	// scorer read back from a checkpoint).
	column     textfeat.PatternIndex
	columnOnce sync.Once
}

// Pair model settings: the patterns a pilot must show this often to be
// features, and the L2 penalty on the mean log-loss. (Choosing the
// penalty among 3e-4, 1e-3 and 3e-3 by out-of-fold log-loss took 1e-3 and
// tripled the fit's time and memory, without changing what the audit
// finds.)
const (
	pairMinCount = 3
	pairLambda   = 1e-3
)

// fitPairScorer fits a pair model on the patterns of pairs that share at
// least shared content words to the pilot candidates whose presences of
// the patterns numbered ids in t are the rows of d (pilotRows), with
// classes y and pilot indices idx.
func fitPairScorer(t *textfeat.PatternTable, ids []uint32, d *learn.Design, y []int8, idx []int, shared int) *pairScorer {
	ps := &pairScorer{Shared: shared, Lambda: pairLambda, Keys: t.Keys(ids)}
	fit := func(f int) *learn.Sparse {
		var rows []int
		var ys []int8
		for j, i := range idx {
			if i%balanceFolds != f {
				rows = append(rows, j)
				ys = append(ys, y[j])
			}
		}
		return learn.FitSparse(d.Subset(rows), ys, learn.Settings{Lambda: pairLambda, Iterations: balanceIters})
	}
	for f := range balanceFolds {
		ps.Folds = append(ps.Folds, fit(f))
	}
	ps.Full = learn.FitSparse(d, y, learn.Settings{Lambda: pairLambda, Iterations: balanceIters})
	ps.oof = make([]float64, slices.Max(append([]int{-1}, idx...))+1)
	for i := range ps.oof {
		ps.oof[i] = math.NaN()
	}
	for j, i := range idx {
		ps.oof[i] = ps.Folds[i%balanceFolds].Score(d, j) // as score sums it
	}
	return ps
}

// pilotVocabulary returns, of the patterns of pairs sharing at least
// shared content words, the numbers in the pilot's table of those that
// at least pairMinCount occurrences among the candidates s[j], j in rows,
// show, in the order of the patterns (a pair model's columns, what
// textfeat.CommonPatterns gives), and every number's column.
func pilotVocabulary(s []surface, rows []int, shared int) ([]uint32, textfeat.PatternColumns) {
	t := textfeat.NewPatternTable()
	if len(s) > 0 {
		t = s[0].table
	}
	for j := range s {
		if s[j].table != t {
			panic("split: pilot candidates whose patterns are numbered by different tables")
		}
	}
	var buf []uint32
	return t.Vocabulary(len(rows), func(k int) []uint32 {
		buf = s[rows[k]].numbers(shared, buf[:0])
		return buf
	}, pairMinCount)
}

// pilotRows returns the rows of a pair model's design (the presences of
// its patterns, whose columns are column) of the candidates s[j], j in
// rows: a row's columns in the order of its patterns, as columns gives
// them, packed (a pair model's rows over a pilot of 100,000 A candidates
// took 123 MB as int32s, 62 MB packed).
func pilotRows(s []surface, rows []int, shared int, column textfeat.PatternColumns) []learn.PackedColumns {
	each := make([]learn.PackedColumns, len(rows))
	var buf []int32
	for k, j := range rows {
		buf = s[j].packed(shared).AppendColumns(buf[:0], column)
		each[k] = learn.PackColumns(buf)
	}
	return each
}

// remap replaces, in place, the columns of row that to maps to a column
// (to[c] ≥ 0) by that, drops the others, and returns what is left.
func remap(row, to []int32) []int32 {
	out := row[:0]
	for _, c := range row {
		if n := to[c]; n >= 0 {
			out = append(out, n)
		}
	}
	return out
}

// release lets go of the index that columns makes, which its next call
// makes again.
func (ps *pairScorer) release() {
	ps.column, ps.columnOnce = nil, sync.Once{}
}

// release lets go of what the models' scorers index for scoring
// candidates of the set (release); m may be nil.
func (m *balanceModels) release() {
	if m == nil {
		return
	}
	for _, st := range []*stage{m.Free, m.Core} {
		if st != nil {
			for _, ps := range st.Pairs {
				ps.release()
			}
		}
	}
	if r := m.Residual; r != nil {
		r.column, r.columnOnce = [2]textfeat.PatternIndex{}, sync.Once{}
	}
}

// columns returns the columns of the patterns among the scorer's, in
// the patterns' order.
func (ps *pairScorer) columns(pairs []uint64) []int32 {
	ps.columnOnce.Do(func() { ps.column = textfeat.NewPatternIndex(ps.Keys) })
	return ps.column.AppendColumns(nil, pairs)
}

// patterns returns the candidate's patterns the scorer sees.
func (ps *pairScorer) patterns(s surface) []uint64 { return s.patterns(ps.Shared) }

// score returns the pair model's log-odds for the candidate s: pilot
// candidate i by the fold model that has not seen it, a candidate of the
// set (i < 0) by the full one.
func (ps *pairScorer) score(s surface, i int) float64 {
	if i >= 0 && i < len(ps.oof) && !math.IsNaN(ps.oof[i]) {
		return ps.oof[i]
	}
	m := ps.Full
	if i >= 0 {
		m = ps.Folds[i%balanceFolds]
	}
	return m.ScoreRow(ps.columns(ps.patterns(s)), nil)
}
