package eval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/eval"
)

// sentenceTask is a task outside eval, as a third task's package would
// write it: one sentence per record, "is it satisfiable", labels 0 unsat
// and 1 sat, a breakdown by gold label.
type sentenceTask struct{}

var sentenceSpec = &eval.Spec{
	Name:      "sentence",
	Labels:    []string{"unsat", "sat"},
	Keys:      []string{"label"},
	TextKeys:  []string{"sentence"},
	OtherText: "another sentence",
	Invalid:   "unparseable",
	Breakdowns: []eval.Breakdown{
		{Name: "by_label", Title: "By gold label", Parts: []eval.Part{{Field: "key", Column: "label", Order: strings.Compare}}},
	},
}

func (sentenceTask) Spec() *eval.Spec { return sentenceSpec }

func (sentenceTask) ReadGold(name, split string, fn func(eval.Gold) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return eval.EachLine(f, name, func(b []byte, where string) error {
		var r struct {
			ID       string `json:"id"`
			Sentence string `json:"sentence"`
			Label    int    `json:"label"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		return fn(eval.Gold{ID: r.ID, Label: r.Label, Groups: [][]string{{sentenceSpec.Labels[r.Label]}},
			Text: eval.TextSum(r.Sentence), Where: where})
	})
}

func (sentenceTask) ReadKey(key string, raw json.RawMessage) (eval.Answer, error) {
	var l int
	if json.Unmarshal(raw, &l) != nil || l < 0 || l > 1 {
		return eval.Answer{}, fmt.Errorf("%s %s is not 0 or 1", key, raw)
	}
	return eval.Answer{Label: l}, nil
}

func (sentenceTask) ReadText(text, set string) (eval.Answer, error) {
	for _, t := range eval.Tokenize(text) {
		for l, name := range sentenceSpec.Labels {
			if t.Word == name {
				return eval.Answer{Label: l, Phrase: text[t.Start:t.End]}, nil
			}
		}
	}
	return eval.NoAnswer, nil
}

func (sentenceTask) ReadChoice(choices []string, k int) (eval.Answer, error) {
	return eval.Answer{Label: k}, nil
}

// TestThirdTask runs the driver on a task it does not know: gold and
// predictions are read, matched (the sentence a prediction carries is
// checked) and scored through the task alone.
func TestThirdTask(t *testing.T) {
	dir := t.TempDir()
	gold := filepath.Join(dir, "gold.jsonl")
	os.WriteFile(gold, []byte(`{"id":"a","sentence":"Every artist is a baker.","label":1}
{"id":"b","sentence":"Some artist is not an artist.","label":0}
{"id":"c","sentence":"No baker is a baker.","label":0}
`), 0o644)
	preds := `{"id":"a","response":"sat"}
{"id":"b","label":0,"sentence":"Some artist is not an  artist."}
{"id":"c","response":"I do not know"}
`
	rep, err := eval.Run(context.Background(), sentenceTask{}, eval.Config{Gold: gold, Pred: "-"}, strings.NewReader(preds))
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := eval.WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	want := `3 gold records, 3 predictions, 3 scored, 0 missing, 1 unparseable
checked: 1 instance texts equal gold's

Overall
       count  correct  accuracy       95% CI  unparseable  acc. parseable
  all      3        2     0.667  0.208-0.939            1           1.000

By gold label
  label  count  correct  accuracy       95% CI  unparseable  acc. parseable
    sat      1        1     1.000  0.207-1.000            0           1.000
  unsat      2        1     0.500  0.095-0.905            1           1.000

Unparseable answers (all 1; --per-record writes every answer)
c  "I do not know"
`
	if text.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", text.String(), want)
	}
	js, _ := json.Marshal(rep)
	if !bytes.HasPrefix(js, []byte(`{"confidence":0.95,"gold":3,`)) || !bytes.Contains(js, []byte(`"by_label":[{"key":"sat","count":1,`)) || bytes.Contains(js, []byte(`"pairs"`)) {
		t.Errorf("JSON %s", js)
	}
	if _, err := eval.Run(context.Background(), sentenceTask{}, eval.Config{Gold: gold, Pred: "-"},
		strings.NewReader(`{"id":"a","label":1,"sentence":"Some baker is a baker."}`+"\n")); err == nil || !strings.Contains(err.Error(), "carries another sentence than the gold record") {
		t.Errorf("a prediction for another sentence: %v", err)
	}
}
