package audit

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/nlsat/nlsat/internal/binom"
	"github.com/nlsat/nlsat/internal/learn"
	"github.com/nlsat/nlsat/internal/memlimit"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// Options configure an audit. A zero field takes its default, given in
// its comment.
type Options struct {
	// Threshold is the accuracy no baseline may be shown to exceed (0.55).
	Threshold float64
	// Confidence is the level of the Wilson intervals (0.95).
	Confidence float64
	// MinStratum is the number of records a stratum needs in a split to be
	// scored, and in train for its mutual information (200).
	MinStratum int
	// MBin is the width of the bins of m that form the m strata (5).
	MBin int
	// MinCount is the number of training records an n-gram must occur in
	// to join the vocabulary of the n-gram model (2).
	MinCount int
	// Permutations is the number of label permutations whose mean MI is
	// the baseline of every MI (20); Seed seeds them (1).
	Permutations int
	Seed         uint64
	// LambdaCounts and LambdaBoW are the L2 penalties of the two logistic
	// models on the mean log-loss (1e-3 each).
	LambdaCounts, LambdaBoW float64
	// Iterations bounds the L-BFGS iterations of each model (100).
	Iterations int
	// MaxTrain is the most train records the models are fitted to: the
	// first MaxTrain of the file, whose order is random and balanced in
	// blocks (200,000). The counts and the checks of the files' order and
	// metadata read every record.
	MaxTrain int
}

// DefaultOptions returns the options every zero field stands for.
func DefaultOptions() Options {
	return Options{Threshold: 0.55, Confidence: 0.95, MinStratum: 200, MBin: 5, MinCount: 2,
		Permutations: 20, Seed: 1, LambdaCounts: 1e-3, LambdaBoW: 1e-3, Iterations: 100, MaxTrain: 200000}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	set := func(v *float64, def float64) {
		if *v == 0 {
			*v = def
		}
	}
	seti := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	set(&o.Threshold, d.Threshold)
	set(&o.Confidence, d.Confidence)
	set(&o.LambdaCounts, d.LambdaCounts)
	set(&o.LambdaBoW, d.LambdaBoW)
	seti(&o.MinStratum, d.MinStratum)
	seti(&o.MBin, d.MBin)
	seti(&o.MinCount, d.MinCount)
	seti(&o.Permutations, d.Permutations)
	seti(&o.Iterations, d.Iterations)
	seti(&o.MaxTrain, d.MaxTrain)
	if o.Seed == 0 {
		o.Seed = d.Seed
	}
	return o
}

// The generic baselines' names, in report order; a task's own come
// after BoWLogreg.
const (
	Majority     = "majority"
	CountsLogreg = "counts-logreg"
	BoWLogreg    = "bow-logreg"
	GBMStructure = "gbm-structure"
)

// Run audits the dataset in dir (files dir/data/SPLIT.jsonl, SPLIT one of
// Splits), whose records are t's: it trains the baselines on train and
// scores them on every other split present. A task of two labels is
// audited as one binary problem, one of more labels as a binary problem
// per pair of labels (see PairwiseReport). Errors caused by the dataset
// are *inputerr.Error.
func Run(ctx context.Context, t Task, dir string, opts Options) (*Report, error) {
	defer tightenGC()()
	o := opts.withDefaults()
	spec := t.Spec()
	splits, gr, err := load(ctx, t, dir, o.MaxTrain)
	if err != nil {
		return nil, err
	}
	if len(spec.Labels) > 2 {
		return runPairwise(ctx, spec, dir, splits, gr, o)
	}
	rep, _, err := auditSplits(ctx, spec, dir, splits, gr, o, true)
	if err != nil {
		return nil, err
	}
	rep.Order = orderReport(splits, 2, o)
	if spec.SentencePairs {
		if rep.SentencePairs, err = pairReport(ctx, t, splits, gr, o); err != nil {
			return nil, err
		}
	}
	if spec.Difficulty {
		rep.Difficulty = difficultyReport(splits, o)
	}
	rep.summary = spec.Summary
	return rep, nil
}

// tightenGC halves the collector's target growth of the heap (GOGC: 100
// unless set) until the last of the functions it returns is called. The
// audit is the peak of a large build's memory: it holds the features of
// up to MaxTrain records while its models are fitted to them, all live
// until it ends, and the runtime lets the heap grow to twice what is live
// before it collects. Halved, the peak RSS of split --fragment S with
// 320,000 train records fell from 798 to 643 MB. Audits that overlap
// share one halving; a collector the user turned off (GOGC=off) stays
// off. For the same reason it lowers the floor of the memory limit a
// command keeps (memlimit.Tighten), which otherwise let the heap grow to
// 256 MiB whatever it held: the audit of that build's dataset peaked at
// 284 MB of RSS with 192 MB live, and at 270 MB with the floor lowered.
func tightenGC() (restore func()) {
	limit := memlimit.Tighten()
	gcTight.Lock()
	defer gcTight.Unlock()
	if gcTight.n == 0 {
		gcTight.prev = debug.SetGCPercent(-1)
		debug.SetGCPercent(gcTight.prev)
		if gcTight.prev > 0 {
			debug.SetGCPercent(max(gcTight.prev/2, 1))
		}
	}
	gcTight.n++
	return sync.OnceFunc(func() {
		limit()
		gcTight.Lock()
		defer gcTight.Unlock()
		if gcTight.n--; gcTight.n == 0 {
			debug.SetGCPercent(gcTight.prev)
		}
	})
}

var gcTight struct {
	sync.Mutex
	n, prev int // audits running, and GOGC before the first
}

// auditSplits trains the baselines on splits[0] (labels 0 and 1) and
// scores them on the others. It returns the models for more predictions.
// With own, train's items are its own and their n-grams go into the
// n-gram model's design (see fit).
func auditSplits(ctx context.Context, spec *Spec, dir string, splits []*split, gr *grammar, o Options, own bool) (*Report, *models, error) {
	train := splits[0]
	m := fit(train.fitItems(), gr, spec, o, own)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	rep := &Report{
		Dir: dir, Threshold: o.Threshold, Confidence: o.Confidence, MinStratum: o.MinStratum,
		Criterion: "a predictor shows a shortcut when the lower end of its Wilson interval exceeds the threshold",
	}
	for _, s := range splits {
		c := learn.LabelCounts(labelsOf(s.items))
		rep.Splits = append(rep.Splits, SplitCount{Split: s.name, File: s.file, Records: len(s.items), Sat: c[1], Unsat: c[0]})
	}
	for _, f := range m.feats {
		rep.Features = append(rep.Features, FeatureInfo{Name: f.Name, About: f.About, Binning: f.Binning})
	}
	rep.Baselines = m.info(o)
	for j, w := range m.counts.W {
		rep.CountWeights = append(rep.CountWeights, Weight{m.feats[j].Name, r4(w)})
	}
	rep.BoW = m.bowInfo(o.MinCount, 10)
	rep.MutualInfo = mutualInfoReport(train.fitItems(), m.feats, o)
	if train.fitted < len(train.items) {
		rep.FittedOn = train.fitted
	}
	for _, s := range splits[1:] {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		rep.Results = append(rep.Results, m.evaluate(s, o))
	}
	rep.Metadata = metadataReport(splits, o)
	rep.Order = []OrderSplit{}
	return rep, m, nil
}

func labelsOf(items []item) []int8 {
	y := make([]int8, len(items))
	for i := range items {
		y[i] = items[i].label
	}
	return y
}

// models are the baselines trained on train: majority, counts, bow, the
// task's own (extra) and structure, in names order.
type models struct {
	feats     []Feature
	names     []string
	majority  int8
	std       standardiser
	counts    *learn.Sparse
	index     map[uint32]int32
	vocab     []string
	bow       *learn.Sparse
	extra     []*extraModel
	lookups   []map[int]int8
	structure *structModel
	trainAcc  []float64 // of the baselines, in names order
}

// extraModel is a task's own baseline, fitted: on n-grams (index, vocab)
// or on patterns.
type extraModel struct {
	Baseline
	index   map[uint32]int32
	vocab   []string
	grams   *learn.Sparse
	pattern *pairModel
}

// design returns the rows of the model's design for items.
func (e *extraModel) design(items []item) *learn.Design {
	if e.Grams != nil {
		return bowDesign(items, e.index)
	}
	return e.pattern.design(items)
}

func (e *extraModel) predict(d *learn.Design, i int) int8 {
	if e.Grams != nil {
		return e.grams.Predict(d, i)
	}
	return e.pattern.fit.Predict(d, i)
}

// fit trains the baselines on train. Each model's design goes once its
// accuracy on train is counted, and the n-gram models come first: their
// designs need train's n-grams, which nothing reads after, so fit lets
// them go before it makes the other designs. With own, no other items
// share the n-grams' memory, and the n-gram model's design is made of it
// (bowDesignInPlace) rather than beside it.
func fit(train []item, gr *grammar, spec *Spec, o Options, own bool) *models {
	y := labelsOf(train)
	c := learn.LabelCounts(y)
	m := &models{feats: spec.Features, names: []string{Majority, CountsLogreg, BoWLogreg}, majority: 1,
		lookups: make([]map[int]int8, len(spec.Features)), extra: make([]*extraModel, len(spec.Baselines))}
	if c[0] > c[1] {
		m.majority = 0
	}
	for _, b := range spec.Baselines {
		m.names = append(m.names, b.Name)
	}
	m.names = append(m.names, GBMStructure)
	m.trainAcc = make([]float64, len(m.names))
	accuracy := func(k int, predict func(i int) int8) {
		correct := 0
		for i := range train {
			if predict(i) == y[i] {
				correct++
			}
		}
		m.trainAcc[k] = r4(float64(correct) / float64(len(train)))
	}
	accuracy(0, func(int) int8 { return m.majority })
	bowSettings := learn.Settings{Lambda: o.LambdaBoW, Iterations: o.Iterations}
	for k, b := range spec.Baselines {
		if b.Grams == nil {
			continue
		}
		e := &extraModel{Baseline: b}
		e.index, e.vocab = gr.vocabulary(o.MinCount, b.Grams)
		d := bowDesign(train, e.index)
		e.grams = learn.FitSparse(d, y, bowSettings)
		accuracy(3+k, func(i int) int8 { return e.grams.Predict(d, i) })
		m.extra[k] = e
	}
	m.index, m.vocab = gr.vocabulary(o.MinCount, nil)
	var db *learn.Design
	if own {
		db = bowDesignInPlace(train, m.index)
	} else {
		db = bowDesign(train, m.index)
	}
	for i := range train {
		train[i].dropGrams() // only the design needs them now
		if own {
			train[i].b.grams, train[i].b.counts = nil, nil // the design holds what it reads
		}
	}
	m.bow = learn.FitSparse(db, y, bowSettings)
	accuracy(2, func(i int) int8 { return m.bow.Predict(db, i) })
	m.std = newStandardiser(train, len(m.feats))
	dc := m.std.design(train)
	m.counts = learn.FitSparse(dc, y, learn.Settings{Lambda: o.LambdaCounts, Iterations: o.Iterations})
	accuracy(1, func(i int) int8 { return m.counts.Predict(dc, i) })
	for k, b := range spec.Baselines {
		if b.Grams != nil {
			continue
		}
		e := &extraModel{Baseline: b}
		e.pattern = newPairModel(b.Patterns, train, gr, o.MinCount)
		d := e.pattern.design(train)
		e.pattern.fitOn(b.Name, d, train, nil, o)
		accuracy(3+k, func(i int) int8 { return e.pattern.fit.Predict(d, i) })
		m.extra[k] = e
	}
	m.structure = fitStruct(train)
	accuracy(len(m.names)-1, func(i int) int8 { return m.structure.predict(&train[i]) })
	m.fitLookups(train)
	return m
}

// fitLookups makes each feature's table: every bin predicts its majority
// label in train.
func (m *models) fitLookups(train []item) {
	for f := range m.feats {
		per := map[int]*[2]int{}
		for i := range train {
			b := m.feats[f].Bin(train[i].xs()[f])
			if per[b] == nil {
				per[b] = new([2]int)
			}
			per[b][train[i].label]++
		}
		m.lookups[f] = map[int]int8{}
		for b, n := range per {
			switch {
			case n[1] > n[0]:
				m.lookups[f][b] = 1
			case n[0] > n[1]:
				m.lookups[f][b] = 0
			default:
				m.lookups[f][b] = m.majority
			}
		}
	}
}

// predict returns the baselines' and the lookups' predictions for items.
func (m *models) predict(items []item) (base [][]int8, look [][]int8) {
	de := make([]*learn.Design, len(m.extra))
	for k, e := range m.extra {
		de[k] = e.design(items)
	}
	return m.predictDesigns(items, m.std.design(items), bowDesign(items, m.index), de)
}

func (m *models) predictDesigns(items []item, dc, db *learn.Design, de []*learn.Design) (base [][]int8, look [][]int8) {
	base = make([][]int8, len(m.names))
	for k := range base {
		base[k] = make([]int8, len(items))
	}
	look = make([][]int8, len(m.feats))
	for f := range look {
		look[f] = make([]int8, len(items))
	}
	last := len(m.names) - 1
	for i := range items {
		base[0][i] = m.majority
		base[1][i] = m.counts.Predict(dc, i)
		base[2][i] = m.bow.Predict(db, i)
		for k, e := range m.extra {
			base[3+k][i] = e.predict(de[k], i)
		}
		base[last][i] = m.structure.predict(&items[i])
		for f := range m.feats {
			p, ok := m.lookups[f][m.feats[f].Bin(items[i].xs()[f])]
			if !ok {
				p = m.majority
			}
			look[f][i] = p
		}
	}
	return base, look
}

func (m *models) info(o Options) []BaselineInfo {
	out := []BaselineInfo{
		{Majority, "the most frequent label in train (sat on a tie)", 0, 0, m.trainAcc[0]},
		{CountsLogreg, "logistic regression on the standardised surface features, L2, L-BFGS", o.LambdaCounts, m.counts.Iterations, m.trainAcc[1]},
		{BoWLogreg, "logistic regression on log(1 + count) of each unigram and bigram in the vocabulary, L2, L-BFGS", o.LambdaBoW, m.bow.Iterations, m.trainAcc[2]},
	}
	for k, e := range m.extra {
		if e.Grams != nil {
			out = append(out, BaselineInfo{e.Name, e.About, o.LambdaBoW, e.grams.Iterations, m.trainAcc[3+k]})
		} else {
			out = append(out, BaselineInfo{e.Name, e.About, e.pattern.info.Lambda, e.pattern.info.Iterations, m.trainAcc[3+k]})
		}
	}
	return append(out, BaselineInfo{GBMStructure, fmt.Sprintf("gradient-boosted trees (100 of depth 3, rate 0.1) on the counts of the %d commonest sentence skeletons of train and %d structural statistics of the text, fitted on the first %d train records", skeletonColumns, textfeat.NumStats, structTrainLimit), 0, 0, m.trainAcc[len(m.names)-1]})
}

func (m *models) bowInfo(minCount, top int) BoWInfo {
	ws := make([]Weight, len(m.vocab))
	for i, name := range m.vocab {
		ws[i] = Weight{name, m.bow.W[i]}
	}
	slices.SortStableFunc(ws, func(a, b Weight) int { return cmp.Compare(b.Weight, a.Weight) })
	info := BoWInfo{MinCount: minCount, Vocabulary: len(m.vocab), TowardSat: []Weight{}, TowardUnsat: []Weight{}}
	for i := 0; i < top && i < len(ws) && ws[i].Weight > 0; i++ {
		info.TowardSat = append(info.TowardSat, Weight{ws[i].Name, r4(ws[i].Weight)})
	}
	for i := len(ws) - 1; i >= 0 && len(ws)-1-i < top && ws[i].Weight < 0; i-- {
		info.TowardUnsat = append(info.TowardUnsat, Weight{ws[i].Name, r4(ws[i].Weight)})
	}
	return info
}

// score counts the correct predictions among the records idx (all when
// nil) and puts the Wilson interval around the accuracy.
func score(name string, pred, y []int8, idx []int, o Options) Score {
	correct, total := 0, 0
	visit := func(i int) {
		total++
		if pred[i] == y[i] {
			correct++
		}
	}
	if idx == nil {
		for i := range y {
			visit(i)
		}
	} else {
		for _, i := range idx {
			visit(i)
		}
	}
	iv := binom.Wilson(correct, total, o.Confidence)
	acc := 0.0
	if total > 0 {
		acc = float64(correct) / float64(total)
	}
	return Score{Name: name, Correct: correct, Total: total, Accuracy: r4(acc), Lo: r4(iv.Lo), Hi: r4(iv.Hi), Above: iv.Lo > o.Threshold}
}

func r4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
func r6(x float64) float64 { return math.Round(x*1e6) / 1e6 }
