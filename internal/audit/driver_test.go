package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/inputerr"
)

// wordTask is a task of the tests: a record is a list of words and a
// label of its own label set; its one surface feature is the number of
// words, its texts are the words and, when the task has a tag, a tag
// read apart (its tokens prefixed "t:"), with a baseline of its own on
// the tag alone.
type wordTask struct{ spec *Spec }

type wordRecord struct {
	ID    string   `json:"id"`
	Seed  string   `json:"seed"`
	Label int      `json:"label"`
	Words []string `json:"words"`
	Tag   string   `json:"tag"`
}

func newWordTask(labels []string, tagged bool) wordTask {
	spec := &Spec{
		Labels: labels,
		Name:   "word",
		Schema: "word/1",
		Text:   "the words",
		Summary: func(features int, train string, records int) string {
			return fmt.Sprintf("Word audit: %d features, %s (%d); ", features, train, records)
		},
		Features: []Feature{{Name: "words", About: "number of words", Bin: CountBin, Binning: "as is"}},
	}
	if tagged {
		spec.Prefixes = []string{"", "t:"}
		spec.Baselines = []Baseline{{Name: "tag-only", About: "the tag's n-grams alone", Grams: func(name string) bool { return strings.HasPrefix(name, "t:") }}}
	}
	return wordTask{spec}
}

func (w wordTask) Spec() *Spec { return w.spec }

func (w wordTask) Read(line []byte, row *Row) error {
	var r wordRecord
	if err := json.Unmarshal(line, &r); err != nil {
		return fmt.Errorf("not a record: %w", err)
	}
	row.Label, row.Fragment, row.M, row.N1, row.N2, row.ID, row.Seed = r.Label, "S", 1, 1, 1, r.ID, r.Seed
	row.X = []float64{float64(len(r.Words))}
	row.Texts = []string{strings.Join(r.Words, " ")}
	if len(w.spec.Prefixes) > 1 {
		row.Texts = append(row.Texts, r.Tag)
	}
	return nil
}

var wordVocabulary = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"}

// writeWords writes train, validation and test of n records per label
// each, in dir/data. Words are drawn at random; plant, when set, gives
// every record of label 0 the word "zebra" among its tags (tagged) or its
// words.
func writeWords(t *testing.T, dir string, labels int, n [3]int, plant, tagged bool) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	for s, count := range n {
		var recs []wordRecord
		for i := range count {
			for _, l := range rng.Perm(labels) {
				r := wordRecord{Seed: fmt.Sprintf("1:%d", i), Label: l, Tag: wordVocabulary[rng.IntN(len(wordVocabulary))]}
				for range 3 + rng.IntN(4) {
					r.Words = append(r.Words, wordVocabulary[rng.IntN(len(wordVocabulary))])
				}
				if plant && l == 0 {
					if tagged {
						r.Tag = "zebra"
					} else {
						r.Words[0] = "zebra"
					}
				}
				recs = append(recs, r)
			}
		}
		// The records are written in a seeded order and numbered as
		// written, as a build writes them, so that the order says nothing.
		rng.Shuffle(len(recs), func(a, b int) { recs[a], recs[b] = recs[b], recs[a] })
		var b bytes.Buffer
		for k, r := range recs {
			r.ID = fmt.Sprintf("w-%06d", k)
			line, _ := json.Marshal(r)
			b.Write(append(line, '\n'))
		}
		if err := os.WriteFile(filepath.Join(dir, "data", Splits[s]+".jsonl"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDriver runs the one driver over tasks of two and of three labels,
// with and without a baseline of their own: a binary task gets one
// binary report without the sections it does not ask for, a task of
// three labels a report per pair of labels and their vote; the JSON
// reads back to the same bytes, names the labels and the files relative
// to the dataset in the manifest's copy, and a planted word is found by
// the baselines that read it.
func TestDriver(t *testing.T) {
	tests := []struct {
		name           string
		labels         []string
		tagged, plant  bool
		leak           string // a leak every evaluation verdict (of a pair with label 0) has
		pairs          int
		text, jsonKeys []string // text: substrings, or "row: " and a table row's fields
	}{
		{"binary", []string{"no", "yes"}, false, false, "", 0,
			[]string{"Shortcut audit of ", "row: split records sat unsat file", "bow-logreg"}, []string{`"sentence_pairs":null`, `"difficulty":null`}},
		{"binary, planted word", []string{"no", "yes"}, false, true, BoWLogreg, 0,
			[]string{`strongest n-grams: "zebra"`}, []string{`"toward_unsat":[{"name":"zebra"`}},
		{"three labels, tagged", []string{"red", "green", "blue"}, true, true, "tag-only", 3,
			[]string{"word records (word/1)", "Audited as three binary problems", "row: split records red green blue file", "Three-way summary",
				"Pair 3 of 3: green vs blue", "tag-only", `"t:zebra"`},
			[]string{`"task":"word"`, `"record_schema":"word/1"`, `"red":200,"green":200,"blue":200`, `"pair":"red-green"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			task := newWordTask(tt.labels, tt.tagged)
			dir := writeWords(t, filepath.Join(t.TempDir(), "ds"), len(tt.labels), [3]int{200, 100, 100}, tt.plant, tt.tagged)
			rep, err := Run(context.Background(), task, dir, Options{MinStratum: 50})
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			if err := rep.Text(&text); err != nil {
				t.Fatal(err)
			}
			data, summary, err := ForManifest(task)(context.Background(), dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tt.text {
				if row, ok := strings.CutPrefix(want, "row: "); ok {
					if !slices.ContainsFunc(strings.Split(text.String(), "\n"), func(l string) bool { return strings.Join(strings.Fields(l), " ") == row }) {
						t.Errorf("text lacks the row %q", row)
					}
				} else if !strings.Contains(text.String(), want) {
					t.Errorf("text lacks %q", want)
				}
			}
			for _, want := range append(tt.jsonKeys, `"dir":"."`, `"file":"data/validation.jsonl"`) {
				if !bytes.Contains(data, []byte(want)) {
					t.Errorf("JSON lacks %s", want)
				}
			}
			if !strings.HasPrefix(summary, "Word audit: 1 features, train (") {
				t.Errorf("summary does not open with the task's lines:\n%s", summary)
			}
			var back Report
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			if again, _ := json.Marshal(&back); !bytes.Equal(again, data) {
				t.Errorf("the JSON changes on a round trip:\n%s\n%s", data, again)
			}
			// Every binary report, the pairs' included, is checked for the
			// leak on both evaluation splits.
			reports := []*Report{rep}
			if tt.pairs > 0 {
				e := rep.Pairwise
				if e == nil || len(e.Pairs) != tt.pairs || len(e.Multiway) != 2 || !slices.Equal(back.Pairwise.Splits[0].Labels, tt.labels) {
					t.Fatalf("pairwise report: %+v", e)
				}
				reports = nil
				for _, p := range e.Pairs {
					if p.Positive == tt.labels[0] {
						reports = append(reports, p.Report)
					}
				}
			} else if rep.Pairwise != nil || rep.SentencePairs != nil || rep.Difficulty != nil {
				t.Fatal("a binary task's report has sections it did not ask for")
			}
			for _, r := range reports {
				if names := baselineNames(r); tt.tagged != slices.Contains(names, "tag-only") || names[len(names)-1] != GBMStructure {
					t.Errorf("baselines %v", names)
				}
				for _, res := range r.Results {
					if tt.leak != "" && !slices.Contains(res.Verdict.Leaks, tt.leak) {
						t.Errorf("%s: leaks %v, want %s among them", res.Split, res.Verdict.Leaks, tt.leak)
					}
					if tt.leak == "" && res.Verdict.Shortcut {
						t.Errorf("%s: %s", res.Split, res.Verdict.Text)
					}
				}
			}
			if got := len(rep.Shortcuts()) > 0; got != tt.plant {
				t.Errorf("Shortcuts() = %q", rep.Shortcuts())
			}
		})
	}
}

func baselineNames(r *Report) []string {
	var names []string
	for _, b := range r.Baselines {
		names = append(names, b.Name)
	}
	return names
}

// TestDriverBadRecords: the driver names the file and line of a record
// the task refuses, and of one whose label or features do not fit the
// task.
func TestDriverBadRecords(t *testing.T) {
	task := newWordTask([]string{"no", "yes"}, false)
	tests := []struct{ line, want string }{
		{"{oops", "validation.jsonl:2: not a record"},
		{`{"id":"x","label":2,"words":["alpha"]}`, "validation.jsonl:2: record x: label 2 is not one of the task's 2"},
	}
	for _, tt := range tests {
		dir := writeWords(t, t.TempDir(), 2, [3]int{5, 5, 5}, false, false)
		file := filepath.Join(dir, "data", "validation.jsonl")
		b, _ := os.ReadFile(file)
		first, _, _ := bytes.Cut(b, []byte("\n"))
		os.WriteFile(file, append(append(first, '\n'), tt.line+"\n"...), 0o644)
		_, err := Run(context.Background(), task, dir, Options{})
		var ie *inputerr.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want an inputerr.Error containing %q", err, tt.want)
		}
	}
}

// TestMaxTrain: with MaxTrain below train's size, the models are fitted
// to train's first MaxTrain records, so every figure they give equals the
// audit of a dataset whose train is just those records, and the records
// after them hold no features; the counts and the order checks still
// read all of train, and the report and its summary say how much the
// models read.
func TestMaxTrain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels []string
	}{
		{"binary", []string{"no", "yes"}},
		{"three labels", []string{"red", "green", "blue"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			task := newWordTask(tc.labels, false)
			full := writeWords(t, filepath.Join(t.TempDir(), "full"), len(tc.labels), [3]int{400, 150, 150}, true, false)
			head := filepath.Join(t.TempDir(), "head")
			if err := os.MkdirAll(filepath.Join(head, "data"), 0o755); err != nil {
				t.Fatal(err)
			}
			const fitted = 301 // not a multiple of the batches of lines
			for _, name := range Splits[:3] {
				data, err := os.ReadFile(filepath.Join(full, "data", name+".jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				if name == Splits[0] {
					lines := bytes.SplitAfter(data, []byte("\n"))
					data = bytes.Join(lines[:fitted], nil)
				}
				if err := os.WriteFile(filepath.Join(head, "data", name+".jsonl"), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			splits, _, err := load(context.Background(), task, full, fitted)
			if err != nil {
				t.Fatal(err)
			}
			for i, it := range splits[0].items {
				if has := it.features != nil; has != (i < fitted) {
					t.Fatalf("train record %d holds features: %v", i, has)
				}
			}
			capped, err := Run(context.Background(), task, full, Options{MaxTrain: fitted})
			if err != nil {
				t.Fatal(err)
			}
			short, err := Run(context.Background(), task, head, Options{})
			if err != nil {
				t.Fatal(err)
			}
			// What the models give, per pair of labels when there are more.
			fits := func(r *Report) any {
				if r.Pairwise == nil {
					return []any{r.Baselines, r.Results, r.MutualInfo, r.CountWeights, r.BoW}
				}
				var out []any
				for _, p := range r.Pairwise.Pairs {
					out = append(out, p.Report.Baselines, p.Report.Results)
				}
				return append(out, r.Pairwise.Multiway)
			}
			a, _ := json.Marshal(fits(capped))
			b, _ := json.Marshal(fits(short))
			if !bytes.Equal(a, b) {
				t.Errorf("the capped audit's models differ from those of the first %d records:\n%s\n%s", fitted, a, b)
			}
			records, fittedOn, order := 0, 0, 0
			if capped.Pairwise != nil {
				records, fittedOn, order = capped.Pairwise.Splits[0].Records, capped.Pairwise.FittedOn, capped.Pairwise.Order[0].Records
			} else {
				records, fittedOn, order = capped.Splits[0].Records, capped.FittedOn, capped.Order[0].Records
			}
			want := 400 * len(tc.labels)
			if records != want || order != want || fittedOn != fitted {
				t.Errorf("train counted %d, order read %d, fitted on %d; want %d, %d, %d", records, order, fittedOn, want, want, fitted)
			}
			if s := capped.Summary(); !strings.Contains(s, fmt.Sprintf("first %d of train's %d records", fitted, want)) {
				t.Errorf("the summary does not say what the models read:\n%s", s)
			}
			if short.Summary() == "" || strings.Contains(short.Summary(), "fitted to the first") {
				t.Errorf("an audit that read all of train says it did not:\n%s", short.Summary())
			}
		})
	}
}

// TestPairwiseIsBinary: each pair of labels of a pairwise audit is the
// binary audit of the records of those two labels, its first label as 1:
// what one pair's fit does to the records it reads must not reach the
// next pair's.
func TestPairwiseIsBinary(t *testing.T) {
	labels := []string{"red", "green", "blue"}
	full := writeWords(t, filepath.Join(t.TempDir(), "full"), len(labels), [3]int{300, 100, 100}, true, false)
	rep, err := Run(context.Background(), newWordTask(labels, false), full, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range labelPairs(len(labels)) {
		dir := filepath.Join(t.TempDir(), fmt.Sprint(k))
		if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range Splits[:3] {
			data, err := os.ReadFile(filepath.Join(full, "data", name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			var out []byte
			for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
				var r wordRecord
				if err := json.Unmarshal(line, &r); err != nil {
					t.Fatal(err)
				}
				switch int8(r.Label) {
				case p[0]:
					r.Label = 1
				case p[1]:
					r.Label = 0
				default:
					continue
				}
				b, _ := json.Marshal(r)
				out = append(append(out, b...), '\n')
			}
			if err := os.WriteFile(filepath.Join(dir, "data", name+".jsonl"), out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		bin, err := Run(context.Background(), newWordTask([]string{labels[p[1]], labels[p[0]]}, false), dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal([]any{rep.Pairwise.Pairs[k].Report.Baselines, rep.Pairwise.Pairs[k].Report.Results})
		want, _ := json.Marshal([]any{bin.Baselines, bin.Results})
		if !bytes.Equal(got, want) {
			t.Errorf("pair %s-%s differs from the binary audit of its records:\n%s\n%s", labels[p[0]], labels[p[1]], got, want)
		}
	}
}

// TestTightenGC: an audit halves GOGC while it runs, overlapping audits
// share the halving and the last one to end restores the setting, and a
// collector turned off stays off.
func TestTightenGC(t *testing.T) {
	gcPercent := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	r1 := tightenGC()
	if got := gcPercent(); got != 50 {
		t.Errorf("during an audit GOGC is %d, want 50", got)
	}
	r2 := tightenGC()
	r1()
	r1() // a second call does nothing
	if got := gcPercent(); got != 50 {
		t.Errorf("while a second audit runs GOGC is %d, want 50", got)
	}
	r2()
	if got := gcPercent(); got != 100 {
		t.Errorf("after the audits GOGC is %d, want 100", got)
	}
	debug.SetGCPercent(-1)
	tightenGC()()
	if got := gcPercent(); got != -1 {
		t.Errorf("a collector turned off is at %d after an audit", got)
	}
}
