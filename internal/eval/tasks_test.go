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
	"github.com/nlsat/nlsat/internal/task/entailment"
	"github.com/nlsat/nlsat/internal/task/satunsat"
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

// TestRunTasks runs the one driver on the records of both tasks, as nlsat
// eval does: the reports are the golden ones, the per-record file has a
// line per scored record, and what a task's report does not have (the
// figure, the chains) is refused.
func TestRunTasks(t *testing.T) {
	tests := []struct {
		name         string
		task         eval.Task
		gold, pred   string
		allowMissing bool
		golden       string // testdata/GOLDEN.txt and .json
		scored       int
		figure       bool
	}{
		{"sat/unsat", satunsat.Eval, "testdata/small", "testdata/small/preds.jsonl", false, "small", 10, true},
		{"entailment", entailment.Eval, "testdata/entail", "testdata/entail/preds.jsonl", true, "entail", 6, false},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		c := eval.Config{Gold: tt.gold, Pred: tt.pred, Options: eval.Options{MBinWidth: 5, AllowMissing: tt.allowMissing},
			PerRecord: filepath.Join(dir, "per-record.jsonl")}
		rep, err := eval.Run(context.Background(), tt.task, c, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var text bytes.Buffer
		if err := eval.WriteText(&text, rep); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, tt.golden+".txt", text.Bytes())
		js, _ := json.MarshalIndent(rep, "", "  ")
		checkGolden(t, tt.golden+".json", append(js, '\n'))
		b, err := os.ReadFile(c.PerRecord)
		if err != nil {
			t.Fatal(err)
		}
		lines, correct := strings.Split(strings.TrimSpace(string(b)), "\n"), 0
		for _, l := range lines {
			var r struct {
				ID, Split       string
				Gold, Predicted *int
				Correct         bool
				Source, Where   string
				Fragment        string
				Answer, Reading *string
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil || r.ID == "" || r.Gold == nil || r.Predicted == nil || r.Fragment == "" || r.Where == "" {
				t.Errorf("%s: per-record line %s (%v)", tt.name, l, err)
			}
			if r.Correct {
				correct++
			}
		}
		if len(lines) != tt.scored || correct != rep.Overall.Correct {
			t.Errorf("%s: %d per-record lines, %d correct; want %d, %d", tt.name, len(lines), correct, tt.scored, rep.Overall.Correct)
		}
		c.PerRecord, c.Plot = "", filepath.Join(dir, "fig.png")
		if _, err := eval.Run(context.Background(), tt.task, c, nil); (err == nil) != tt.figure {
			t.Errorf("%s: a figure: %v", tt.name, err)
		}
		c.Plot, c.Chains = "", true
		if _, err := eval.Run(context.Background(), tt.task, c, nil); !tt.figure && (err == nil || !strings.Contains(err.Error(), "--chains: the entailment task's answers are no chains of thought")) {
			t.Errorf("%s: chains: %v", tt.name, err)
		}
	}
}
