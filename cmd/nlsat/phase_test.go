package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/figure/figuretest"
	"github.com/nlsat/nlsat/internal/phase"
)

// sweepArgs is the small grid of the golden sweeps.
var sweepArgs = []string{"phase-sweep", "--fragment", "S", "--n1", "6-7", "--m", "4-20", "--m-step", "4",
	"--samples", "40", "--seed", "1", "-q"}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPhaseSweepGolden(t *testing.T) {
	tests := []struct {
		golden string
		extra  []string
	}{
		{"phase-sweep-points.csv", nil},
		{"phase-sweep-adaptive-points.csv", []string{"--adaptive", "--budget", "320"}},
	}
	for _, tt := range tests {
		for _, j := range []string{"1", "2"} {
			dir := t.TempDir()
			args := append(append(append([]string{}, sweepArgs...), tt.extra...), "-j", j, "--out", dir)
			if code, _, errs := nlsat(context.Background(), "", args...); code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errs)
			}
			checkGolden(t, tt.golden, readFile(t, filepath.Join(dir, "points.csv")))
			for _, name := range []string{"points.jsonl", "timing.csv", "crossings.csv", "region.json",
				"psat-alpha-S.png", "psat-alpha-S.svg", "psat-alpha-S.csv", "time-alpha-S.png"} {
				if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
					t.Errorf("-j %s: %s missing or empty (%v)", j, name, err)
				}
			}
		}
	}
}

// TestRegionDrivesGenerate checks that every instance generate draws from
// a region file comes from one of its points.
func TestRegionDrivesGenerate(t *testing.T) {
	dir := t.TempDir()
	args := []string{"phase-sweep", "--fragment", "W", "--n1", "8-10", "--alpha", "1-2.4:0.2", "--samples", "60", "-q", "--out", dir}
	if code, _, errs := nlsat(context.Background(), "", args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	regionFile := filepath.Join(dir, "region.json")
	f, err := os.Open(regionFile)
	if err != nil {
		t.Fatal(err)
	}
	region, err := phase.ReadRegion(f)
	f.Close()
	if err != nil || len(region.Points) < 2 {
		t.Fatalf("region %+v, %v: want at least two points", region, err)
	}
	in := map[phase.Point]bool{}
	for _, p := range region.Points {
		in[p.Point] = true
	}
	out := filepath.Join(dir, "gen.jsonl")
	if code, _, errs := nlsat(context.Background(), "", "generate", "--region", regionFile, "--count", "60", "-q", "--out", out); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	seen := map[phase.Point]bool{}
	sc := bufio.NewScanner(strings.NewReader(readFile(t, out)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			Fragment  string   `json:"fragment"`
			N1        int      `json:"n1"`
			N2        int      `json:"n2"`
			Sentences []string `json:"sentences"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		p := phase.Point{M: len(r.Sentences), N1: r.N1, N2: r.N2}
		if r.Fragment != "W" || !in[p] {
			t.Errorf("instance of fragment %s at %+v is not in the region", r.Fragment, p)
		}
		seen[p] = true
	}
	if len(seen) < 2 {
		t.Errorf("60 instances came from %d region points, want several", len(seen))
	}
}

// figureFiles returns the figures (PNG, SVG and their CSVs) among a
// sweep's files, with their contents.
func figureFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, data := range tree(t, dir) {
		switch {
		case strings.HasSuffix(name, ".png"), strings.HasSuffix(name, ".svg"):
			out[name] = data
		case strings.HasSuffix(name, ".csv") && (strings.Contains(name, "fig") || strings.Contains(name, "-alpha-") || strings.Contains(name, "heatmap")):
			out[name] = data
		}
	}
	return out
}

// checkSweepFigures checks the figures of dir, a sweep of smallSweep:
// its five-panel figure (the paper's Figure 2) against golden images, the
// other multi-panel figures are there, and nlsat plot redraws every
// figure from the sweep's files byte for byte, from the directory and
// from one fragment's points.csv.
func checkSweepFigures(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{"fig2-psat-m.png", "fig2-psat-m.svg"} {
		figuretest.Check(t, filepath.Join("testdata", "figures", name), []byte(readFile(t, filepath.Join(dir, name))))
	}
	want := figureFiles(t, dir)
	for _, name := range []string{"S/psat-alpha-S.png", "V/heatmap-V.svg", "fig4-psat-alpha-beta.png", "fig5-psat-clause-variable-ratio.svg",
		"fig6-psat-alpha-subject-quantifiers.png", "fig7-psat-m-subject-quantifiers.png", "fig8-psat-quantifier-shares.svg"} {
		if _, ok := want[name]; !ok {
			t.Errorf("the sweep wrote no %s", name)
		}
	}
	figs := filepath.Join(t.TempDir(), "figs")
	code, _, errs := nlsat(context.Background(), "", "plot", dir, "--out", figs)
	if code != 0 || !strings.Contains(errs, "wrote 19 figures") {
		t.Fatalf("plot: exit %d: %s", code, errs)
	}
	sameFiles(t, want, figureFiles(t, figs))
	one := filepath.Join(t.TempDir(), "one")
	if code, _, errs := nlsat(context.Background(), "", "plot", filepath.Join(dir, "S", "points.csv"), "--out", one); code != 0 {
		t.Fatalf("plot S: exit %d: %s", code, errs)
	}
	if got := readFile(t, filepath.Join(one, "psat-alpha-S.svg")); got != want["S/psat-alpha-S.svg"] {
		t.Error("psat-alpha-S.svg redrawn from S/points.csv differs from the sweep's")
	}
}

// TestPlotOldSweep redraws a sweep written before quantifiers.csv: every
// figure but Figures 6 to 8, and a note of what is left out.
func TestPlotOldSweep(t *testing.T) {
	dir, figs := t.TempDir(), t.TempDir()
	args := append(append([]string{}, sweepArgs...), "--out", dir)
	if code, _, errs := nlsat(context.Background(), "", args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if err := os.Remove(filepath.Join(dir, "quantifiers.csv")); err != nil {
		t.Fatal(err)
	}
	code, _, errs := nlsat(context.Background(), "", "plot", dir, "--out", figs)
	if code != 0 || !strings.Contains(errs, "quantifiers.csv; figures that need it are left out") {
		t.Fatalf("plot: exit %d: %s", code, errs)
	}
	got := figureFiles(t, figs)
	for _, name := range []string{"psat-alpha-S.png", "time-alpha-S.svg", "fig2-psat-m.png", "fig5-psat-clause-variable-ratio.png"} {
		if _, ok := got[name]; !ok {
			t.Errorf("no %s", name)
		}
	}
	if _, ok := got["fig6-psat-alpha-subject-quantifiers.png"]; ok {
		t.Error("Figure 6 drawn without quantifier counts")
	}
}

func TestPhaseUsageErrors(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "region.json")
	os.WriteFile(other, []byte(`{"fragment":"A","band":{"lo":0.35,"hi":0.65},"confidence":0.95,"seed":1,"samples":1,"budget":1,
"sampler":{"own_share":0.5,"neg_prob":0.5,"distinct":true},"version":"x","solver":"native","points":[{"m":10,"n1":3,"n2":3,"n":1,"p_sat":0.5,"ci":{"lo":0,"hi":1},"verdict":"straddles"}]}`), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"phase-sweep", "--fragment", "S"}, `required flag(s) "out" not set`},
		{[]string{"phase-sweep", "--out", dir, "--m", "4-8", "--alpha", "1-2:0.5"}, "alternatives"},
		{[]string{"phase-sweep", "--out", dir, "--fragment", "S", "--beta", "1-2:0.5"}, "no verbs"},
		{[]string{"phase-sweep", "--out", dir, "--alpha", "x"}, "not a ratio"},
		{[]string{"phase-sweep", "--out", dir, "--adaptive", "--samples", "100", "--budget", "50"}, "--budget"},
		{[]string{"phase-sweep", "--out", dir, "--fragment", "Q"}, "not one of"},
		{[]string{"phase-sweep", "--out", dir, "--neg-prob", "2"}, "must lie in [0, 1]"},
		{[]string{"plot", filepath.Join(dir, "nothing.csv"), "--out", dir}, "no such file"},
		{[]string{"generate", "--region", other, "--fragment", "S"}, "region of fragment A"},
		{[]string{"generate", "--region", other, "--m", "5"}, "alternatives"},
		{[]string{"generate", "--region", other, "--neg-prob", "0.2"}, "sampler parameters"},
	}
	for _, tt := range tests {
		code, _, errs := nlsat(context.Background(), "", tt.args...)
		if code != exitUsage || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 mentioning %q", tt.args, code, errs, tt.want)
		}
	}
}
