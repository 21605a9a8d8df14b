package satunsat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/dataset/datasettest"
	"github.com/nlsat/nlsat/internal/golden"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// The leaks a test dataset can be given; each edits a sat record.
var (
	extraSentence = func(rng *rand.Rand, r *dataset.Record) {
		r.Sentences = append(r.Sentences, datasettest.Sentence(rng, r.Nouns))
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
		{"a noun only in sat", satOnlyNoun, true, []string{audit.BoWLogreg}, `"zebra"`},
	}
	for _, tt := range tests {
		splits := toySplits(1, [3]int{1000, 250, 250}, tt.leak)
		// toySplits alternates the labels and numbers a pair's sat record
		// odd, which the order section would rightly report; a build
		// writes its records in a seeded order, numbered as written.
		rng := rand.New(rand.NewPCG(1, 1))
		for s, recs := range splits {
			rng.Shuffle(len(recs), func(a, b int) { recs[a], recs[b] = recs[b], recs[a] })
			for k, r := range recs {
				r.ID = fmt.Sprintf("%s-%05d", audit.Splits[s], k)
			}
		}
		dir := writeDataset(t, t.TempDir(), splits)
		rep, err := audit.Run(context.Background(), Audit, dir, audit.Options{})
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
	rep, err := audit.Run(context.Background(), Audit, dir, audit.Options{MinStratum: 50})
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
		rep, err := audit.Run(context.Background(), Audit, dir, audit.Options{})
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
			t.Errorf("%s: got %v, want %v", features[f].Name, x[f], v)
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
		_, err := audit.Run(context.Background(), Audit, dir, audit.Options{})
		var ie *inputerr.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want an inputerr.Error containing %q", tt.name, err, tt.want)
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
	rep, err := audit.Run(context.Background(), Audit, dir, audit.Options{})
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
