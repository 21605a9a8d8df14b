package audit

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/learn"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// Sentence pairs. A model that reads an instance as a bag of single
// sentences misses how sentences combine. "No X0 is a X1" beside "some X0
// is a X1" is a contradiction of two sentences, which one step of
// inference finds (the difficulty profile counts it); but "every X0 is a
// X1" beside "every non- X1 is a X0" derives that everyone is an X1
// without contradicting anything, and such strong facts make a later
// contradiction likelier: a bag of such pairs can learn the label from
// rule counts instead of reasoning.
//
// A pair pattern is two sentences that share content words (nouns and
// verbs), delexicalised: the words they share are written X0, X1, … in
// order of first occurrence, the others _, the function words kept ("an"
// as "a"); of the two orders of the sentences the smaller pattern is
// kept. The pairs baselines are logistic regressions on the presence of
// each pattern of pairs sharing at least one (pairs-1) or two (pairs-2)
// content words, trained on train. Their accuracy over a whole split
// mixes honest one-step inference with the shortcut; the part that counts
// as a shortcut is measured on the records without a two-sentence
// contradiction: every unsat record whose certificate records no
// contradictory pair, against as many sat records (the first in file
// order), by accuracy and by the AUC of the model's score.

// PairModels are the pairs baselines: the least number of content words a
// pair shares.
var PairModels = []struct {
	Name      string
	MinShared int
}{{"pairs-1", 1}, {"pairs-2", 2}}

// PairAUCThreshold is the AUC on the records without a two-sentence
// contradiction above which (by the lower end of its interval) a pairs
// baseline shows a shortcut.
const PairAUCThreshold = 0.56

// SentPairSplit is the pairs baselines' audit of one split.
type SentPairSplit struct {
	Split  string          `json:"split"`
	Models []SentPairScore `json:"models"`
	// Verdict counts the no-contradiction scores only.
	Verdict Verdict `json:"verdict"`
	// Fragments, when the split holds several fragments, scores each
	// fragment's records alone with the same models, on its own balanced
	// set of records without a two-sentence contradiction: a channel one
	// fragment carries and the others dilute shows here.
	Fragments []SentPairFragment `json:"fragments,omitempty"`
}

// SentPairFragment is the pairs baselines' audit of one fragment's
// records of a split.
type SentPairFragment struct {
	Fragment string          `json:"fragment"`
	Records  int             `json:"records"`
	Models   []SentPairScore `json:"models"`
	Verdict  Verdict         `json:"verdict"`
}

// SentPairScore is one pairs baseline on one split.
type SentPairScore struct {
	Name string `json:"name"`
	// Overall is the accuracy on every record of the split.
	Overall Score `json:"overall"`
	// NoPair is the accuracy on the balanced set of records without a
	// two-sentence contradiction; AUC ranks its sat records above its
	// unsat ones by the model's score.
	NoPair Score `json:"no_pair"`
	AUC    AUC   `json:"auc"`
}

// AUC is an area under the ROC curve with a normal interval (Hanley and
// McNeil's standard error).
type AUC struct {
	Sat   int     `json:"sat"`
	Unsat int     `json:"unsat"`
	AUC   float64 `json:"auc"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Above bool    `json:"above"`
}

// SentPairInfo describes a fitted pairs baseline.
type SentPairInfo struct {
	Name       string  `json:"name"`
	MinShared  int     `json:"min_shared"`
	Patterns   int     `json:"patterns"`
	Lambda     float64 `json:"lambda"`
	Iterations int     `json:"iterations"`
	// TowardSat and TowardUnsat are the patterns of largest weight.
	TowardSat   []Weight `json:"toward_sat"`
	TowardUnsat []Weight `json:"toward_unsat"`
}

// SentPairReport is the sentence-pairs section of an audit.
type SentPairReport struct {
	Models []SentPairInfo  `json:"models"`
	Splits []SentPairSplit `json:"splits"`
}

// pairModel is a fitted pairs baseline. Its vocabulary is the patterns of
// train shown by at least MinCount records, in the order of their keys;
// column maps a pattern's number (grammar.pats) to its column, or -1,
// and ids a column to the pattern's number.
type pairModel struct {
	info   SentPairInfo
	column textfeat.PatternColumns
	ids    []uint32
	fit    *learn.Sparse
	set    int // the patterns read: of pairs sharing at least set+1 content words
}

// rows returns the numbers of the model's patterns in each of items, by
// index: each slice is good until the next call.
func (pm *pairModel) rows(items []item) func(i int) []uint32 {
	var buf []uint32
	return func(i int) []uint32 {
		buf = items[i].patternsOf(pm.set, buf)
		return buf
	}
}

// vocabulary sets the model's vocabulary from the records of train, whose
// patterns are numbered among gr's: those that occur at least minCount
// times, by their keys in increasing order (textfeat.CommonPatterns).
func (pm *pairModel) vocabulary(train []item, gr *grammar, minCount int) {
	pm.ids, pm.column = gr.pats.Vocabulary(len(train), pm.rows(train), minCount)
}

// design returns the presence of each vocabulary pattern in items, a
// row's columns in the order of its patterns.
func (pm *pairModel) design(items []item) *learn.Design {
	return pm.column.Design(len(pm.ids), len(items), pm.rows(items))
}

// trainDesign returns design(train), its rows packed
// (learn.DesignOfPacked), and train's records let their patterns of the
// model's set go. Only pairReport's models use train's patterns up, the
// second set before the first, whose numbers its masks read: nothing
// reads them after (the baselines of a task's own, which read them too,
// are fitted before).
func (pm *pairModel) trainDesign(train []item) *learn.Design {
	rows := make([]learn.PackedColumns, len(train))
	var buf []uint32
	var cols []int32
	for i := range train {
		it := &train[i]
		buf = it.patternsOf(pm.set, buf)
		cols = pm.column.AppendSorted(cols[:0], buf) // as design's rows
		rows[i] = learn.PackColumns(cols)
		it.dropPatterns(pm.set)
	}
	return learn.DesignOfPacked(len(pm.ids), rows)
}

// pairLambdas are the L2 penalties tried; the one with the best
// validation log-loss is kept (without a validation split, LambdaBoW).
var pairLambdas = []float64{1e-3, 1e-2}

// newPairModel returns the pairs baseline on the patterns of pairs
// sharing at least set+1 content words, its vocabulary set from train;
// fitOn fits it.
func newPairModel(set int, train []item, gr *grammar, minCount int) *pairModel {
	pm := &pairModel{set: set}
	pm.vocabulary(train, gr, minCount)
	return pm
}

// fitOn fits the baseline, called name, to train, whose design (design,
// or trainDesign) is dt, its penalty chosen on valid (nil for none:
// LambdaBoW).
func (pm *pairModel) fitOn(name string, dt *learn.Design, train, valid []item, o Options) {
	y := labelsOf(train)
	evalOn, yEval := dt, y
	if len(valid) > 0 {
		evalOn, yEval = pm.design(valid), labelsOf(valid)
	}
	lambdas := pairLambdas
	if len(valid) == 0 {
		lambdas = []float64{o.LambdaBoW}
	}
	best, bestLoss := 0.0, math.Inf(1)
	for _, lambda := range lambdas {
		m := learn.FitSparse(dt, y, learn.Settings{Lambda: lambda, Iterations: o.Iterations})
		loss := 0.0
		for i := range yEval {
			p := 1 / (1 + math.Exp(-m.Score(evalOn, i)))
			if yEval[i] == 1 {
				loss -= math.Log(max(p, 1e-12))
			} else {
				loss -= math.Log(max(1-p, 1e-12))
			}
		}
		if loss < bestLoss {
			best, bestLoss, pm.fit = lambda, loss, m
		}
	}
	pm.info = SentPairInfo{Name: name, MinShared: pm.set + 1, Patterns: len(pm.ids), Lambda: best, Iterations: pm.fit.Iterations,
		TowardSat: []Weight{}, TowardUnsat: []Weight{}}
}

// topCandidates returns the numbers of the patterns that can be among
// the top of largest weight either way (topWeights): those whose weight
// is at least the top-th largest positive one, or at most the top-th
// smallest negative one. Ties at the edge are all among them, since
// their names, not yet read, break them.
func (pm *pairModel) topCandidates(top int) []uint32 {
	var pos, neg []float64
	for _, w := range pm.fit.W {
		if w > 0 {
			pos = append(pos, w)
		} else if w < 0 {
			neg = append(neg, w)
		}
	}
	slices.Sort(pos)
	slices.Sort(neg)
	lo, hi := math.Inf(1), math.Inf(-1)
	if len(pos) > 0 {
		lo = pos[max(len(pos)-top, 0)]
	}
	if len(neg) > 0 {
		hi = neg[min(top, len(neg))-1]
	}
	var ids []uint32
	for c, id := range pm.ids {
		if w := pm.fit.W[c]; (w > 0 && w >= lo) || (w < 0 && w <= hi) {
			ids = append(ids, id)
		}
	}
	return ids
}

// topWeights names the top patterns of largest weight either way, of
// those whose names (by number) names holds: at least topCandidates'.
func (pm *pairModel) topWeights(names map[uint32]string, top int) {
	var ws []Weight
	for c, id := range pm.ids {
		if name, ok := names[id]; ok {
			ws = append(ws, Weight{name, pm.fit.W[c]})
		}
	}
	slices.SortFunc(ws, func(a, b Weight) int { return cmp.Or(cmp.Compare(b.Weight, a.Weight), cmp.Compare(a.Name, b.Name)) })
	for i := 0; i < top && i < len(ws) && ws[i].Weight > 0; i++ {
		pm.info.TowardSat = append(pm.info.TowardSat, Weight{ws[i].Name, r4(ws[i].Weight)})
	}
	for i := len(ws) - 1; i >= 0 && len(ws)-1-i < top && ws[i].Weight < 0; i-- {
		pm.info.TowardUnsat = append(pm.info.TowardUnsat, Weight{ws[i].Name, r4(ws[i].Weight)})
	}
}

// pairReport fits the pairs baselines on train (the records of t) and
// scores them on every other split.
func pairReport(ctx context.Context, t Task, splits []*split, gr *grammar, o Options) (*SentPairReport, error) {
	train := splits[0].fitItems()
	var valid []item
	if len(splits) > 1 {
		valid = splits[1].items
	}
	rep := &SentPairReport{}
	models := make([]*pairModel, len(PairModels))
	used := [2]bool{}
	// Every model's design is made before any is fitted, those of the
	// second set first: train's numbers of the first set are its masks'
	// (features.two) until the first set's design is made. Then train's
	// blocks let their patterns go, and the fits hold the packed designs
	// alone: half the memory of the numbers (150 MB of them in an A train
	// of 120,000 records), and of the second set's rows, which its masks
	// are unpacked into.
	designs := make([]*learn.Design, len(PairModels))
	for _, set := range []int{1, 0} {
		for k := range PairModels {
			if PairModels[k].MinShared-1 != set {
				continue
			}
			if used[set] {
				panic("audit: two pairs baselines on one set of patterns, which the first uses up")
			}
			used[set] = true
			models[k] = newPairModel(set, train, gr, o.MinCount)
			designs[k] = models[k].trainDesign(train)
		}
	}
	for i := range train {
		train[i].releasePatterns()
	}
	for k, pm := range models {
		pm.fitOn(PairModels[k].Name, designs[k], train, valid, o)
		designs[k] = nil // the design goes once its model is fitted
	}
	const top = 10
	want := map[uint64]uint32{} // the keys of the patterns to name, and their numbers
	for _, pm := range models {
		for _, id := range pm.topCandidates(top) {
			want[gr.pats.Key(id)] = id
		}
	}
	texts, err := patternTexts(ctx, t, splits[0].file, want)
	if err != nil {
		return nil, err
	}
	names := map[uint32]string{}
	for key, text := range texts {
		names[want[key]] = text
	}
	for _, pm := range models {
		pm.topWeights(names, top)
		rep.Models = append(rep.Models, pm.info)
	}
	for _, s := range splits[1:] {
		y := labelsOf(s.items)
		z := make([][]float64, len(models))
		pred := make([][]int8, len(models))
		for k, pm := range models {
			d := pm.design(s.items)
			z[k], pred[k] = make([]float64, len(y)), make([]int8, len(y))
			for i := range y {
				z[k][i] = pm.fit.Score(d, i)
				if z[k][i] > 0 {
					pred[k][i] = 1
				}
			}
		}
		// scores scores every model on the records idx (nil: all).
		scores := func(idx []int) []SentPairScore {
			noPair := noPairSet(s.items, idx)
			var out []SentPairScore
			for k, pm := range models {
				sc := SentPairScore{Name: pm.info.Name, Overall: score(pm.info.Name, pred[k], y, idx, o)}
				sc.Overall.Above = false // difficulty and shortcut together: not a verdict
				sc.NoPair = score(pm.info.Name, pred[k], y, noPair, o)
				sc.AUC = auc(z[k], y, noPair, o.Confidence)
				out = append(out, sc)
			}
			return out
		}
		ps := SentPairSplit{Split: s.name, Models: scores(nil)}
		ps.Verdict = pairVerdict(ps.Models, o)
		for _, g := range fragmentGroups(s.items, o.MinStratum) {
			fs := SentPairFragment{Fragment: g.fragment, Records: len(g.idx), Models: scores(g.idx)}
			fs.Verdict = pairVerdict(fs.Models, o)
			ps.Fragments = append(ps.Fragments, fs)
		}
		rep.Splits = append(rep.Splits, ps)
	}
	return rep, nil
}

// patternTexts reads the records of train file (of t) again, from the
// first, until it has the text of each pattern whose key want holds. The
// first read numbered the patterns without their texts, which took some
// 30 MB for 120,000 A records, where a report names a few dozen; they
// are shown by train's first records (a baseline's vocabulary is the
// patterns of at least MinCount of them), so the read stops early.
func patternTexts(ctx context.Context, t Task, file string, want map[uint64]uint32) (map[uint64]string, error) {
	texts := make(map[uint64]string, len(want))
	if len(want) == 0 {
		return texts, nil
	}
	f, err := dataset.OpenFile(file)
	if err != nil {
		return nil, inputErrorf("cannot read dataset %s again: %w", file, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	names := map[uint64]string{}
	for line := 1; sc.Scan(); line++ {
		if line%batchSize == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		clear(names)
		row := Row{PatternNames: names}
		if err := t.Read(text, &row); err != nil {
			return nil, inputErrorf("%s:%d: %w", file, line, err)
		}
		for key, name := range names {
			if _, ok := want[key]; ok {
				texts[key] = name
			}
		}
		if len(texts) == len(want) {
			return texts, nil
		}
	}
	if err := sc.Err(); err != nil {
		return nil, inputErrorf("%s: %w", file, err)
	}
	return nil, inputErrorf("%s: %d of the sentence-pair patterns the audit read are not in it now: was it changed while it was audited?", file, len(want)-len(texts))
}

// fragmentGroup is the records of one fragment of a split.
type fragmentGroup struct {
	fragment string
	idx      []int
}

// fragmentGroups returns the records of each fragment with at least
// minRecords of them, in the fragments' order, when the items hold more
// than one fragment (nil otherwise).
func fragmentGroups(items []item, minRecords int) []fragmentGroup {
	byName := map[string][]int{}
	for i, it := range items {
		f := it.fragment()
		byName[f] = append(byName[f], i)
	}
	if len(byName) < 2 {
		return nil
	}
	var out []fragmentGroup
	for f, idx := range byName {
		if len(idx) >= minRecords {
			out = append(out, fragmentGroup{f, idx})
		}
	}
	slices.SortFunc(out, func(a, b fragmentGroup) int { return fragments.CompareNames(a.fragment, b.fragment) })
	return out
}

// noPairSet returns the records of idx (nil: all) without a
// two-sentence contradiction, as a balanced set: every unsat record that
// records no contradictory pair and as many sat records, the first in
// file order (or every sat record and as many of those unsat ones, when
// they are fewer). Unsat records that do not say whether they hold a
// pair are left out.
func noPairSet(items []item, idx []int) []int {
	if idx == nil {
		idx = make([]int, len(items))
		for i := range idx {
			idx[i] = i
		}
	}
	var sat, unsat []int
	for _, i := range idx {
		switch {
		case items[i].label == 1:
			sat = append(sat, i)
		case items[i].pair == 0:
			unsat = append(unsat, i)
		}
	}
	n := min(len(sat), len(unsat))
	// Never nil, even when empty: score reads a nil set as every record.
	out := make([]int, 0, 2*n)
	out = append(append(out, sat[:n]...), unsat[:n]...)
	slices.Sort(out)
	return out
}

// auc is the probability that a sat record of idx scores above an unsat
// one (ties count half), with Hanley and McNeil's interval.
func auc(z []float64, y []int8, idx []int, confidence float64) AUC {
	type sv struct {
		z   float64
		sat bool
	}
	var v []sv
	for _, i := range idx {
		v = append(v, sv{z[i], y[i] == 1})
	}
	slices.SortStableFunc(v, func(a, b sv) int { return cmp.Compare(a.z, b.z) })
	var a AUC
	rankSum := 0.0
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j].z == v[i].z {
			j++
		}
		rank := float64(i+j+1) / 2 // mean of ranks i+1 … j
		for k := i; k < j; k++ {
			if v[k].sat {
				rankSum += rank
				a.Sat++
			} else {
				a.Unsat++
			}
		}
		i = j
	}
	if a.Sat == 0 || a.Unsat == 0 {
		return a
	}
	ns, nu := float64(a.Sat), float64(a.Unsat)
	area := (rankSum - ns*(ns+1)/2) / (ns * nu)
	q1, q2 := area/(2-area), 2*area*area/(1+area)
	se := math.Sqrt((area*(1-area) + (ns-1)*(q1-area*area) + (nu-1)*(q2-area*area)) / (ns * nu))
	zc := distuv.UnitNormal.Quantile(1 - (1-confidence)/2)
	a.AUC, a.Lo, a.Hi = r4(area), r4(max(0, area-zc*se)), r4(min(1, area+zc*se))
	a.Above = area-zc*se > PairAUCThreshold
	return a
}

// pairVerdict names the pairs baselines whose no-contradiction accuracy
// or AUC shows a shortcut.
func pairVerdict(models []SentPairScore, o Options) Verdict {
	v := Verdict{Leaks: []string{}}
	var descs []string
	for _, m := range models {
		if m.NoPair.Above {
			v.Leaks = append(v.Leaks, "pairs:"+m.Name)
			descs = append(descs, fmt.Sprintf("%s %s", m.Name, accuracy(m.NoPair)))
		} else if m.AUC.Above {
			v.Leaks = append(v.Leaks, "pairs:"+m.Name)
			descs = append(descs, fmt.Sprintf("%s AUC %.3f [%.3f, %.3f]", m.Name, m.AUC.AUC, m.AUC.Lo, m.AUC.Hi))
		}
	}
	v.Shortcut = len(descs) > 0
	if v.Shortcut {
		v.Text = "sentence pairs give the label away without a two-sentence contradiction: " + strings.Join(descs, "; ")
		return v
	}
	best := models[0]
	for _, m := range models[1:] {
		if m.NoPair.Accuracy > best.NoPair.Accuracy {
			best = m
		}
	}
	v.Text = fmt.Sprintf("no sentence-pair shortcut above %s or AUC %.2f on the records without a two-sentence contradiction (best %s %s, AUC %.3f)",
		percent(o.Threshold), PairAUCThreshold, best.Name, accuracy(best.NoPair), best.AUC.AUC)
	return v
}

// text writes the sentence-pairs section: per baseline and split, the
// accuracy overall, on the records without a two-sentence contradiction
// and the AUC there, then the patterns of largest weight.
func (r *SentPairReport) text(p func(string, ...any), confidence float64) {
	p("\nSentence pairs: logistic regression on the patterns of the sentence pairs that share content words (shared words\n")
	p("X0, X1, …, others _). Overall mixes one-step inference with the shortcut; the shortcut is measured on the records\n")
	p("without a two-sentence contradiction (a balanced set): accuracy %% and AUC [%s intervals]\n", percent(confidence))
	p("baseline\tsplit\toverall\tno contradiction\tAUC\n")
	row := func(name, where string, sc SentPairScore) {
		mark := ""
		if sc.AUC.Above {
			mark = " *"
		}
		p("%s\t%s\t%s\t%s\t%.3f [%.3f, %.3f]%s (%d/%d)\n", name, where, cell(sc.Overall), cell(sc.NoPair),
			sc.AUC.AUC, sc.AUC.Lo, sc.AUC.Hi, mark, sc.AUC.Sat, sc.AUC.Unsat)
	}
	for k, m := range r.Models {
		for _, ps := range r.Splits {
			row(m.Name, ps.Split, ps.Models[k])
			for _, fs := range ps.Fragments {
				row(m.Name, ps.Split+" "+fs.Fragment, fs.Models[k])
			}
		}
	}
	for _, m := range r.Models {
		p("%s: %d patterns in at least two train records, λ = %g (chosen on validation), %d L-BFGS iterations\n", m.Name, m.Patterns, m.Lambda, m.Iterations)
		for _, w := range m.TowardUnsat[:min(3, len(m.TowardUnsat))] {
			p("  toward unsat %.3f: %s\n", w.Weight, w.Name)
		}
		for _, w := range m.TowardSat[:min(3, len(m.TowardSat))] {
			p("  toward sat %.3f: %s\n", w.Weight, w.Name)
		}
	}
	for _, ps := range r.Splits {
		p("%s: %s\n", ps.Split, ps.Verdict.Text)
		for _, fs := range ps.Fragments {
			p("%s, fragment %s: %s\n", ps.Split, fs.Fragment, fs.Verdict.Text)
		}
	}
}
