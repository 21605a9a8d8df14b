package eval_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/golden"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

// checkGolden compares got with testdata/name (golden.Check).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// smallReport scores testdata/small (see testdata/README.md).
func smallReport(t *testing.T) eval.Report {
	t.Helper()
	gold, err := eval.ReadGold("testdata/small", satunsat.Eval)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/small/preds.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	preds, err := eval.ReadPredictions(f, "preds.jsonl", satunsat.Eval, eval.PredOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Evaluate(satunsat.Eval, gold, preds, eval.Options{MBinWidth: 5})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

type count struct{ n, correct, unparseable int }

func counts(rows []eval.Row) map[string]count {
	m := map[string]count{}
	for _, r := range rows {
		m[r.Key[0]] = count{r.Count, r.Correct, r.Unparseable}
	}
	return m
}

func keys(rows []eval.Row) []string {
	var ks []string
	for _, r := range rows {
		ks = append(ks, r.Key[0])
	}
	return ks
}

// TestSmallExample checks the report of testdata/small against counts
// worked out by hand from the table in testdata/README.md.
func TestSmallExample(t *testing.T) {
	rep := smallReport(t)
	o := rep.Overall
	if o.Count != 10 || o.Correct != 6 || o.Unparseable != 1 || o.Accuracy != 0.6 || math.Abs(o.AccuracyParseable-6.0/9) > 1e-12 {
		t.Errorf("overall %+v, want 6 of 10 correct, 1 unparseable, 6/9 of the parseable", o)
	}
	// Wilson 95% for 6 of 10, by hand: centre (0.6 + z²/20)/(1 + z²/10)
	// = 0.57225, half-width 0.25957 with z = 1.95996.
	if math.Abs(o.CILow-0.31267) > 1e-4 || math.Abs(o.CIHigh-0.83182) > 1e-4 {
		t.Errorf("overall interval [%.5f, %.5f], want [0.31267, 0.83182]", o.CILow, o.CIHigh)
	}
	if rep.Gold != 10 || rep.Predictions != 10 || rep.Missing != 0 || rep.MBinWidth != 5 {
		t.Errorf("header %d gold, %d predictions, %d missing, width %d", rep.Gold, rep.Predictions, rep.Missing, rep.MBinWidth)
	}
	sections := []struct {
		name  string
		rows  []eval.Row
		order []string
		want  map[string]count
	}{
		{"split", rep.Section("by_split"), []string{"test", "generalisation"},
			map[string]count{"test": {6, 4, 1}, "generalisation": {4, 2, 0}}},
		{"fragment", rep.Section("by_fragment"), []string{"S", "V"},
			map[string]count{"S": {5, 3, 0}, "V": {5, 3, 1}}},
		{"n", rep.Section("by_n"), []string{"6", "8", "10"},
			map[string]count{"6": {5, 3, 1}, "8": {1, 1, 0}, "10": {4, 2, 0}}},
		{"m bin", rep.Section("by_m_bin"), []string{"1-5", "6-10", "11-15"},
			map[string]count{"1-5": {1, 1, 0}, "6-10": {4, 2, 1}, "11-15": {5, 3, 0}}},
		{"label", rep.Section("by_label"), []string{"sat", "unsat"},
			map[string]count{"sat": {5, 3, 0}, "unsat": {5, 3, 1}}},
		{"MUS size", rep.Section("by_mus_size"), []string{"2", "3", "unknown"},
			map[string]count{"2": {2, 1, 1}, "3": {2, 2, 0}, "unknown": {1, 0, 0}}},
		{"model size", rep.Section("by_model_size"), []string{"3", "4", "5", "6", "7"},
			map[string]count{"3": {1, 1, 0}, "4": {1, 0, 0}, "5": {1, 1, 0}, "6": {1, 1, 0}, "7": {1, 0, 0}}},
	}
	for _, s := range sections {
		if got := keys(s.rows); !reflect.DeepEqual(got, s.order) {
			t.Errorf("%s: rows %v, want %v", s.name, got, s.order)
		}
		if got := counts(s.rows); !reflect.DeepEqual(got, s.want) {
			t.Errorf("%s: counts %v, want %v", s.name, got, s.want)
		}
	}
	wantFN := []string{"S 6 1/2", "S 8 1/1", "S 10 1/2", "V 6 2/3", "V 10 1/2"}
	var gotFN []string
	for _, r := range rep.Section("by_fragment_n") {
		gotFN = append(gotFN, fmt.Sprintf("%s %s %d/%d", r.Key[0], r.Key[1], r.Correct, r.Count))
	}
	if !reflect.DeepEqual(gotFN, wantFN) {
		t.Errorf("by fragment and n: %v, want %v", gotFN, wantFN)
	}
	wantSF := []string{"test S 2/3", "test V 2/3", "generalisation S 1/2", "generalisation V 1/2"}
	var gotSF []string
	for _, r := range rep.Section("by_split_fragment") {
		gotSF = append(gotSF, fmt.Sprintf("%s %s %d/%d", r.Key[0], r.Key[1], r.Correct, r.Count))
	}
	if !reflect.DeepEqual(gotSF, wantSF) {
		t.Errorf("by split and fragment: %v, want %v", gotSF, wantSF)
	}
	// p1: both twins right, so the answer changes; p2: the sat twin is
	// wrong and both answers are unsat; p3 has one twin only.
	p := rep.Pairs
	if p == nil {
		t.Fatal("no pair section")
	}
	if p.Pairs != 2 || p.Incomplete != 1 || p.OppositeLabels != 2 || p.BothCorrect.Hits != 1 || p.Changed.Hits != 1 || p.BothCorrect.Rate != 0.5 {
		t.Errorf("pairs %+v, want 2 scored, 1 incomplete, 1 both correct, 1 changed", *p)
	}

	var text bytes.Buffer
	if err := eval.WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "small.txt", text.Bytes())
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "small.json", append(js, '\n'))
}

// goldRow is what a test says of a sat/unsat gold record.
type goldRow struct {
	ID, Fragment       string
	N1, M, Label       int
	MUSSize, ModelSize int
}

// readRows writes rows as records and reads them back as gold.
func readRows(t *testing.T, rows []goldRow) []eval.Gold {
	t.Helper()
	var b bytes.Buffer
	enc := dataset.NewEncoder(&b)
	for _, g := range rows {
		r := &dataset.Record{ID: g.ID, Fragment: g.Fragment, N1: g.N1, M: g.M, Label: g.Label, LabelText: dataset.LabelText(g.Label),
			Sentences: make([]string, g.M), Certificate: dataset.Certificate{ModelSize: g.ModelSize, MUS: make([]int, g.MUSSize)}}
		for i := range r.Sentences {
			r.Sentences[i] = "Every artist is a baker."
		}
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	name := filepath.Join(t.TempDir(), "gold.jsonl")
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	gold, err := eval.ReadGold(name, satunsat.Eval)
	if err != nil {
		t.Fatal(err)
	}
	for i := range gold {
		gold[i].Where = "x"
	}
	return gold
}

// balanced returns 2k gold records per fragment S and V, half sat and
// half unsat, over three values of n and both certificates.
func balanced(t *testing.T, k int) []eval.Gold {
	var rows []goldRow
	for _, frag := range []string{"S", "V"} {
		for i := range 2 * k {
			g := goldRow{ID: fmt.Sprintf("%s-%03d", frag, i), Fragment: frag, N1: 3 + i%3, M: 4 + i%7, Label: i % 2}
			if g.Label == 1 {
				g.ModelSize = 1 + i%4
			} else {
				g.MUSSize = 2 + i%3
			}
			rows = append(rows, g)
		}
	}
	return readRows(t, rows)
}

func constant(gold []eval.Gold, f func(g eval.Gold) int) []eval.Prediction {
	var preds []eval.Prediction
	for _, g := range gold {
		preds = append(preds, eval.Prediction{ID: g.ID, Label: f(g), Where: "p"})
	}
	return preds
}

// TestPerfectAndConstant: predictions equal to gold score 1 in every
// group; a constant answer scores 1/2 on balanced data, all of it on the
// label it names; answers that never parse score 0.
func TestPerfectAndConstant(t *testing.T) {
	gold := balanced(t, 12)
	tests := []struct {
		name              string
		predict           func(eval.Gold) int
		overall, sat, uns float64
		parseable         float64
	}{
		{"gold", func(g eval.Gold) int { return g.Label }, 1, 1, 1, 1},
		{"always sat", func(eval.Gold) int { return 1 }, 0.5, 1, 0, 0.5},
		{"always unsat", func(eval.Gold) int { return 0 }, 0.5, 0, 1, 0.5},
		{"never parses", func(eval.Gold) int { return eval.Unparseable }, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		rep, err := eval.Evaluate(satunsat.Eval, gold, constant(gold, tt.predict), eval.Options{MBinWidth: 3})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Overall.Accuracy != tt.overall || rep.Overall.Count != len(gold) || rep.Overall.AccuracyParseable != tt.parseable {
			t.Errorf("%s: overall %+v, want accuracy %v", tt.name, rep.Overall, tt.overall)
		}
		if l := rep.Section("by_label"); len(l) != 2 || l[0].Accuracy != tt.sat || l[1].Accuracy != tt.uns {
			t.Errorf("%s: by label %+v, want sat %v, unsat %v", tt.name, l, tt.sat, tt.uns)
		}
		for _, r := range rep.Section("by_fragment") {
			if r.Accuracy != tt.overall {
				t.Errorf("%s: fragment %s accuracy %v, want %v", tt.name, r.Key[0], r.Accuracy, tt.overall)
			}
		}
		if tt.overall == 1 {
			for _, rows := range [][]eval.Row{rep.Section("by_n"), rep.Section("by_m_bin"), rep.Section("by_mus_size"), rep.Section("by_model_size")} {
				for _, r := range rows {
					if r.Accuracy != 1 || r.CIHigh != 1 {
						t.Errorf("%s: group %s scores %v", tt.name, r.Key[0], r.Accuracy)
					}
				}
			}
		}
		if rep.Pairs != nil || len(rep.Section("by_split")) != 0 {
			t.Errorf("%s: pair or split sections without pairs or splits", tt.name)
		}
	}
}

// TestOrderDoesNotMatter shuffles both inputs; the report must not move.
func TestOrderDoesNotMatter(t *testing.T) {
	gold := balanced(t, 10)
	preds := constant(gold, func(g eval.Gold) int {
		i, _ := strconv.Atoi(g.ID[2:])
		return (len(g.ID) + 4 + i%7) % 2 // m is 4 + i%7
	})
	want, err := eval.Evaluate(satunsat.Eval, gold, preds, eval.Options{MBinWidth: 4})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		r.Shuffle(len(gold), func(i, j int) { gold[i], gold[j] = gold[j], gold[i] })
		r.Shuffle(len(preds), func(i, j int) { preds[i], preds[j] = preds[j], preds[i] })
		got, err := eval.Evaluate(satunsat.Eval, gold, preds, eval.Options{MBinWidth: 4})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatal("the report depends on the order of the input")
		}
	}
}

func TestMissingAndUnknown(t *testing.T) {
	gold := balanced(t, 2)
	preds := constant(gold, func(g eval.Gold) int { return g.Label })[:5]
	_, err := eval.Evaluate(satunsat.Eval, gold, preds, eval.Options{MBinWidth: 5})
	if me, ok := err.(*eval.MissingError); !ok || len(me.Missing) != 3 || !strings.Contains(err.Error(), "3 of 8 gold records have no prediction (the first is V-001, x)") {
		t.Errorf("missing predictions: %v", err)
	}
	rep, err := eval.Evaluate(satunsat.Eval, gold, preds, eval.Options{MBinWidth: 5, AllowMissing: true})
	if err != nil || rep.Missing != 3 || rep.Overall.Count != 5 || rep.Overall.Accuracy != 1 {
		t.Errorf("--allow-missing: %v, missing %d, scored %d", err, rep.Missing, rep.Overall.Count)
	}
	preds = append(preds, eval.Prediction{ID: "Q-1", Label: 1, Where: "p.jsonl:9"})
	if _, err := eval.Evaluate(satunsat.Eval, gold, preds, eval.Options{MBinWidth: 5, AllowMissing: true}); err == nil || err.Error() != "p.jsonl:9: prediction for id Q-1, which is not a gold record" {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := eval.Evaluate(satunsat.Eval, gold, nil, eval.Options{MBinWidth: 5, AllowMissing: true}); err == nil {
		t.Error("no prediction at all is not an error")
	}
	if _, err := eval.Evaluate(satunsat.Eval, gold, preds[:1], eval.Options{}); err == nil {
		t.Error("an m bin width of 0 is not an error")
	}
}
