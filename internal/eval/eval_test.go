package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/golden"
)

// checkGolden compares got with testdata/name (golden.Check).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// smallReport scores testdata/small (see testdata/README.md).
func smallReport(t *testing.T) Report {
	t.Helper()
	gold, err := ReadGold("testdata/small")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/small/preds.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	preds, err := ReadPredictions(f, "preds.jsonl", PredOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(gold, preds, Options{MBinWidth: 5})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

type count struct{ n, correct, unparseable int }

func counts(rows []Row) map[string]count {
	m := map[string]count{}
	for _, r := range rows {
		m[r.Key] = count{r.Count, r.Correct, r.Unparseable}
	}
	return m
}

func keys(rows []Row) []string {
	var ks []string
	for _, r := range rows {
		ks = append(ks, r.Key)
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
		rows  []Row
		order []string
		want  map[string]count
	}{
		{"split", rep.BySplit, []string{"test", "generalisation"},
			map[string]count{"test": {6, 4, 1}, "generalisation": {4, 2, 0}}},
		{"fragment", rep.ByFragment, []string{"S", "V"},
			map[string]count{"S": {5, 3, 0}, "V": {5, 3, 1}}},
		{"n", rep.ByN, []string{"6", "8", "10"},
			map[string]count{"6": {5, 3, 1}, "8": {1, 1, 0}, "10": {4, 2, 0}}},
		{"m bin", rep.ByMBin, []string{"1-5", "6-10", "11-15"},
			map[string]count{"1-5": {1, 1, 0}, "6-10": {4, 2, 1}, "11-15": {5, 3, 0}}},
		{"label", rep.ByLabel, []string{"sat", "unsat"},
			map[string]count{"sat": {5, 3, 0}, "unsat": {5, 3, 1}}},
		{"MUS size", rep.ByMUSSize, []string{"2", "3", "unknown"},
			map[string]count{"2": {2, 1, 1}, "3": {2, 2, 0}, "unknown": {1, 0, 0}}},
		{"model size", rep.ByModelSize, []string{"3", "4", "5", "6", "7"},
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
	for _, r := range rep.ByFragmentN {
		gotFN = append(gotFN, fmt.Sprintf("%s %d %d/%d", r.Fragment, r.N, r.Correct, r.Count))
	}
	if !reflect.DeepEqual(gotFN, wantFN) {
		t.Errorf("by fragment and n: %v, want %v", gotFN, wantFN)
	}
	wantSF := []string{"test S 2/3", "test V 2/3", "generalisation S 1/2", "generalisation V 1/2"}
	var gotSF []string
	for _, r := range rep.BySplitFragment {
		gotSF = append(gotSF, fmt.Sprintf("%s %s %d/%d", r.Split, r.Fragment, r.Correct, r.Count))
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
	if err := WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "small.txt", text.Bytes())
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "small.json", append(js, '\n'))
}

// balanced returns 2k gold records per fragment S and V, half sat and
// half unsat, over three values of n and both certificates.
func balanced(k int) []Gold {
	var gold []Gold
	for _, frag := range []string{"S", "V"} {
		for i := range 2 * k {
			g := Gold{ID: fmt.Sprintf("%s-%03d", frag, i), Fragment: frag, N1: 3 + i%3, M: 4 + i%7, Label: i % 2, Where: "x"}
			if g.Label == 1 {
				g.ModelSize = 1 + i%4
			} else {
				g.MUSSize = 2 + i%3
			}
			gold = append(gold, g)
		}
	}
	return gold
}

func constant(gold []Gold, f func(g Gold) int) []Prediction {
	var preds []Prediction
	for _, g := range gold {
		preds = append(preds, Prediction{ID: g.ID, Label: f(g), Where: "p"})
	}
	return preds
}

// TestPerfectAndConstant: predictions equal to gold score 1 in every
// group; a constant answer scores 1/2 on balanced data, all of it on the
// label it names; answers that never parse score 0.
func TestPerfectAndConstant(t *testing.T) {
	gold := balanced(12)
	tests := []struct {
		name              string
		predict           func(Gold) int
		overall, sat, uns float64
		parseable         float64
	}{
		{"gold", func(g Gold) int { return g.Label }, 1, 1, 1, 1},
		{"always sat", func(Gold) int { return 1 }, 0.5, 1, 0, 0.5},
		{"always unsat", func(Gold) int { return 0 }, 0.5, 0, 1, 0.5},
		{"never parses", func(Gold) int { return Unparseable }, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		rep, err := Evaluate(gold, constant(gold, tt.predict), Options{MBinWidth: 3})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Overall.Accuracy != tt.overall || rep.Overall.Count != len(gold) || rep.Overall.AccuracyParseable != tt.parseable {
			t.Errorf("%s: overall %+v, want accuracy %v", tt.name, rep.Overall, tt.overall)
		}
		if l := rep.ByLabel; len(l) != 2 || l[0].Accuracy != tt.sat || l[1].Accuracy != tt.uns {
			t.Errorf("%s: by label %+v, want sat %v, unsat %v", tt.name, l, tt.sat, tt.uns)
		}
		for _, r := range rep.ByFragment {
			if r.Accuracy != tt.overall {
				t.Errorf("%s: fragment %s accuracy %v, want %v", tt.name, r.Key, r.Accuracy, tt.overall)
			}
		}
		if tt.overall == 1 {
			for _, rows := range [][]Row{rep.ByN, rep.ByMBin, rep.ByMUSSize, rep.ByModelSize} {
				for _, r := range rows {
					if r.Accuracy != 1 || r.CIHigh != 1 {
						t.Errorf("%s: group %s scores %v", tt.name, r.Key, r.Accuracy)
					}
				}
			}
		}
		if rep.Pairs != nil || len(rep.BySplit) != 0 {
			t.Errorf("%s: pair or split sections without pairs or splits", tt.name)
		}
	}
}

// TestOrderDoesNotMatter shuffles both inputs; the report must not move.
func TestOrderDoesNotMatter(t *testing.T) {
	gold := balanced(10)
	preds := constant(gold, func(g Gold) int { return (len(g.ID) + g.M) % 2 })
	want, err := Evaluate(gold, preds, Options{MBinWidth: 4})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		r.Shuffle(len(gold), func(i, j int) { gold[i], gold[j] = gold[j], gold[i] })
		r.Shuffle(len(preds), func(i, j int) { preds[i], preds[j] = preds[j], preds[i] })
		got, err := Evaluate(gold, preds, Options{MBinWidth: 4})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatal("the report depends on the order of the input")
		}
	}
}

func TestMissingAndUnknown(t *testing.T) {
	gold := balanced(2)
	preds := constant(gold, func(g Gold) int { return g.Label })[:5]
	_, err := Evaluate(gold, preds, Options{MBinWidth: 5})
	if me, ok := err.(*MissingError); !ok || len(me.Missing) != 3 || !strings.Contains(err.Error(), "3 of 8 gold records have no prediction (the first is V-001, x)") {
		t.Errorf("missing predictions: %v", err)
	}
	rep, err := Evaluate(gold, preds, Options{MBinWidth: 5, AllowMissing: true})
	if err != nil || rep.Missing != 3 || rep.Overall.Count != 5 || rep.Overall.Accuracy != 1 {
		t.Errorf("--allow-missing: %v, missing %d, scored %d", err, rep.Missing, rep.Overall.Count)
	}
	preds = append(preds, Prediction{ID: "Q-1", Label: 1, Where: "p.jsonl:9"})
	if _, err := Evaluate(gold, preds, Options{MBinWidth: 5, AllowMissing: true}); err == nil || err.Error() != "p.jsonl:9: prediction for id Q-1, which is not a gold record" {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := Evaluate(gold, nil, Options{MBinWidth: 5, AllowMissing: true}); err == nil {
		t.Error("no prediction at all is not an error")
	}
	if _, err := Evaluate(gold, preds[:1], Options{}); err == nil {
		t.Error("an m bin width of 0 is not an error")
	}
}
