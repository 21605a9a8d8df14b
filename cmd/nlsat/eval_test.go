package main

import (
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/figure"
)

const (
	smallGold  = "../../internal/eval/testdata/small"
	smallPreds = "../../internal/eval/testdata/small/preds.jsonl"
)

// balancedDataset writes DIR/data/{train,test}.jsonl from generate output:
// for each of S and V, k sat and k unsat records per split.
func balancedDataset(t *testing.T, k int) (dir string, lines []string) {
	t.Helper()
	dir = t.TempDir()
	splits := map[string][]string{}
	for _, frag := range []string{"S", "V"} {
		out := filepath.Join(dir, frag+".jsonl")
		code, _, errs := nlsat(context.Background(), "", "generate", "--fragment", frag, "--count", "60", "--seed", "9", "-q", "--out", out)
		if code != 0 {
			t.Fatalf("generate: exit %d: %s", code, errs)
		}
		b, _ := os.ReadFile(out)
		taken := map[int]int{}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var r struct{ Label int }
			json.Unmarshal([]byte(l), &r)
			if n := taken[r.Label]; n < 2*k {
				split := []string{"train", "test"}[n%2]
				splits[split] = append(splits[split], l)
				taken[r.Label]++
				lines = append(lines, l)
			}
		}
		if taken[0] != 2*k || taken[1] != 2*k {
			t.Fatalf("%s: generate gave %v labels; want %d of each", frag, taken, 2*k)
		}
		os.Remove(out)
	}
	for split, ls := range splits {
		path := filepath.Join(dir, "data", split+".jsonl")
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(strings.Join(ls, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, lines
}

type evalJSON struct {
	Gold    int `json:"gold"`
	Overall struct {
		Count    int     `json:"count"`
		Accuracy float64 `json:"accuracy"`
	} `json:"overall"`
	BySplit    []evalRow `json:"by_split"`
	ByFragment []evalRow `json:"by_fragment"`
	ByLabel    []evalRow `json:"by_label"`
	Pairs      any       `json:"pairs"`
}

type evalRow struct {
	Key      string  `json:"key"`
	Count    int     `json:"count"`
	Accuracy float64 `json:"accuracy"`
}

// TestEvalPerfectAndConstant: predictions equal to gold (the gold records
// themselves) score 100%; the constant free-text answer "Satisfiable."
// scores 50% on balanced data, overall, per split and per fragment.
func TestEvalPerfectAndConstant(t *testing.T) {
	dir, lines := balancedDataset(t, 6)
	var constant strings.Builder
	for _, l := range lines {
		var r struct{ ID string }
		json.Unmarshal([]byte(l), &r)
		fmt.Fprintf(&constant, "{\"id\":%q,\"response\":\"Satisfiable.\"}\n", r.ID)
	}
	tests := []struct {
		name, preds   string
		want, sat, un float64
	}{
		{"gold", strings.Join(lines, "\n"), 1, 1, 1},
		{"constant", constant.String(), 0.5, 1, 0},
	}
	for _, tt := range tests {
		code, out, errs := nlsat(context.Background(), tt.preds, "eval", "--gold", dir, "--pred", "-", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.name, code, errs)
		}
		var rep evalJSON
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Gold != 48 || rep.Overall.Count != 48 || rep.Overall.Accuracy != tt.want {
			t.Errorf("%s: %d gold, %d scored, accuracy %v; want 48, 48, %v", tt.name, rep.Gold, rep.Overall.Count, rep.Overall.Accuracy, tt.want)
		}
		for _, rows := range [][]evalRow{rep.BySplit, rep.ByFragment} {
			if len(rows) != 2 || rows[0].Accuracy != tt.want || rows[1].Accuracy != tt.want {
				t.Errorf("%s: rows %+v, want 2 at %v", tt.name, rows, tt.want)
			}
		}
		if rep.BySplit[0].Key != "train" || rep.ByFragment[0].Key != "S" {
			t.Errorf("%s: order %+v %+v", tt.name, rep.BySplit, rep.ByFragment)
		}
		if l := rep.ByLabel; len(l) != 2 || l[0].Key != "sat" || l[0].Accuracy != tt.sat || l[1].Accuracy != tt.un {
			t.Errorf("%s: by label %+v", tt.name, l)
		}
		if rep.Pairs != nil {
			t.Errorf("%s: a pair section without pairs", tt.name)
		}
	}
}

// TestEvalSmallExample: the command prints the package's golden report of
// the hand-computed example, as text and as JSON.
func TestEvalSmallExample(t *testing.T) {
	code, out, errs := nlsat(context.Background(), "", "eval", "--gold", smallGold, "--pred", smallPreds)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, err := os.ReadFile("../../internal/eval/testdata/small.txt")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("eval differs from internal/eval/testdata/small.txt:\n%s", out)
	}
	code, out, _ = nlsat(context.Background(), "", "eval", "--gold", smallGold, "--pred", smallPreds, "--json")
	wantJSON, _ := os.ReadFile("../../internal/eval/testdata/small.json")
	var got, exp any
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || json.Unmarshal(wantJSON, &exp) != nil || !reflect.DeepEqual(got, exp) {
		t.Errorf("--json: exit %d, output differs from internal/eval/testdata/small.json:\n%s", code, out)
	}
	if strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, `{"confidence":0.95,"m_bin_width":5,"gold":10,`) {
		t.Errorf("--json is not one object in field order: %.80s", out)
	}
}

func TestEvalAllowMissing(t *testing.T) {
	preds, _ := os.ReadFile(smallPreds)
	some := strings.Join(strings.Split(string(preds), "\n")[:4], "\n") // g4, g3, g2, g1
	code, out, errs := nlsat(context.Background(), some, "eval", "--gold", smallGold, "--pred", "-", "--allow-missing")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, "10 gold records, 4 predictions, 4 scored, 6 missing, 0 unparseable\n") {
		t.Errorf("got:\n%s", out)
	}
}

func TestEvalPlot(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "fig3.png")
	code, stdout, errs := nlsat(context.Background(), "", "eval", "--gold", smallGold, "--pred", smallPreds, "--plot", out)
	if code != 0 || !strings.Contains(stdout, "By fragment and n") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// The sweep figures' print size: 5.2 by 3.2 inches at 300 dpi.
	const w, h = 1560, 960
	if size := img.Bounds().Size(); size.X != w || size.Y != h {
		t.Errorf("size %v, want %dx%d", size, w, h)
	}
	if x, _, ok := figure.Resolution([]byte(readFile(t, out))); !ok || math.Round(x) != 300 {
		t.Errorf("the PNG records %v dpi (%v), want 300", x, ok)
	}
	white := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r == 0xffff && g == 0xffff && b == 0xffff {
				white++
			}
		}
	}
	if white == w*h || white < w*h/2 {
		t.Errorf("%d of %d pixels white: blank or not a plot", white, w*h)
	}
	svg := filepath.Join(dir, "fig3.svg")
	if code, _, errs := nlsat(context.Background(), "", "eval", "--gold", smallGold, "--pred", smallPreds, "--plot", svg, "--json"); code != 0 {
		t.Fatalf("svg: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(svg); !strings.Contains(string(b), "<svg") {
		t.Error("the svg has no <svg")
	}
}

func TestEvalBadInput(t *testing.T) {
	dir := t.TempDir()
	preds, _ := os.ReadFile(smallPreds)
	lines := strings.SplitAfter(string(preds), "\n")
	gold, _ := os.ReadFile(filepath.Join(smallGold, "data", "test.jsonl"))
	badGold := filepath.Join(t.TempDir(), "gold.jsonl")
	os.WriteFile(badGold, append(gold, []byte("{\"id\":\n")...), 0o644)
	all := []string{"--gold", smallGold, "--pred", "-"}
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"missing gold", "", []string{"--gold", filepath.Join(dir, "none"), "--pred", smallPreds}, "cannot read gold records"},
		{"missing predictions", "", []string{"--gold", smallGold, "--pred", filepath.Join(dir, "none.jsonl")}, "cannot read predictions"},
		{"malformed gold line", "", []string{"--gold", badGold, "--pred", smallPreds}, "gold.jsonl:7: not a record"},
		{"malformed prediction", lines[0] + "{oops\n", all, "stdin:2: not a prediction"},
		{"duplicate id", lines[0] + lines[1] + lines[0], all, "stdin:3: duplicate prediction for id g4 (first at stdin:1)"},
		{"unknown id", string(preds) + `{"id":"zz","label":1}` + "\n", all, "stdin:11: prediction for id zz, which is not a gold record"},
		{"missing ids", lines[0], all, "9 of 10 gold records have no prediction (the first is t1, "},
		{"no answer", `{"id":"t1","text":"x"}` + "\n", all, "stdin:1: prediction t1 has none of label"},
		{"no --gold", "", []string{"--pred", smallPreds}, `required flag(s) "gold" not set`},
		{"bad --answers", "", append(all, "--answers", "yesno"), `"yesno" is not one of any, satunsat, truefalse`},
		{"bad --plot", "", []string{"--gold", smallGold, "--pred", smallPreds, "--plot", filepath.Join(dir, "f.gif")}, "must end in .png or .svg"},
		{"unwritable --plot", "", []string{"--gold", smallGold, "--pred", smallPreds, "--plot", filepath.Join(dir, "no", "f.png")}, "cannot write"},
		{"bad --m-bin", "", append(all, "--m-bin", "0"), "--m-bin must be positive"},
		{"an argument", "", append(all, "extra"), "unknown command"},
		{"--filter on predictions", "", []string{"--gold", smallGold, "--pred", smallPreds, "--filter", "none"}, "preds.jsonl:1: not an lm-eval sample (no doc_id and doc), but a filter was named"},
		{"--per-record to stdout", "", []string{"--gold", smallGold, "--pred", smallPreds, "--per-record", "-"}, "--per-record must name a file"},
		{"unwritable --per-record", "", []string{"--gold", smallGold, "--pred", smallPreds, "--per-record", filepath.Join(dir, "no", "r.jsonl")}, "cannot write"},
	}
	for _, tt := range tests {
		code, stdout, stderr := nlsat(context.Background(), tt.stdin, append([]string{"eval"}, tt.args...)...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d (stderr %q)", tt.name, code, exitUsage, stderr)
		}
		if n := strings.Count(strings.TrimSpace(stderr), "\n"); n != 0 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: stderr %q, want one line containing %q", tt.name, stderr, tt.want)
		}
		if stdout != "" {
			t.Errorf("%s: wrote to stdout: %q", tt.name, stdout)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%s: left %v behind", tt.name, entries)
		}
	}
}

// TestEvalRefusesAnotherDataset: predictions made for a dataset built
// with another seed or other flags are refused (exit 2), by their ids or,
// where the ids agree (as they did before ids carried digests), by the
// instance texts.
func TestEvalRefusesAnotherDataset(t *testing.T) {
	dir := t.TempDir()
	gen := func(name string, flags ...string) string {
		out := filepath.Join(dir, name)
		args := append([]string{"generate", "--fragment", "S", "--count", "20", "-q", "--out", out}, flags...)
		if code, _, errs := nlsat(context.Background(), "", args...); code != 0 {
			t.Fatalf("generate %v: exit %d: %s", flags, code, errs)
		}
		b, _ := os.ReadFile(out)
		return string(b)
	}
	gold8 := gen("gold8.jsonl", "--seed", "8")
	seed7 := gen("seed7.jsonl", "--seed", "7")
	m := gen("m.jsonl", "--seed", "8", "--m", "10-12")
	if code, _, errs := nlsat(context.Background(), gold8, "eval", "--gold", filepath.Join(dir, "gold8.jsonl"), "--pred", "-"); code != 0 {
		t.Fatalf("its own gold: exit %d: %s", code, errs)
	}
	digest := func(s string) string { return s[len(`{"id":"S-`):][:6] }
	tests := []struct{ name, preds, want string }{
		{"another seed", seed7, "stdin:1: prediction for id S-" + digest(seed7) + "-000000 was made for dataset " + digest(seed7) + ", but the gold records are dataset " + digest(gold8)},
		{"other flags", m, "was made for dataset " + digest(m)},
		{"another seed, gold's ids", strings.ReplaceAll(seed7, digest(seed7), digest(gold8)), "stdin:1: prediction for S-" + digest(gold8) + "-000000 carries another instance text than the gold record"},
	}
	for _, tt := range tests {
		code, out, errs := nlsat(context.Background(), tt.preds, "eval", "--gold", filepath.Join(dir, "gold8.jsonl"), "--pred", "-")
		if code != exitUsage || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line containing %q", tt.name, code, out, errs, tt.want)
		}
	}
}

// TestEvalLMEvalSamples scores lm_eval --log_samples files as the harness
// writes them (internal/eval/testdata/lmeval) and writes the per-record
// file.
func TestEvalLMEvalSamples(t *testing.T) {
	const dir = "../../internal/eval/testdata/lmeval/"
	gen := dir + "samples_nlsat_s8_satunsat_gen_2025-06-01T12-00-00.000000.jsonl"
	per := filepath.Join(t.TempDir(), "per-record.jsonl")
	code, out, errs := nlsat(context.Background(), "", "eval", "--gold", dir+"gold.jsonl", "--pred", gen, "--per-record", per)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"6 gold records, 6 predictions, 6 scored, 0 missing, 1 unparseable\n" +
			"checked: every prediction's id names gold's dataset 75f775; 6 instance texts equal gold's\n",
		"  all      6        4     0.667",
		"Unparseable answers (all 1; --per-record writes every answer)\nS-75f775-000004  \" I cannot tell.\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report has no %q:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(per); strings.Count(string(b), "\n") != 6 || !strings.Contains(string(b), `"answer":" The sentences are not satisfiable.","reading":"not satisfiable"`) {
		t.Errorf("per-record file:\n%s", b)
	}
	// The harness's own reading: flexible-extract takes "satisfiable" out
	// of "not satisfiable", so two more answers are wrong.
	code, out, errs = nlsat(context.Background(), "", "eval", "--gold", dir+"gold.jsonl", "--pred", gen, "--filter", "flexible-extract", "--json")
	var rep evalJSON
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Overall.Accuracy != 2.0/6 {
		t.Errorf("--filter flexible-extract: exit %d, %s, accuracy %v; want 2/6", code, errs, rep.Overall.Accuracy)
	}
}
