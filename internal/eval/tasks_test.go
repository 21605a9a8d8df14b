package eval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/task/entailment"
)

const entailGold = "testdata/entail/data/test.jsonl"

func runEntail(t *testing.T, preds string, opts eval.Options) eval.Report {
	t.Helper()
	gold, err := eval.ReadGold(entailGold, entailment.Eval)
	if err != nil {
		t.Fatal(err)
	}
	p, err := eval.ReadPredictions(strings.NewReader(preds), "preds", entailment.Eval, eval.PredOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Evaluate(entailment.Eval, gold, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestEntailReportGolden scores testdata/entail/preds.jsonl, whose
// outcome testdata/README.md works out by hand: 4 of 6 right, 1 invalid,
// binary 5 of 6, macro-F1 (1 + 1/2 + 2/3) / 3.
func TestEntailReportGolden(t *testing.T) {
	rep, err := eval.Run(context.Background(), entailment.Eval, eval.Config{Gold: "testdata/entail", Pred: "testdata/entail/preds.jsonl", Options: eval.Options{AllowMissing: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Overall; o.Correct != 4 || o.Unparseable != 1 || rep.Binary.Correct != 5 || fmt.Sprintf("%.4f", rep.MacroF1) != "0.7222" || rep.Missing != 12 {
		t.Errorf("overall %+v, binary %+v, macro-F1 %v, missing %d", o, rep.Binary, rep.MacroF1, rep.Missing)
	}
	want := [][]int{{2, 0, 0}, {0, 1, 0}, {0, 1, 1}}
	if fmt.Sprint(rep.Confusion) != fmt.Sprint(want) || fmt.Sprint(rep.ConfusionInvalid) != "[0 1 0]" {
		t.Errorf("confusion %v, invalid %v; want %v, [0 1 0]", rep.Confusion, rep.ConfusionInvalid, want)
	}
	var text bytes.Buffer
	if err := eval.WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "entail.txt", text.Bytes())
	js, _ := json.MarshalIndent(rep, "", "  ")
	checkGolden(t, "entail.json", append(js, '\n'))
}

func TestEntailPredictionForms(t *testing.T) {
	ids := []string{"S-1aa8c8-000006", "S-1aa8c8-000007", "S-1aa8c8-000008", "V-c9e8ab-000006", "V-c9e8ab-000007", "V-c9e8ab-000008"}
	gold := []int{0, 2, 1, 1, 2, 0} // three-way labels of the test split
	lines := func(f func(i int) string) string {
		var b strings.Builder
		for i, id := range ids {
			fmt.Fprintf(&b, `{"id":%q,%s}`+"\n", id, f(i))
		}
		return b.String()
	}
	mc := func(conts []string, best int) string {
		var args, resps []string
		for k, c := range conts {
			args = append(args, fmt.Sprintf(`"gen_args_%d":{"arg_0":"ctx","arg_1":%q}`, k, c))
			ll := "-3"
			if k == best {
				ll = "-1"
			}
			resps = append(resps, fmt.Sprintf(`["%s","False"]`, ll))
		}
		return fmt.Sprintf(`"doc_id":0,"doc":{},"arguments":{%s},"filtered_resps":[%s],"filter":"none"`, strings.Join(args, ","), strings.Join(resps, ","))
	}
	tests := []struct {
		name          string
		preds         string
		answers       string
		correct, bins int
	}{
		{"labels", lines(func(i int) string { return fmt.Sprintf(`"label":%d`, gold[i]) }), "three-way", 6, 6},
		{"label floats", lines(func(i int) string { return fmt.Sprintf(`"label":%d.0`, gold[i]) }), "three-way", 6, 6},
		{"binary labels", lines(func(i int) string { return fmt.Sprintf(`"label_binary":%d`, min(gold[i], 1)) }), "binary", 6, 6},
		{"binary names", lines(func(i int) string { return `"label_text":"Not Entailed"` }), "binary", 4, 4},
		{"out of range", lines(func(i int) string { return `"label":3` }), "three-way", 0, 0},
		{"constant neutral", lines(func(i int) string { return `"label":1` }), "three-way", 2, 4},
		{"lm-eval three choices", lines(func(i int) string { return mc([]string{" entailment", " neutral", " contradiction"}, gold[i]) }), "three-way", 6, 6},
		{"lm-eval two choices", lines(func(i int) string { return mc([]string{" entailed", " not entailed"}, min(gold[i], 1)) }), "binary", 6, 6},
		{"lm-eval choices by index", lines(func(i int) string { return mc([]string{"", "", ""}, 2) }), "three-way", 2, 4},
	}
	for _, tt := range tests {
		preds := tt.preds
		if strings.Contains(preds, `"doc_id"`) { // the id lives in the doc
			var b strings.Builder
			for _, l := range strings.SplitAfter(strings.TrimSpace(preds), "\n") {
				var obj map[string]any
				json.Unmarshal([]byte(l), &obj)
				obj["doc"] = map[string]any{"id": obj["id"]}
				delete(obj, "id")
				out, _ := json.Marshal(obj)
				fmt.Fprintf(&b, "%s\n", out)
			}
			preds = b.String()
		}
		rep := runEntail(t, preds, eval.Options{})
		if rep.Answers != tt.answers || rep.Overall.Correct != tt.correct || rep.Binary.Correct != tt.bins {
			t.Errorf("%s: %s answers, %d correct, binary %d; want %s, %d, %d", tt.name, rep.Answers, rep.Overall.Correct, rep.Binary.Correct, tt.answers, tt.correct, tt.bins)
		}
	}
}

func TestEntailErrors(t *testing.T) {
	gold, err := eval.ReadGold("testdata/entail", entailment.Eval)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, preds, want string }{
		{"unknown id", `{"id":"S-1aa8c8-000099","label":0}`, "not a gold record"},
		{"other dataset", `{"id":"S-ffffff-000006","label":0}`, "was made for dataset ffffff"},
		{"other text", `{"id":"S-1aa8c8-000006","label":0,"premises_text":"x","hypothesis":"y"}`, "other premises or another hypothesis"},
		{"missing", `{"id":"S-1aa8c8-000006","label":0}`, "have no prediction"},
	}
	for _, tt := range tests {
		p, err := eval.ReadPredictions(strings.NewReader(tt.preds), "p", entailment.Eval, eval.PredOptions{})
		if err == nil {
			_, err = eval.Evaluate(entailment.Eval, gold, p, eval.Options{AllowMissing: tt.name != "missing"})
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
	for _, bad := range []string{`{"id":"a"}`, `{"label":0}`, `{"id":"a","label":"x"}`, `{"id":"a","label":0}` + "\n" + `{"id":"a","label":1}`} {
		if _, err := eval.ReadPredictions(strings.NewReader(bad), "p", entailment.Eval, eval.PredOptions{}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
