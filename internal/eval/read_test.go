package eval_test

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/figure"
	"github.com/nlsat/nlsat/internal/figure/figuretest"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

const goldLineS = `{"id":"%s","fragment":"S","sentences":["Every artist is a baker."],"label":1,"label_text":"sat","m":1,"n1":2,"certificate":{"model_size":1,"mus":[]}%s}`

func goldRecord(id, extra string) string {
	return strings.Replace(strings.Replace(goldLineS, "%s", id, 1), "%s", extra, 1) + "\n"
}

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadGoldErrors(t *testing.T) {
	dir := t.TempDir()
	ok := goldRecord("a", "")
	tests := []struct {
		name  string
		files map[string]string // under dir/<name>/
		path  string            // read path under dir/<name>
		want  string
	}{
		{"missing file", nil, "none.jsonl", "no such file"},
		{"malformed line", map[string]string{"g.jsonl": ok + "\n{oops\n"}, "g.jsonl", "g.jsonl:3: not a record"},
		{"invalid record", map[string]string{"g.jsonl": `{"id":"x","sentences":[],"label":1,"label_text":"sat"}` + "\n"}, "g.jsonl", "g.jsonl:1: record x has no sentences"},
		{"unlabelled", map[string]string{"g.jsonl": `{"id":"x","sentences":["A."],"label":-1,"label_text":"","m":1}` + "\n"}, "g.jsonl", "g.jsonl:1: record x has no label"},
		{"duplicate in a file", map[string]string{"g.jsonl": ok + ok}, "g.jsonl", "g.jsonl:2: duplicate id a (first at"},
		{"duplicate across splits", map[string]string{"data/train.jsonl": ok, "data/test.jsonl": ok}, ".", "test.jsonl:1: duplicate id a (first at"},
		{"empty directory", map[string]string{"data/README": "x"}, ".", "no split files"},
		{"empty file", map[string]string{"g.jsonl": "\n"}, "g.jsonl", "no gold records"},
		{"role without id", map[string]string{"g.jsonl": goldRecord("a", `,"pair_role":"edited"`)}, "g.jsonl", "g.jsonl:1: record a has a pair_role but no pair_id"},
		{"bad role", map[string]string{"g.jsonl": goldRecord("a", `,"pair_id":"p","pair_role":"twin"`)}, "g.jsonl", `pair_role "twin" is not original or edited`},
	}
	for _, tt := range tests {
		base := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
		os.MkdirAll(base, 0o755)
		for name, content := range tt.files {
			write(t, filepath.Join(base, name), content)
		}
		_, err := eval.ReadGold(filepath.Join(base, tt.path), satunsat.Eval)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func TestPairErrors(t *testing.T) {
	dir := t.TempDir()
	g := write(t, filepath.Join(dir, "g.jsonl"), goldRecord("a", `,"pair_id":"p","pair_role":"original"`)+
		goldRecord("b", `,"pair_id":"p","pair_role":"original"`))
	gold, err := eval.ReadGold(g, satunsat.Eval)
	if err != nil {
		t.Fatal(err)
	}
	_, err = eval.Evaluate(satunsat.Eval, gold, constant(gold, func(eval.Gold) int { return 1 }), eval.Options{MBinWidth: 5})
	if err == nil || !strings.Contains(err.Error(), "g.jsonl:2: record b is a second original twin in pair p (the first is a)") {
		t.Errorf("two originals: %v", err)
	}
	// Empty pair keys, as a writer that keeps every key might emit, mean
	// no pair.
	g = write(t, filepath.Join(dir, "h.jsonl"), goldRecord("a", `,"pair_id":"","pair_role":""`))
	gold, err = eval.ReadGold(g, satunsat.Eval)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Evaluate(satunsat.Eval, gold, constant(gold, func(eval.Gold) int { return 1 }), eval.Options{MBinWidth: 5})
	if err != nil || rep.Pairs != nil {
		t.Errorf("empty pair keys: %v, pairs %v", err, rep.Pairs)
	}
}

func TestReadPredictions(t *testing.T) {
	tests := []struct {
		name, in string
		opts     eval.PredOptions
		want     []int // labels, or nil for an error
		err      string
	}{
		{"label", `{"id":"a","label":1}` + "\n" + `{"id":"b","label":0}`, eval.PredOptions{}, []int{1, 0}, ""},
		{"label_text", `{"id":"a","label_text":"sat"}` + "\n" + `{"id":"b","label_text":"UNSAT"}`, eval.PredOptions{}, []int{1, 0}, ""},
		{"label wins over text", `{"id":"a","label":0,"response":"satisfiable"}`, eval.PredOptions{}, []int{0}, ""},
		{"null label falls through", `{"id":"a","label":null,"output":"False"}`, eval.PredOptions{}, []int{0}, ""},
		{"text fields in order", `{"id":"a","answer":"True","prediction":"unsatisfiable"}`, eval.PredOptions{}, []int{0}, ""},
		{"unparseable", `{"id":"a","response":"maybe"}` + "\n\n" + `{"id":"b","response":""}`, eval.PredOptions{}, []int{-1, -1}, ""},
		{"named field", `{"id":"a","label":1,"text":"Every x.","gen":"False"}`, eval.PredOptions{Field: "gen"}, []int{0}, ""},
		{"named field null", `{"id":"a","gen":null}`, eval.PredOptions{Field: "gen"}, []int{-1}, ""},
		{"answer set", `{"id":"a","response":"True: unsatisfiable"}`, eval.PredOptions{Answers: string(satunsat.AnswersSatUnsat)}, []int{0}, ""},
		{"malformed", `{"id":"a","label":1}` + "\n" + `{"id":`, eval.PredOptions{}, nil, "p.jsonl:2: not a prediction"},
		{"no id", `{"label":1}`, eval.PredOptions{}, nil, "p.jsonl:1: prediction has no id"},
		{"numeric id", `{"id":7,"label":1}`, eval.PredOptions{}, nil, "p.jsonl:1: prediction has no id"},
		{"no answer", `{"id":"a","text":"Every artist is a baker."}`, eval.PredOptions{}, nil, "p.jsonl:1: prediction a has none of label, label_text, prediction, response, output, answer"},
		{"named field absent", `{"id":"a","response":"True"}`, eval.PredOptions{Field: "gen"}, nil, `p.jsonl:1: prediction a has no "gen"`},
		{"label 0.0 and 1.0", `{"id":"a","label":0.0}` + "\n" + `{"id":"b","label":1.0}` + "\n" + `{"id":"c","label":1e0}`, eval.PredOptions{}, []int{0, 1, 1}, ""},
		{"label 2", `{"id":"a","label":2}`, eval.PredOptions{}, nil, "p.jsonl:1: prediction a: label 2 is not 0 or 1"},
		{"label 0.5", `{"id":"a","label":0.5}`, eval.PredOptions{}, nil, "p.jsonl:1: prediction a: label 0.5 is not 0 or 1"},
		{"label as a string", `{"id":"a","label":"1"}`, eval.PredOptions{}, nil, `p.jsonl:1: prediction a: label "1" is not 0 or 1`},
		{"label -1", `{"id":"a","label":-1}`, eval.PredOptions{}, nil, "label -1 is not 0 or 1"},
		{"label_text yes", `{"id":"a","label_text":"yes"}`, eval.PredOptions{}, nil, `label_text "yes" is not "sat" or "unsat"`},
		{"text not a string", `{"id":"a","response":["True"]}`, eval.PredOptions{}, nil, "response is not a string"},
		{"duplicate", `{"id":"a","label":1}` + "\n" + `{"id":"b","label":1}` + "\n" + `{"id":"a","label":0}`, eval.PredOptions{}, nil, "p.jsonl:3: duplicate prediction for id a (first at p.jsonl:1)"},
		{"empty", "\n", eval.PredOptions{}, nil, "p.jsonl: no predictions"},
		{"bad answer set", `{"id":"a","label":1}`, eval.PredOptions{Answers: "yesno"}, nil, "unknown answer set"},
	}
	for _, tt := range tests {
		preds, err := eval.ReadPredictions(strings.NewReader(tt.in), "p.jsonl", satunsat.Eval, tt.opts)
		if tt.want == nil {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var got []int
		for _, p := range preds {
			got = append(got, p.Label)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: labels %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestPlot draws the small example and checks it against the golden
// images testdata/fig3.png and .svg (go test -update rewrites them), the
// PNG's size (5.2 by 3.2 inches at 300 dpi, recorded in its pHYs chunk)
// and that the curves put colour on it.
func TestPlot(t *testing.T) {
	rep := smallReport(t)
	var b bytes.Buffer
	if err := eval.Plot(&b, rep, "png"); err != nil {
		t.Fatal(err)
	}
	figuretest.Check(t, filepath.Join("testdata", "fig3.png"), b.Bytes())
	if x, y, ok := figure.Resolution(b.Bytes()); !ok || math.Round(x) != 300 || math.Round(y) != 300 {
		t.Errorf("resolution %v × %v dpi (recorded: %v), want 300", x, y, ok)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != 1560 || got.Y != 960 {
		t.Errorf("size %v, want 1560x960", got)
	}
	coloured := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if max(r, g, bl)-min(r, g, bl) > 0x2000 {
				coloured++
			}
		}
	}
	if coloured < 200 {
		t.Errorf("%d coloured pixels: the curves are missing", coloured)
	}
	b.Reset()
	if err := eval.Plot(&b, rep, "svg"); err != nil || !bytes.Contains(b.Bytes(), []byte("<svg")) {
		t.Errorf("svg: %v", err)
	}
	figuretest.Check(t, filepath.Join("testdata", "fig3.svg"), b.Bytes())
	if err := eval.Plot(&b, rep, "gif"); err == nil || !strings.Contains(err.Error(), "allowed values are png, svg") {
		t.Errorf("gif: %v", err)
	}
	if err := eval.Plot(&b, eval.Report{}, "png"); err == nil {
		t.Error("an empty report plots")
	}
}
