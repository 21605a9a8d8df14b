package eval_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

// The lm-evaluation-harness samples of testdata/lmeval (see its README).
const (
	lmGold    = "testdata/lmeval/gold.jsonl"
	lmGen     = "testdata/lmeval/samples_nlsat_s8_satunsat_gen_2025-06-01T12-00-00.000000.jsonl"
	lmMC      = "testdata/lmeval/samples_nlsat_s8_truefalse_2025-06-01T12-00-00.000000.jsonl"
	lmMCSeed7 = "testdata/lmeval/samples_nlsat_s7_truefalse_2025-06-01T12-00-00.000000.jsonl"
)

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func labels(preds []eval.Prediction) []int {
	var out []int
	for _, p := range preds {
		out = append(out, p.Label)
	}
	return out
}

// TestReadSamples reads the harness's samples of a generate_until task
// (a line per filter and document) and of a multiple_choice task.
func TestReadSamples(t *testing.T) {
	tests := []struct {
		name, file, filter string
		want               []int
		source             string
	}{
		// The raw generations, read by ReadAnswer: "The sentences are not
		// satisfiable." is unsat, "I cannot tell." unparseable.
		{"generations", lmGen, "", []int{1, 0, 0, 1, -1, 0}, "resps"},
		// The harness's filters, as it scores them: flexible-extract finds
		// "satisfiable" in "not satisfiable"; strict-match gives [invalid].
		{"flexible-extract", lmGen, "flexible-extract", []int{1, 1, 0, 1, -1, 1}, "filtered_resps[flexible-extract]"},
		{"strict-match", lmGen, "strict-match", []int{1, -1, 0, 1, -1, -1}, "filtered_resps[strict-match]"},
		// The likelier of " False" and " True"; the tie of doc 2 goes to the
		// first, as numpy's argmax in the harness's acc.
		{"log-likelihoods", lmMC, "", []int{1, 0, 0, 1, 0, 0}, "loglikelihood"},
		{"log-likelihoods, filter none", lmMC, "none", []int{1, 0, 0, 1, 0, 0}, "loglikelihood"},
	}
	for _, tt := range tests {
		preds, err := eval.ReadPredictions(strings.NewReader(readFile(t, tt.file)), "s.jsonl", satunsat.Eval, eval.PredOptions{Filter: tt.filter})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := labels(preds); !slices.Equal(got, tt.want) {
			t.Errorf("%s: labels %v, want %v", tt.name, got, tt.want)
		}
		if preds[0].Source != tt.source || preds[0].ID != "S-75f775-000000" || !eval.HasText(&preds[0]) || !eval.HasDocLabel(&preds[0]) {
			t.Errorf("%s: first prediction %+v", tt.name, preds[0])
		}
	}
}

// TestSamplesAgreeWithHarness: where the harness scored the very answer
// nlsat reads (the log-likelihoods, a filter's output), nlsat's verdict
// is the harness's acc or exact_match.
func TestSamplesAgreeWithHarness(t *testing.T) {
	gold, err := eval.ReadGold(lmGold, satunsat.Eval)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, filter, metric string }{
		{lmMC, "", "acc"}, {lmGen, "strict-match", "exact_match"}, {lmGen, "flexible-extract", "exact_match"},
	} {
		preds, err := eval.ReadPredictions(strings.NewReader(readFile(t, c.file)), "s.jsonl", satunsat.Eval, eval.PredOptions{Filter: c.filter})
		if err != nil {
			t.Fatal(err)
		}
		var harness []bool
		for _, l := range strings.Split(strings.TrimSpace(readFile(t, c.file)), "\n") {
			var s map[string]any
			json.Unmarshal([]byte(l), &s)
			if c.filter == "" || s["filter"] == c.filter {
				harness = append(harness, s[c.metric] == 1.0)
			}
		}
		for i, p := range preds {
			if got := p.Label == gold[i].Label; got != harness[i] {
				t.Errorf("%s %s: doc %d: nlsat says correct=%v, the harness %v", c.file, c.filter, i, got, harness[i])
			}
		}
	}
}

// TestEvaluateSamples scores the samples against their gold and refuses
// them against gold they were not made for.
func TestEvaluateSamples(t *testing.T) {
	gold, err := eval.ReadGold(lmGold, satunsat.Eval)
	if err != nil {
		t.Fatal(err)
	}
	seed8 := readFile(t, lmMC)
	seed7 := readFile(t, lmMCSeed7)
	tests := []struct {
		name, in string
		want     string // an error, or "" for none
	}{
		{"its gold", seed8, ""},
		{"another seed", seed7, "s.jsonl:1: prediction for id S-594e03-000000 was made for dataset 594e03, but the gold records are dataset 75f775: another seed or other flags built them"},
		// Ids without digests (as nlsat wrote them before) cannot tell the
		// datasets apart; the instance text can.
		{"another seed under gold's ids", strings.ReplaceAll(seed7, "S-594e03-", "S-75f775-"), "s.jsonl:1: prediction for S-75f775-000000 carries another instance text than the gold record (testdata/lmeval/gold.jsonl:1): it was made for another dataset"},
		{"another label", strings.Replace(seed8, `"label": 1, "label_text": "sat"`, `"label": 0, "label_text": "unsat"`, 1), "s.jsonl:1: the lm-eval doc of S-75f775-000000 has label 0, but the gold record (testdata/lmeval/gold.jsonl:1) has 1: the prompts were made from other data"},
		{"an unknown id of gold's dataset", strings.Replace(seed8, "S-75f775-000000", "S-75f775-000099", 1), "s.jsonl:1: prediction for id S-75f775-000099, which is not a gold record"},
	}
	for _, tt := range tests {
		preds, err := eval.ReadPredictions(strings.NewReader(tt.in), "s.jsonl", satunsat.Eval, eval.PredOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		rep, err := eval.Evaluate(satunsat.Eval, gold, preds, eval.Options{MBinWidth: 5})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want == "" && (rep.Overall.Correct != 4 || rep.TextsChecked != 6 || !slices.Equal(rep.Datasets, []string{"75f775"})):
			t.Errorf("%s: %d correct, %d texts checked, datasets %v; want 4, 6, [75f775]", tt.name, rep.Overall.Correct, rep.TextsChecked, rep.Datasets)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%s: error %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

// TestPlainTextCheck: a plain prediction's "text" key is the instance's
// text and must be gold's, unless --field names it as the answer.
func TestPlainTextCheck(t *testing.T) {
	gold, err := eval.ReadGold(lmGold, satunsat.Eval)
	if err != nil {
		t.Fatal(err)
	}
	records := readFile(t, lmGold) // gold records are perfect predictions
	other := strings.Replace(records, `"text":"Some hairdresser`, `"text":"Some  barber`, 1)
	tests := []struct {
		name, in     string
		opts         eval.PredOptions
		texts, right int
		want         string
	}{
		{"gold records", records, eval.PredOptions{}, 6, 6, ""},
		{"white space aside", strings.Replace(records, `is not an engineer.`, `is  not an\tengineer. `, 1), eval.PredOptions{}, 6, 6, ""},
		{"another text", other, eval.PredOptions{}, 0, 0, "s.jsonl:1: prediction for S-75f775-000000 carries another instance text than the gold record"},
		{"text as the answer", other, eval.PredOptions{Field: "text"}, 0, 0, ""},
	}
	for _, tt := range tests {
		preds, err := eval.ReadPredictions(strings.NewReader(tt.in), "s.jsonl", satunsat.Eval, tt.opts)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		rep, err := eval.Evaluate(satunsat.Eval, gold, preds, eval.Options{MBinWidth: 5})
		switch {
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want == "" && tt.opts.Field == "" && (rep.TextsChecked != tt.texts || rep.Overall.Correct != tt.right):
			t.Errorf("%s: %d texts checked, %d right; want %d, %d", tt.name, rep.TextsChecked, rep.Overall.Correct, tt.texts, tt.right)
		case tt.opts.Field != "" && rep.TextsChecked != 0:
			t.Errorf("%s: %d texts checked, want none", tt.name, rep.TextsChecked)
		}
	}
}

// TestPerRecord writes the per-record file of the generations: in gold
// order whatever the order of the predictions, and only for the records
// that have one (the last has none here).
func TestPerRecord(t *testing.T) {
	gold, err := eval.ReadGold(lmGold, satunsat.Eval)
	if err != nil {
		t.Fatal(err)
	}
	preds, err := eval.ReadPredictions(strings.NewReader(readFile(t, lmGen)), filepath.Base(lmGen), satunsat.Eval, eval.PredOptions{})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(preds)
	var b bytes.Buffer
	if err := eval.WritePerRecord(&b, gold, preds[1:], false); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "lmeval/per-record.jsonl", b.Bytes())
}

func TestReadSamplesErrors(t *testing.T) {
	gen := strings.SplitAfter(readFile(t, lmGen), "\n")
	mc := strings.SplitAfter(readFile(t, lmMC), "\n")
	tests := []struct {
		name, in string
		opts     eval.PredOptions
		want     string
	}{
		{"no doc id", `{"doc_id": 3, "doc": {"text": "x"}, "resps": [["True"]]}`, eval.PredOptions{}, "s.jsonl:1: lm-eval sample (doc_id 3) has no doc.id: only the tasks of nlsat prompt"},
		{"no responses", `{"doc_id": 0, "doc": {"id": "a"}, "filter": "none"}`, eval.PredOptions{}, "s.jsonl:1: lm-eval sample for a has no resps or filtered_resps"},
		{"response not a string", `{"doc_id": 0, "doc": {"id": "a"}, "resps": [[7]], "filtered_resps": [7]}`, eval.PredOptions{}, "lm-eval sample for a: resps is not a generation"},
		{"resps not a list", `{"doc_id": 0, "doc": {"id": "a"}, "resps": "True"}`, eval.PredOptions{}, "s.jsonl:1: not an lm-eval sample"},
		{"bad log-likelihood", `{"doc_id": 0, "doc": {"id": "a"}, "filtered_resps": [["-1", "False"], ["nan", "False"]]}`, eval.PredOptions{}, "choice 1: log-likelihood \"nan\" is not a number"},
		{"unknown choices", `{"doc_id": 0, "doc": {"id": "a"}, "arguments": {"gen_args_0": {"arg_1": " A"}, "gen_args_1": {"arg_1": " B"}}, "filtered_resps": [["-1", "False"], ["-2", "False"]]}`, eval.PredOptions{}, `cannot tell which choice means sat: the choices are [" A" " B"]`},
		{"same filter twice", mc[0] + mc[0], eval.PredOptions{}, "s.jsonl:2: duplicate prediction for id S-75f775-000000 (first at s.jsonl:1)"},
		{"filters disagree", gen[0] + strings.Replace(gen[6], "Satisfiable.", "Unsatisfiable.", 1), eval.PredOptions{}, `s.jsonl:2: lm-eval sample for id S-75f775-000000 under filter "flexible-extract" has another response than under "strict-match"`},
		{"no such filter", gen[0] + gen[6], eval.PredOptions{Filter: "take-first"}, `s.jsonl: no lm-eval sample has the filter "take-first" (the file has "strict-match", "flexible-extract")`},
		{"filter on plain predictions", `{"id": "a", "label": 1}`, eval.PredOptions{Filter: "none"}, "s.jsonl:1: not an lm-eval sample (no doc_id and doc), but a filter was named"},
	}
	for _, tt := range tests {
		_, err := eval.ReadPredictions(strings.NewReader(tt.in), "s.jsonl", satunsat.Eval, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	// Older harnesses wrote the arguments as lists, [context, continuation];
	// without arguments the choices are in label order.
	for _, args := range []string{`"arguments": [["Q", " True"], ["Q", " False"]], `, ""} {
		in := `{"doc_id": 0, "doc": {"id": "a"}, ` + args + `"resps": [[["-1.5", "False"]], [["-0.5", "True"]]]}`
		preds, err := eval.ReadPredictions(strings.NewReader(in), "s.jsonl", satunsat.Eval, eval.PredOptions{})
		want := map[string]int{"": 1}[args] // True/False order: choice 1 is False
		if err != nil || preds[0].Label != want {
			t.Errorf("arguments %q: %v, %+v; want label %d", args, err, preds, want)
		}
	}
}

// FuzzReadPredictions: the reader never panics on any file, and what it
// accepts are predictions with an id and a label it knows.
func FuzzReadPredictions(f *testing.F) {
	for _, name := range []string{lmGen, lmMC, "testdata/small/preds.jsonl"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		lines := strings.SplitAfter(string(b), "\n")
		f.Add(lines[0]+lines[1], "")
	}
	f.Add(`{"doc_id": 0, "doc": {"id": "a"}, "filtered_resps": [["-1", "x"], ["2", "x"]]}`, "none")
	f.Add(`{"id": "a", "label": 1.0, "text": "x"}`+"\n"+`{"id": "b", "response": "not true"}`, "")
	f.Fuzz(func(t *testing.T, in, filter string) {
		preds, err := eval.ReadPredictions(strings.NewReader(in), "fuzz", satunsat.Eval, eval.PredOptions{Filter: filter})
		if err != nil {
			return
		}
		for _, p := range preds {
			if p.ID == "" || p.Label < eval.Unparseable || p.Label > 1 || p.Where == "" {
				t.Fatalf("accepted %+v", p)
			}
		}
	})
}
