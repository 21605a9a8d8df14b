package stats

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/golden"
)

func rec(frag string, label, n1, n2 int, templates []string, sentences ...string) *dataset.Record {
	return &dataset.Record{
		Fragment: frag, Label: label, N1: n1, N2: n2, Templates: templates,
		Sentences: sentences, Text: strings.Join(sentences, " "),
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		name string
		r    dataset.Record
		want int
	}{
		// The paper's Figure 1 (unsat): 5 + 5 + 7 words, punctuation attached.
		{"figure 1", dataset.Record{Text: "Every scholar is a poet. Every poet loves some musician. Some scholar does not love any musician."}, 17},
		{"hyphenated noun is one word", dataset.Record{Text: "Some non-artist is not a beekeeper."}, 6},
		{"runs of spaces count once", dataset.Record{Text: "Every  artist is\ta baker. "}, 5},
		{"no text: sentences joined", dataset.Record{Sentences: []string{"Every artist is a baker.", "No baker is a carpenter."}}, 10},
		{"empty", dataset.Record{}, 0},
	}
	for _, tt := range tests {
		if got := Words(&tt.r); got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestReport checks every section on records whose numbers are worked out
// by hand in the comments.
func TestReport(t *testing.T) {
	recs := []*dataset.Record{
		// S, n1=2: 2 sentences of 5 words, sat.
		rec("S", 1, 2, 0, []string{"S1", "S2"}, "Every artist is a baker.", "No baker is a carpenter."),
		// S, n1=2: 3 sentences, 5+5+5 words, unsat.
		rec("S", 0, 2, 0, []string{"S1", "S2", "S3"}, "Every artist is a baker.", "No artist is a baker.", "Some artist is a carpenter."),
		// V, n1=2, n2=1: 1 sentence of 5 words, unlabelled.
		rec("V", -1, 2, 1, []string{"V1.every-some"}, "Every artist admires some baker."),
		// W before V in no particular order; sorted S, W, V.
		rec("W", 1, 3, 0, []string{"W10", "S1"}, "Every artist who is a baker is a carpenter.", "Every artist is a baker."),
	}
	a := New()
	for _, r := range recs {
		a.Add(r)
	}
	got := a.Report()
	want := Report{
		Records: 4,
		Labels:  Labels{Sat: 2, Unsat: 1, Unlabelled: 1},
		Lengths: []Lengths{
			{Fragment: "S", Instances: 2, Sentences: Summary{Min: 2, Max: 3, Mean: 2.5}, Words: Summary{Min: 10, Max: 15, Mean: 12.5}},
			{Fragment: "W", Instances: 1, Sentences: Summary{Min: 2, Max: 2, Mean: 2}, Words: Summary{Min: 14, Max: 14, Mean: 14}},
			{Fragment: "V", Instances: 1, Sentences: Summary{Min: 1, Max: 1, Mean: 1}, Words: Summary{Min: 5, Max: 5, Mean: 5}},
			// (10+15+14+5)/4 = 11; (2+3+2+1)/4 = 2.
			{Fragment: "all", Instances: 4, Sentences: Summary{Min: 1, Max: 3, Mean: 2}, Words: Summary{Min: 5, Max: 15, Mean: 11}},
		},
		Strata: []Stratum{
			{"S", 2, 0, Labels{Sat: 1, Unsat: 1}},
			{"W", 3, 0, Labels{Sat: 1}},
			{"V", 2, 1, Labels{Unlabelled: 1}},
		},
		ByM: []MStratum{
			{"S", 2, Labels{Sat: 1}},
			{"S", 3, Labels{Unsat: 1}},
			{"W", 2, Labels{Sat: 1}},
			{"V", 1, Labels{Unlabelled: 1}},
		},
		// 8 sentences with templates: S1 ×3, S2 ×2, S3, W10, V1.every-some.
		Template: []TemplateFreq{{"S1", 3, 3.0 / 8}, {"S2", 2, 2.0 / 8}, {"S3", 1, 1.0 / 8}, {"W10", 1, 1.0 / 8}, {"V1", 1, 1.0 / 8}},
		Variants: []TemplateFreq{{"S1", 3, 3.0 / 8}, {"S2", 2, 2.0 / 8}, {"S3", 1, 1.0 / 8}, {"W10", 1, 1.0 / 8}, {"V1.every-some", 1, 1.0 / 8}},
	}
	clearPrivate(&got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	if s := got.Strata[0].SatShare(); s != 0.5 {
		t.Errorf("sat share of S (2, 0): got %v, want 0.5", s)
	}
	if s := got.Strata[2].SatShare(); s != 0 {
		t.Errorf("sat share of an unlabelled stratum: got %v, want 0", s)
	}
}

// clearPrivate zeroes the running sums, which the comparison ignores.
func clearPrivate(r *Report) {
	for i := range r.Lengths {
		r.Lengths[i].Sentences.sum, r.Lengths[i].Sentences.n = 0, 0
		r.Lengths[i].Words.sum, r.Lengths[i].Words.n = 0, 0
	}
}

func TestCompareTemplates(t *testing.T) {
	ids := []string{"A1", "S10", "Z2.x", "V1", "S2", "W1", "S2.b", "S2.a", "Q1"}
	want := []string{"S2", "S2.a", "S2.b", "S10", "W1", "V1", "Z2.x", "A1", "Q1"}
	fs := map[string]int{}
	for _, id := range ids {
		fs[id] = 1
	}
	var got []string
	for _, f := range freqs(fs, len(ids)) {
		got = append(got, f.ID)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestEmptyReportHasEveryKey(t *testing.T) {
	b, err := json.Marshal(New().Report())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"records":0,"labels":{"sat":0,"unsat":0,"unlabelled":0},"lengths":[],"strata":[],"by_m":[],"templates":[],"template_variants":[]}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}

func readFixture(t *testing.T) []*dataset.Record {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := dataset.NewDecoder(f, "records.jsonl")
	var recs []*dataset.Record
	for {
		r, err := dec.Next()
		if errors.Is(err, io.EOF) {
			return recs
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
}

// TestTextGolden prints the fixture (records written by nlsat generate: 5 S,
// 5 V and 1 unlabelled A) and checks that the order of the records does not
// change a byte of either output.
func TestTextGolden(t *testing.T) {
	recs := readFixture(t)
	render := func(recs []*dataset.Record) (string, string) {
		a := New()
		for _, r := range recs {
			a.Add(r)
		}
		var text bytes.Buffer
		if err := WriteText(&text, a.Report()); err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(a.Report())
		if err != nil {
			t.Fatal(err)
		}
		return text.String(), string(js)
	}
	text, js := render(recs)
	golden.Check(t, filepath.Join("testdata", "records.stats.txt"), []byte(text))
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
		if t2, j2 := render(recs); t2 != text || j2 != js {
			t.Fatal("output depends on the order of the records")
		}
	}
}

// TestPaperComparisonGolden pins stats --compare paper on the fixture:
// the paper's columns are its Tables 4 and 5 (Appendix D.1), W and Z,
// which the fixture lacks, show only the paper's side.
func TestPaperComparisonGolden(t *testing.T) {
	a := New()
	for _, r := range readFixture(t) {
		a.Add(r)
	}
	var b bytes.Buffer
	if err := WritePaperComparison(&b, a.Report()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "records.compare-paper.txt"), b.Bytes())
}

// TestPaperLengths checks the copied tables against the reading
// of them (A: m 8–34, mean 16.5; 39–318 words, mean 123) and that every
// row is ordered.
func TestPaperLengths(t *testing.T) {
	for _, l := range PaperLengths {
		for _, s := range []Summary{l.Sentences, l.Words} {
			if !(float64(s.Min) < s.Mean && s.Mean < float64(s.Max)) {
				t.Errorf("%s: %+v is not min < mean < max", l.Fragment, s)
			}
		}
	}
	if a := PaperLengths[4]; a.Fragment != "A" || a.Sentences.Min != 8 || a.Sentences.Max != 34 || a.Words.Max != 318 {
		t.Errorf("A row: %+v", a)
	}
}
