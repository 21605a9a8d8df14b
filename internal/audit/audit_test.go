package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/golden"
)

// The leaks a test dataset can be given; each edits a sat record.
var (
	extraSentence = func(rng *rand.Rand, r *dataset.Record) {
		r.Sentences = append(r.Sentences, toySentence(rng, r.Nouns))
	}
	satOnlyNoun = func(rng *rand.Rand, r *dataset.Record) {
		i := rng.IntN(len(r.Sentences))
		s := r.Sentences[i]
		r.Sentences[i] = s[:strings.LastIndex(s, " ")] + " zebra."
	}
)

func TestVerdicts(t *testing.T) {
	tests := []struct {
		name      string
		leak      func(*rand.Rand, *dataset.Record)
		shortcut  bool
		wantLeaks []string // each must be among the verdict's leaks
		wantText  string
	}{
		{"balanced, labels unrelated to text", nil, false, nil, "no surface shortcut above 55%"},
		{"sat has one more sentence", extraSentence, true, []string{"feature:m"}, "feature m alone 100.0%"},
		{"a noun only in sat", satOnlyNoun, true, []string{BoWLogreg}, `"zebra"`},
	}
	for _, tt := range tests {
		dir := writeDataset(t, t.TempDir(), toySplits(1, [3]int{1000, 250, 250}, tt.leak))
		rep, err := Run(context.Background(), dir, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		// Shortcuts lists the splits whose verdict found one, no more.
		if got := rep.Shortcuts(); tt.shortcut != (len(got) > 0) || tt.shortcut && !strings.HasPrefix(got[0], "validation: ") {
			t.Errorf("%s: Shortcuts() = %q", tt.name, got)
		}
		for _, res := range rep.Results {
			v := res.Verdict
			if v.Shortcut != tt.shortcut || !strings.Contains(v.Text, tt.wantText) {
				t.Errorf("%s, %s: verdict %q (shortcut %v), want shortcut %v and %q", tt.name, res.Split, v.Text, v.Shortcut, tt.shortcut, tt.wantText)
			}
			for _, l := range tt.wantLeaks {
				if !slices.Contains(v.Leaks, l) {
					t.Errorf("%s, %s: leaks %v, want %s among them", tt.name, res.Split, v.Leaks, l)
				}
			}
			if tt.shortcut {
				continue
			}
			// Without a leak every baseline scores chance: within 3.3
			// standard errors of 50%, the width that keeps the chance of
			// a false alarm among all the baselines of both splits under
			// 1% (Bonferroni). A 95% interval per baseline would miss 50%
			// on about one seed in three by chance alone.
			for _, b := range res.Baselines {
				if se := 0.5 / math.Sqrt(float64(b.Total)); math.Abs(b.Accuracy-0.5) > 3.3*se {
					t.Errorf("%s, %s: %s scores %v on %d records, more than 3.3 standard errors from 50%%", tt.name, res.Split, b.Name, b.Accuracy, b.Total)
				}
			}
		}
	}
}

// TestTextGolden checks the text report of the zebra dataset, small
// enough that strata are reported with MinStratum 50.
func TestTextGolden(t *testing.T) {
	dir := writeDataset(t, filepath.Join(t.TempDir(), "toy"), toySplits(3, [3]int{300, 100, 100}, satOnlyNoun))
	rep, err := Run(context.Background(), dir, Options{MinStratum: 50})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(b.String(), filepath.Dir(dir), "TMP")
	got += "\nSummary:\n" + strings.ReplaceAll(rep.Summary(), filepath.Dir(dir), "TMP")
	golden.Check(t, filepath.Join("testdata", "toy-zebra.txt"), []byte(got))
}

// TestDeterministic runs the same audit with one core and with all of
// them: the JSON must be the same bytes.
func TestDeterministic(t *testing.T) {
	dir := writeDataset(t, t.TempDir(), toySplits(5, [3]int{400, 100, 100}, extraSentence))
	var outs []string
	for _, procs := range []int{1, max(2, runtime.NumCPU()), 1} {
		prev := runtime.GOMAXPROCS(procs)
		rep, err := Run(context.Background(), dir, Options{})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(b))
	}
	if outs[0] != outs[1] || outs[1] != outs[2] {
		t.Error("the report differs between runs or numbers of cores")
	}
	// Every key is present even where a list is empty.
	for _, key := range []string{`"strata":[]`, `"leaks":[`, `"toward_unsat":[`, `"small_strata":`} {
		if !strings.Contains(outs[0], key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"Some non-artist is not a beekeeper.", "some|non-|artist|is|not|a|beekeeper|."},
		{"Every  artist who admires him is a\tpoet. No poet", "every|artist|who|admires|him|is|a|poet|.|no|poet"},
		{"Nobody knows non-", "nobody|knows|non-"},
		{"NON-X nonsense non - y", "non-|x|nonsense|non|y"},
		{"", ""},
	}
	for _, tt := range tests {
		var got []string
		tokens(tt.in, func(b []byte) { got = append(got, string(b)) })
		if s := strings.Join(got, "|"); s != tt.want {
			t.Errorf("tokens(%q) = %q, want %q", tt.in, s, tt.want)
		}
	}
}

// TestSurface counts the features of the paper's Figure 1 by hand.
func TestSurface(t *testing.T) {
	r := &dataset.Record{
		Sentences: []string{"Every scholar is a poet.", "Every poet loves some musician.", "Some scholar does not love any non-musician who loves him."},
		N1:        3, N2: 1,
	}
	r.Normalize()
	x := surface(r, recordText(r))
	want := map[int]float64{fM: 3, fN1: 3, fN2: 1, fAlpha: 1, fBeta: 3, fEvery: 2, fSome: 2, fNo: 0, fNot: 1, fNon: 1, fWho: 1, fHim: 1, fExistential: 1.0 / 3}
	for f, v := range want {
		if x[f] != v {
			t.Errorf("%s: got %v, want %v", features[f].name, x[f], v)
		}
	}
}

// TestMutualInfo checks values worked out by hand on 8 records. A copy of
// a balanced label carries 1 bit; a feature independent of it in the
// sample carries 0. Miller–Madow adds (cells−1)/(2N) nats to each of the
// three entropies, so MI moves by (Kx + Ky − Kxy − 1)/(2·8·ln 2) bits:
// +1/(16 ln 2) for the copy (2 + 2 − 2 − 1), −1/(16 ln 2) for the
// independent feature (2 + 2 − 4 − 1), 0 for a constant (1 + 2 − 2 − 1).
func TestMutualInfo(t *testing.T) {
	labels := []int8{0, 0, 0, 0, 1, 1, 1, 1}
	tests := []struct {
		name       string
		bins       []int
		mi, mm     float64
		cells, nbs int
	}{
		{"copy of the label", []int{0, 0, 0, 0, 1, 1, 1, 1}, 1, 1 + 1/(16*math.Ln2), 2, 2},
		{"independent", []int{0, 0, 1, 1, 0, 0, 1, 1}, 0, -1 / (16 * math.Ln2), 4, 2},
		{"constant", []int{3, 3, 3, 3, 3, 3, 3, 3}, 0, 0, 2, 1},
	}
	for _, tt := range tests {
		mi, cells, nb := plugin(tt.bins, labels)
		mm := mi - float64(cells-nb-2+1)/(2*8*math.Ln2)
		if math.Abs(mi-tt.mi) > 1e-12 || math.Abs(mm-tt.mm) > 1e-12 || cells != tt.cells || nb != tt.nbs {
			t.Errorf("%s: MI %v (MM %v), %d cells, %d bins; want %v (%v), %d, %d", tt.name, mi, mm, cells, nb, tt.mi, tt.mm, tt.cells, tt.nbs)
		}
	}
}

// TestFitLogit compares with the closed form of an unpenalised logistic
// model on one binary feature: the intercept is the log-odds of the group
// x = 0 and the weight the log odds ratio of the two groups.
func TestFitLogit(t *testing.T) {
	tests := []struct {
		name         string
		sat0, unsat0 int // records with x = 0
		sat1, unsat1 int // records with x = 1
	}{
		{"balanced", 50, 50, 50, 50},
		{"skewed", 30, 70, 80, 20},
		{"rare", 5, 95, 60, 40},
	}
	for _, tt := range tests {
		d := newDesign(1)
		var y []int8
		for _, g := range []struct {
			x         float32
			sat, unst int
		}{{0, tt.sat0, tt.unsat0}, {1, tt.sat1, tt.unsat1}} {
			for i := range g.sat + g.unst {
				d.add([]int32{0}, []float32{g.x})
				y = append(y, int8(min(1, max(0, g.sat-i))))
			}
		}
		m := fitLogit(d, y, fitSettings{lambda: 1e-12, iterations: 500})
		logOdds := func(s, u int) float64 { return math.Log(float64(s) / float64(u)) }
		b, w := logOdds(tt.sat0, tt.unsat0), logOdds(tt.sat1, tt.unsat1)-logOdds(tt.sat0, tt.unsat0)
		if math.Abs(m.b-b) > 1e-4 || math.Abs(m.w[0]-w) > 1e-4 {
			t.Errorf("%s: b = %.6f, w = %.6f; want %.6f, %.6f", tt.name, m.b, m.w[0], b, w)
		}
	}
}

func TestBadInput(t *testing.T) {
	good := toySplits(1, [3]int{20, 5, 5}, nil)
	line := func(r *dataset.Record) string {
		b, _ := json.Marshal(r)
		return string(b) + "\n"
	}
	tests := []struct {
		name  string
		setup func(dir string) // edits a good dataset
		want  string
	}{
		{"no directory", func(dir string) { os.RemoveAll(dir) }, "no such file or directory"},
		{"not a directory", func(dir string) { os.RemoveAll(dir); writeFile(t, dir, "x") }, "is not a directory"},
		{"no test split", func(dir string) { os.Remove(filepath.Join(dir, "data", "test.jsonl")) }, "test.jsonl"},
		{"not JSON", func(dir string) {
			writeFile(t, filepath.Join(dir, "data", "validation.jsonl"), line(good[1][0])+"{oops\n")
		}, "validation.jsonl:2: not a record"},
		{"invalid record", func(dir string) {
			r := *good[2][1]
			r.M = 99
			writeFile(t, filepath.Join(dir, "data", "test.jsonl"), "\n"+line(good[2][0])+line(&r))
		}, "test.jsonl:3: record test-00001: m is 99"},
		{"unlabelled record", func(dir string) {
			r := *good[0][0]
			r.Label, r.LabelText = -1, ""
			writeFile(t, filepath.Join(dir, "data", "train.jsonl"), line(&r))
		}, "train.jsonl:1: record train-00000 has no label"},
		{"empty split", func(dir string) { writeFile(t, filepath.Join(dir, "data", "train.jsonl"), "\n") }, "train.jsonl: no records"},
	}
	for _, tt := range tests {
		dir := writeDataset(t, filepath.Join(t.TempDir(), "ds"), good)
		tt.setup(dir)
		_, err := Run(context.Background(), dir, Options{})
		var ie *dataset.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want an InputError containing %q", tt.name, err, tt.want)
		}
	}
}

// TestOptionalSplits scores generalisation and zero-shot when present, in
// the order of Splits.
func TestOptionalSplits(t *testing.T) {
	splits := toySplits(2, [3]int{100, 30, 30}, nil)
	dir := writeDataset(t, t.TempDir(), splits)
	var b strings.Builder
	enc := dataset.NewEncoder(&b)
	for _, r := range splits[2] {
		enc.Encode(r)
	}
	writeFile(t, filepath.Join(dir, "data", "zero-shot.jsonl"), b.String())
	rep, err := Run(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rep.Results {
		got = append(got, r.Split)
	}
	if want := []string{"validation", "test", "zero-shot"}; !slices.Equal(got, want) {
		t.Errorf("scored %v, want %v", got, want)
	}
}
