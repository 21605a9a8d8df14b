package audit

import (
	"context"
	"fmt"
	"strings"
)

// EntailReport is the audit of an entailment dataset (record schema
// nlsat-entail/1, labels 0 entailment, 1 neutral, 2 contradiction). The
// three labels are audited as three binary problems, one per pair of
// labels (Pairs), each a full audit of the records with those two labels
// whose Report counts Positive as sat and Negative as unsat. A pair is
// balanced whenever the dataset is: records come in triples, one per
// label, on one premise set. ThreeWay sums the pairs up per split.
type EntailReport struct {
	Dir          string  `json:"dir"`
	Task         string  `json:"task"`
	RecordSchema string  `json:"record_schema"`
	Threshold    float64 `json:"threshold"`
	Confidence   float64 `json:"confidence"`
	Criterion    string  `json:"criterion"`
	MinStratum   int     `json:"min_stratum"`
	// Text says what the baselines read of a record.
	Text     string             `json:"text"`
	Splits   []EntailSplitCount `json:"splits"`
	Pairs    []PairReport       `json:"pairs"`
	ThreeWay []ThreeWay         `json:"three_way"`
	// Order audits each split file's sequence of the three labels.
	Order []OrderSplit `json:"order"`
}

// EntailSplitCount is the size of one file and its records per label.
type EntailSplitCount struct {
	Split         string `json:"split"`
	File          string `json:"file"`
	Records       int    `json:"records"`
	Entailment    int    `json:"entailment"`
	Neutral       int    `json:"neutral"`
	Contradiction int    `json:"contradiction"`
}

// PairReport is the binary audit of the records labelled Positive or
// Negative: in Report, Positive plays sat (label 1) and Negative unsat
// (label 0), so Report's sat and unsat counts, n-grams toward sat and
// toward unsat are Positive's and Negative's.
type PairReport struct {
	Pair     string  `json:"pair"`
	Positive string  `json:"positive"`
	Negative string  `json:"negative"`
	Report   *Report `json:"report"`
}

// ThreeWay sums up the pairs on one split. Best holds, per baseline, its
// highest accuracy over the pairs and that pair; Votes, per baseline, the
// three-way accuracy of the majority vote of its three pairwise models on
// all the split's records (a tie of one vote each goes to the lowest
// label; chance is 1/3, so Votes are never marked above the threshold,
// which is for the pairs). Verdict has a shortcut when a pair does, its
// leaks named "PAIR:LEAK".
type ThreeWay struct {
	Split   string      `json:"split"`
	Records int         `json:"records"`
	Best    []PairScore `json:"best"`
	Votes   []Score     `json:"votes"`
	Verdict Verdict     `json:"verdict"`
}

// PairScore is a score and the pair it was measured on.
type PairScore struct {
	Pair string `json:"pair"`
	Score
}

// entailPairs are the pairs of labels audited, in report order: the
// first label of each plays sat.
var entailPairs = [][2]int8{{0, 1}, {0, 2}, {1, 2}}

func pairName(p [2]int8) string { return EntailLabels[p[0]] + "-" + EntailLabels[p[1]] }

// runEntail audits the entailment records of splits pair by pair, and
// sums the pairs up.
func runEntail(ctx context.Context, dir string, splits []*split, gr *grammar, o Options) (*Report, error) {
	e := &EntailReport{Dir: dir, Task: "entailment", RecordSchema: EntailSchema, Threshold: o.Threshold, Confidence: o.Confidence,
		Criterion:  "a predictor shows a shortcut on a pair when the lower end of its Wilson interval exceeds the threshold",
		MinStratum: o.MinStratum, Text: "the premises and the hypothesis, the hypothesis's tokens prefixed h: (hypothesis-only reads them alone)"}
	for _, s := range splits {
		var c [3]int
		for i := range s.items {
			c[s.items[i].label]++
		}
		e.Splits = append(e.Splits, EntailSplitCount{s.name, s.file, len(s.items), c[0], c[1], c[2]})
	}
	for l, n := range e.Splits[0].counts() {
		if n == 0 {
			return nil, inputErrorf("%s: no %s records; an entailment audit needs every label in train", splits[0].file, EntailLabels[l])
		}
	}
	// votes[s][k][i] counts, for record i of split s+1, the votes of
	// baseline k's pairwise models for each label.
	votes := make([][][][3]int, len(splits)-1)
	for _, p := range entailPairs {
		ps := make([]*split, len(splits))
		for i, s := range splits {
			ps[i] = &split{name: s.name, file: s.file, items: pairItems(s.items, p)}
		}
		rep, m, err := auditSplits(ctx, dir, ps, gr, &entailFeatures, o)
		if err != nil {
			return nil, err
		}
		e.Pairs = append(e.Pairs, PairReport{pairName(p), EntailLabels[p[0]], EntailLabels[p[1]], rep})
		for s, sp := range splits[1:] {
			base, _ := m.predict(sp.items)
			if votes[s] == nil {
				votes[s] = make([][][3]int, len(base))
			}
			for k := range base {
				if votes[s][k] == nil {
					votes[s][k] = make([][3]int, len(sp.items))
				}
				for i, v := range base[k] {
					votes[s][k][i][p[1-v]]++
				}
			}
		}
	}
	for s, sp := range splits[1:] {
		e.ThreeWay = append(e.ThreeWay, e.threeWay(s, sp, votes[s], o))
	}
	e.Order = orderReport(splits, len(EntailLabels), o)
	return &Report{Dir: dir, Threshold: o.Threshold, Confidence: o.Confidence, Criterion: e.Criterion, MinStratum: o.MinStratum, Entailment: e}, nil
}

func (c EntailSplitCount) counts() [3]int { return [3]int{c.Entailment, c.Neutral, c.Contradiction} }

// pairItems returns copies of the items labelled p[0] (as 1) or p[1] (as
// 0), in file order.
func pairItems(items []item, p [2]int8) []item {
	var out []item
	for _, it := range items {
		switch it.label {
		case p[0]:
			it.label = 1
		case p[1]:
			it.label = 0
		default:
			continue
		}
		out = append(out, it)
	}
	return out
}

// threeWay sums up the pairs' results on evaluation split s (sp), with
// votes[k][i] the votes of baseline k's models for record i.
func (e *EntailReport) threeWay(s int, sp *split, votes [][][3]int, o Options) ThreeWay {
	t := ThreeWay{Split: sp.name, Records: len(sp.items), Verdict: Verdict{Leaks: []string{}}}
	y := labelsOf(sp.items)
	for k, b := range e.Pairs[0].Report.Baselines {
		best := PairScore{}
		for _, p := range e.Pairs {
			if sc := p.Report.Results[s].Baselines[k]; best.Pair == "" || sc.Accuracy > best.Accuracy {
				best = PairScore{p.Pair, sc}
			}
		}
		t.Best = append(t.Best, best)
		pred := make([]int8, len(y))
		for i, v := range votes[k] {
			for l := range int8(3) {
				if v[l] > v[pred[i]] {
					pred[i] = l
				}
			}
		}
		sc := score(b.Name, pred, y, nil, o)
		sc.Above = false
		t.Votes = append(t.Votes, sc)
	}
	var descs []string
	var top PairScore
	for _, p := range e.Pairs {
		v := p.Report.Results[s].Verdict
		for _, l := range v.Leaks {
			t.Verdict.Leaks = append(t.Verdict.Leaks, p.Pair+":"+l)
		}
		if v.Shortcut {
			descs = append(descs, fmt.Sprintf("%s: %s", p.Pair, v.Text))
		}
		for _, b := range p.Report.Results[s].Baselines {
			if top.Pair == "" || b.Lo > top.Lo {
				top = PairScore{p.Pair, b}
			}
		}
	}
	t.Verdict.Shortcut = len(descs) > 0
	if t.Verdict.Shortcut {
		t.Verdict.Text = fmt.Sprintf("surface shortcut above %s in %d of 3 pairs: %s", percent(o.Threshold), len(descs), strings.Join(descs, " | "))
	} else {
		t.Verdict.Text = fmt.Sprintf("no surface shortcut above %s in any pair (highest lower bound of a baseline: %s on %s %s)",
			percent(o.Threshold), top.Name, top.Pair, accuracy(top.Score))
	}
	return t
}
