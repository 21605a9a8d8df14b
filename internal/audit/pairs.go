package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// PairwiseReport is the audit of the records of a task of more than two
// labels (an entailment dataset: labels entailment, neutral and
// contradiction). The labels are audited as binary problems, one per
// pair of labels (Pairs), each a full audit of the records with those two
// labels whose Report counts Positive as sat and Negative as unsat. (An
// entailment pair is balanced whenever the dataset is: records come in
// triples, one per label, on one premise set.) Multiway sums the pairs up
// per split.
type PairwiseReport struct {
	Dir          string  `json:"dir"`
	Task         string  `json:"task"`
	RecordSchema string  `json:"record_schema"`
	Threshold    float64 `json:"threshold"`
	Confidence   float64 `json:"confidence"`
	Criterion    string  `json:"criterion"`
	MinStratum   int     `json:"min_stratum"`
	// Text says what the baselines read of a record.
	Text   string       `json:"text"`
	Splits []LabelCount `json:"splits"`
	// FittedOn is as Report's: the train records the models read, when
	// fewer than train holds.
	FittedOn int          `json:"fitted_on,omitempty"`
	Pairs    []PairReport `json:"pairs"`
	// Multiway sums the pairs up on each evaluation split. Its key
	// counts the labels of the first task audited so.
	Multiway []Multiway `json:"three_way"`
	// Order audits each split file's sequence of all the labels.
	Order []OrderSplit `json:"order"`
}

// LabelCount is the size of one file and its records per label. Its JSON
// form has the keys split, file and records, then each label's name with
// its count.
type LabelCount struct {
	Split   string
	File    string
	Records int
	// Labels names the labels, Counts their records, by label.
	Labels []string
	Counts []int
}

// MarshalJSON writes the counts with the labels' names as keys, in label
// order.
func (c LabelCount) MarshalJSON() ([]byte, error) {
	keys, vals := []string{"split", "file", "records"}, []any{c.Split, c.File, c.Records}
	for l, name := range c.Labels {
		keys, vals = append(keys, name), append(vals, c.Counts[l])
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for k := range keys {
		key, err := marshalNoEscape(keys[k])
		if err != nil {
			return nil, err
		}
		val, err := marshalNoEscape(vals[k])
		if err != nil {
			return nil, err
		}
		if k > 0 {
			b.WriteByte(',')
		}
		b.Write(key)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes: every key but split, file
// and records is a label, in label order.
func (c *LabelCount) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("label counts: not an object")
	}
	*c = LabelCount{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		switch key {
		case "split":
			err = dec.Decode(&c.Split)
		case "file":
			err = dec.Decode(&c.File)
		case "records":
			err = dec.Decode(&c.Records)
		default:
			var n int
			err = dec.Decode(&n)
			c.Labels, c.Counts = append(c.Labels, key), append(c.Counts, n)
		}
		if err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

// marshalNoEscape encodes v leaving HTML characters as they are.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
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

// Multiway sums up the pairs on one split. Best holds, per baseline, its
// highest accuracy over the pairs and that pair; Votes, per baseline, the
// accuracy over all labels of the majority vote of its pairwise models on
// all the split's records (a tie goes to the lowest label; chance is one
// over the number of labels, so Votes are never marked above the
// threshold, which is for the pairs). Verdict has a shortcut when a pair
// does, its leaks named "PAIR:LEAK".
type Multiway struct {
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

// labelPairs are the pairs of labels audited, in report order: (0, 1),
// (0, 2), ..., (1, 2), ...; the first label of each plays sat.
func labelPairs(labels int) [][2]int8 {
	var out [][2]int8
	for a := range labels {
		for b := a + 1; b < labels; b++ {
			out = append(out, [2]int8{int8(a), int8(b)})
		}
	}
	return out
}

// runPairwise audits the records of splits pair of labels by pair of
// labels, and sums the pairs up.
func runPairwise(ctx context.Context, spec *Spec, dir string, splits []*split, gr *grammar, o Options) (*Report, error) {
	labels := spec.Labels
	e := &PairwiseReport{Dir: dir, Task: spec.Name, RecordSchema: spec.Schema, Threshold: o.Threshold, Confidence: o.Confidence,
		Criterion:  "a predictor shows a shortcut on a pair when the lower end of its Wilson interval exceeds the threshold",
		MinStratum: o.MinStratum, Text: spec.Text}
	for _, s := range splits {
		c := make([]int, len(labels))
		for i := range s.items {
			c[s.items[i].label]++
		}
		e.Splits = append(e.Splits, LabelCount{s.name, s.file, len(s.items), labels, c})
	}
	for l, n := range e.Splits[0].Counts {
		if n == 0 {
			return nil, inputErrorf("%s: no %s records; an audit of %s records needs every label in train", splits[0].file, labels[l], spec.Name)
		}
	}
	// votes[s][k][i*L+l] counts, for record i of split s+1, the votes of
	// baseline k's pairwise models for label l (of L).
	L := len(labels)
	votes := make([][][]int, len(splits)-1)
	for _, p := range labelPairs(L) {
		ps := make([]*split, len(splits))
		for i, s := range splits {
			ps[i] = &split{name: s.name, file: s.file, items: pairItems(s.items, p)}
			for _, it := range s.fitItems() { // the items with features come first
				if it.label == p[0] || it.label == p[1] {
					ps[i].fitted++
				}
			}
		}
		rep, m, err := auditSplits(ctx, spec, dir, ps, gr, o, false) // the pairs' items share their grams
		if err != nil {
			return nil, err
		}
		e.Pairs = append(e.Pairs, PairReport{labels[p[0]] + "-" + labels[p[1]], labels[p[0]], labels[p[1]], rep})
		for s, sp := range splits[1:] {
			base, _ := m.predict(sp.items)
			if votes[s] == nil {
				votes[s] = make([][]int, len(base))
			}
			for k := range base {
				if votes[s][k] == nil {
					votes[s][k] = make([]int, L*len(sp.items))
				}
				for i, v := range base[k] {
					votes[s][k][i*L+int(p[1-v])]++
				}
			}
		}
	}
	for s, sp := range splits[1:] {
		e.Multiway = append(e.Multiway, e.multiway(s, sp, votes[s], o))
	}
	e.Order = orderReport(splits, L, o)
	if train := splits[0]; train.fitted < len(train.items) {
		e.FittedOn = train.fitted
	}
	return &Report{Dir: dir, Threshold: o.Threshold, Confidence: o.Confidence, Criterion: e.Criterion, MinStratum: o.MinStratum,
		Pairwise: e, summary: spec.Summary}, nil
}

// pairItems returns copies of the items labelled p[0] (as 1) or p[1] (as
// 0), in file order, each with a copy of its features' slices.
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
		if it.features != nil {
			// A copy of its own: a pair's fit lets go of its grams.
			f := *it.features
			it.features = &f
		}
		out = append(out, it)
	}
	return out
}

// multiway sums up the pairs' results on evaluation split s (sp), with
// votes[k][i*L+l] the votes of baseline k's models for label l of
// record i.
func (e *PairwiseReport) multiway(s int, sp *split, votes [][]int, o Options) Multiway {
	t := Multiway{Split: sp.name, Records: len(sp.items), Verdict: Verdict{Leaks: []string{}}}
	y := labelsOf(sp.items)
	L := e.labels()
	for k, b := range e.Pairs[0].Report.Baselines {
		best := PairScore{}
		for _, p := range e.Pairs {
			if sc := p.Report.Results[s].Baselines[k]; best.Pair == "" || sc.Accuracy > best.Accuracy {
				best = PairScore{p.Pair, sc}
			}
		}
		t.Best = append(t.Best, best)
		pred := make([]int8, len(y))
		for i := range pred {
			v := votes[k][i*L : (i+1)*L]
			for l := range int8(L) {
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
		t.Verdict.Text = fmt.Sprintf("surface shortcut above %s in %d of %d pairs: %s", percent(o.Threshold), len(descs), len(e.Pairs), strings.Join(descs, " | "))
	} else {
		t.Verdict.Text = fmt.Sprintf("no surface shortcut above %s in any pair (highest lower bound of a baseline: %s on %s %s)",
			percent(o.Threshold), top.Name, top.Pair, accuracy(top.Score))
	}
	return t
}

// labels is the number of labels the report audits.
func (e *PairwiseReport) labels() int { return len(e.Splits[0].Counts) }

// ways names the number of labels: "three" (as in "three-way").
func (e *PairwiseReport) ways() string { return numberWord(e.labels()) }

func numberWord(n int) string {
	if words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}; n < len(words) {
		return words[n]
	}
	return fmt.Sprint(n)
}
