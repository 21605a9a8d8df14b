package pairtask

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// evaluator is the task's part of eval: a label per record, answered by
// its number or its word, scored overall and by label and fragment.
type evaluator struct{}

var evalSpec = &eval.Spec{
	Name:      Name,
	Labels:    Labels,
	Keys:      []string{"label"},
	TextKeys:  []string{"text"},
	OtherText: "another pair",
	Invalid:   "unparseable",
	Breakdowns: []eval.Breakdown{
		{Name: "by_label", Title: "By gold label", Parts: []eval.Part{{Field: "key", Column: "label", Order: strings.Compare}}},
		{Name: "by_fragment", Title: "By fragment", Parts: []eval.Part{{Field: "key", Column: "fragment", Order: strings.Compare}}},
	},
	PerLabel: true,
}

func (evaluator) Spec() *eval.Spec { return evalSpec }

func (evaluator) ReadGold(name, split string, fn func(eval.Gold) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return eval.EachLine(f, name, func(b []byte, where string) error {
		var r Record
		if err := json.Unmarshal(b, &r); err != nil || r.Label < 0 || r.Label >= len(Labels) {
			return fmt.Errorf("%s: not a pair record", where)
		}
		return fn(eval.Gold{ID: r.ID, Split: split, Label: r.Label, Groups: [][]string{{Labels[r.Label]}, {r.Fragment}},
			Text: eval.TextSum(r.Text), Where: where})
	})
}

func (evaluator) ReadKey(key string, raw json.RawMessage) (eval.Answer, error) {
	var l int
	if json.Unmarshal(raw, &l) != nil || l < 0 || l >= len(Labels) {
		return eval.Answer{}, fmt.Errorf("%s %s is not 0 or 1", key, raw)
	}
	return eval.Answer{Label: l}, nil
}

// ReadText reads the first label word of a free-text answer; its one set
// of answer words is the labels ("any").
func (evaluator) ReadText(text, set string) (eval.Answer, error) {
	if set != "" && set != "any" {
		return eval.Answer{}, fmt.Errorf("the pair task has no answer set %q", set)
	}
	for _, t := range eval.Tokenize(text) {
		for l, name := range Labels {
			if t.Word == name {
				return eval.Answer{Label: l, Phrase: text[t.Start:t.End]}, nil
			}
		}
	}
	return eval.NoAnswer, nil
}

func (evaluator) ReadChoice(_ []string, k int) (eval.Answer, error) {
	return eval.Answer{Label: k}, nil
}

// auditor is the task's part of the audit: the generic baselines on the
// pair's text, with its length as the one surface feature.
type auditor struct{}

var auditSpec = &audit.Spec{
	Labels: Labels,
	Name:   Name,
	Schema: Schema,
	Text:   "the two sentences",
	Summary: func(features int, train string, records int) string {
		return fmt.Sprintf("Shortcut audit (nlsat audit) of sentence pairs: %d surface feature, n-grams and the structure of the text, trained on %s\n(%d records); ",
			features, train, records)
	},
	Features: []audit.Feature{{Name: "words", About: "words in the pair", Bin: audit.CountBin, Binning: "count"}},
}

func (auditor) Spec() *audit.Spec { return auditSpec }

func (auditor) Read(line []byte, row *audit.Row) error {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil || len(r.Pair) != 2 || r.Label < 0 || r.Label >= len(Labels) {
		return fmt.Errorf("not a pair record")
	}
	row.Label, row.Fragment, row.M, row.N1, row.N2, row.ID, row.Seed = r.Label, r.Fragment, r.M, r.N1, r.N2, r.ID, r.Seed
	row.X = []float64{float64(len(strings.Fields(r.Text)))}
	row.Texts = []string{r.Text}
	row.Skeletons, row.Stats = textfeat.Structure(r.Pair)
	return nil
}
