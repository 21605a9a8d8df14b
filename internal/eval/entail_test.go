package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/entailrec"
)

const entailGold = "testdata/entail/data/test.jsonl"

func TestReadEntailAnswer(t *testing.T) {
	tests := []struct {
		text          string
		label, binary int
		phrase        string
	}{
		{"entailment", 0, 0, "entailment"},
		{" Neutral.", 1, 1, "Neutral"},
		{"**CONTRADICTION**", 2, 1, "CONTRADICTION"},
		{"The hypothesis is entailed.", 0, 0, "entailed"},
		{"not entailed", -1, 1, "not entailed"},
		{"It isn't entailed by them", -1, 1, "isn't entailed"},
		{"neutral, not entailed", 1, 1, "neutral"},
		{"contradictions", -1, -1, ""},
		{"I cannot tell.", -1, -1, ""},
		{"", -1, -1, ""},
	}
	for _, tt := range tests {
		l, b, p := ReadEntailAnswer(tt.text)
		if l != tt.label || b != tt.binary || p != tt.phrase {
			t.Errorf("%q: got %d, %d, %q; want %d, %d, %q", tt.text, l, b, p, tt.label, tt.binary, tt.phrase)
		}
	}
}

func TestRecordSchema(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	test, _ := os.ReadFile(entailGold)
	sat, _ := os.ReadFile("testdata/lmeval/gold.jsonl")
	tests := []struct{ path, want string }{
		{"testdata/entail", entailrec.Schema},
		{entailGold, entailrec.Schema},
		{"testdata/lmeval/gold.jsonl", dataset.SchemaVersion},
		{"testdata/small", dataset.SchemaVersion},
		// The manifest wins over the records' keys.
		{write("m/data/test.jsonl", string(test)), entailrec.Schema},
		{write("n/data/test.jsonl", string(sat)), dataset.SchemaVersion},
	}
	write("n/manifest.json", `{"record_schema": "nlsat-record/3"}`)
	write("m/manifest.json", `{"schema": "nlsat-manifest/1"}`)
	for _, tt := range tests {
		if got, err := RecordSchema(tt.path); err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.path, got, err, tt.want)
		}
	}
	write("p/manifest.json", `{"record_schema": "nlsat-entail/1"}`)
	write("p/data/test.jsonl", string(sat))
	if got, _ := RecordSchema(filepath.Join(dir, "p")); got != entailrec.Schema {
		t.Errorf("a manifest saying entailment: got %q", got)
	}
}

func runEntail(t *testing.T, preds string, opts Options) EntailReport {
	t.Helper()
	gold, err := ReadEntailGold(entailGold)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadEntailPredictions(strings.NewReader(preds), "preds", PredOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := EvaluateEntail(gold, p, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestEntailReportGolden scores testdata/entail/preds.jsonl, whose
// outcome testdata/README.md works out by hand: 4 of 6 right, 1 invalid,
// binary 5 of 6, macro-F1 (1 + 1/2 + 2/3) / 3.
func TestEntailReportGolden(t *testing.T) {
	rep, err := RunEntail(Config{Gold: "testdata/entail", Pred: "testdata/entail/preds.jsonl", Options: Options{AllowMissing: true}}, nil)
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
	if err := WriteEntailText(&text, rep); err != nil {
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
		{"labels", lines(func(i int) string { return fmt.Sprintf(`"label":%d`, gold[i]) }), AnswersThreeWay, 6, 6},
		{"label floats", lines(func(i int) string { return fmt.Sprintf(`"label":%d.0`, gold[i]) }), AnswersThreeWay, 6, 6},
		{"binary labels", lines(func(i int) string { return fmt.Sprintf(`"label_binary":%d`, min(gold[i], 1)) }), AnswersBinary, 6, 6},
		{"binary names", lines(func(i int) string { return `"label_text":"Not Entailed"` }), AnswersBinary, 4, 4},
		{"out of range", lines(func(i int) string { return `"label":3` }), AnswersThreeWay, 0, 0},
		{"constant neutral", lines(func(i int) string { return `"label":1` }), AnswersThreeWay, 2, 4},
		{"lm-eval three choices", lines(func(i int) string { return mc([]string{" entailment", " neutral", " contradiction"}, gold[i]) }), AnswersThreeWay, 6, 6},
		{"lm-eval two choices", lines(func(i int) string { return mc([]string{" entailed", " not entailed"}, min(gold[i], 1)) }), AnswersBinary, 6, 6},
		{"lm-eval choices by index", lines(func(i int) string { return mc([]string{"", "", ""}, 2) }), AnswersThreeWay, 2, 4},
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
		rep := runEntail(t, preds, Options{})
		if rep.Answers != tt.answers || rep.Overall.Correct != tt.correct || rep.Binary.Correct != tt.bins {
			t.Errorf("%s: %s answers, %d correct, binary %d; want %s, %d, %d", tt.name, rep.Answers, rep.Overall.Correct, rep.Binary.Correct, tt.answers, tt.correct, tt.bins)
		}
	}
}

func TestEntailErrors(t *testing.T) {
	gold, err := ReadEntailGold("testdata/entail")
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
		p, err := ReadEntailPredictions(strings.NewReader(tt.preds), "p", PredOptions{})
		if err == nil {
			_, err = EvaluateEntail(gold, p, Options{AllowMissing: tt.name != "missing"}, false)
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
	for _, bad := range []string{`{"id":"a"}`, `{"label":0}`, `{"id":"a","label":"x"}`, `{"id":"a","label":0}` + "\n" + `{"id":"a","label":1}`} {
		if _, err := ReadEntailPredictions(strings.NewReader(bad), "p", PredOptions{}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
