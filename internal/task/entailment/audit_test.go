package entailment

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/dataset/datasettest"
	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/task"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

// toyEntail is an entailment record as the audit reads it (the fields of
// schema nlsat-entail/1 it decodes, and a few it ignores).
type toyEntail struct {
	ID                 string   `json:"id"`
	Fragment           string   `json:"fragment"`
	Premises           []string `json:"premises"`
	Hypothesis         string   `json:"hypothesis"`
	Label              int      `json:"label"`
	LabelText          string   `json:"label_text"`
	LabelBinary        int      `json:"label_binary"`
	M                  int      `json:"m"`
	N1                 int      `json:"n1"`
	N2                 int      `json:"n2"`
	HypothesisTemplate string   `json:"hypothesis_template"`
	Seed               string   `json:"seed"`
}

// toyEntailSplits draws train, validation and test with the given
// numbers of triples: one premise set of S-like sentences, and a
// hypothesis per label drawn the same way, so that nothing but plant
// (when not nil; it edits a hypothesis given its label) relates the text
// to the label.
func toyEntailSplits(seed uint64, triples [3]int, plant func(label int, h string) string) [3][]toyEntail {
	rng := rand.New(rand.NewPCG(seed, 0))
	var out [3][]toyEntail
	for s, n := range triples {
		for i := range n {
			n1, m := 5+rng.IntN(2), 8+4*rng.IntN(2)
			base := datasettest.Record(rng, "", 1, n1, m)
			for _, label := range rng.Perm(3) {
				h := datasettest.Sentence(rng, base.Nouns)
				if plant != nil {
					h = plant(label, h)
				}
				out[s] = append(out[s], toyEntail{ID: fmt.Sprintf("S-toy-%06d", len(out[s])), Fragment: "S", Premises: base.Sentences,
					Hypothesis: h, Label: label, LabelText: entailrec.LabelNames[label], LabelBinary: min(label, 1), M: m, N1: n1,
					HypothesisTemplate: "S1", Seed: fmt.Sprintf("%d:%d", seed, i)})
			}
		}
	}
	return out
}

func writeEntail(t *testing.T, dir string, splits [3][]toyEntail) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	for s, recs := range splits {
		var b bytes.Buffer
		for _, r := range recs {
			line, _ := json.Marshal(r)
			b.Write(append(line, '\n'))
		}
		writeFile(t, filepath.Join(dir, "data", audit.Splits[s]+".jsonl"), b.String())
	}
	return dir
}

// The shortcuts a test can plant in the hypotheses.
var (
	contradictionSaysNo = func(label int, h string) string {
		if label != 2 {
			return h
		}
		_, rest, _ := strings.Cut(h, " ")
		return "No " + rest
	}
	entailedAsMarked = func(label int, h string) string {
		if label != 0 {
			return h
		}
		return strings.TrimSuffix(h, ".") + " indeed."
	}
)

func TestEntailPairs(t *testing.T) {
	tests := []struct {
		name  string
		plant func(int, string) string
		// flagged are the pairs whose verdict must find a shortcut on
		// both evaluation splits, with hypothesis-only among its leaks;
		// the others must find none.
		flagged []string
	}{
		{"balanced, hypotheses unrelated to labels", nil, nil},
		{"contradictions start with No", contradictionSaysNo, []string{"entailment-contradiction", "neutral-contradiction"}},
		{"entailed hypotheses end in a marker", entailedAsMarked, []string{"entailment-neutral", "entailment-contradiction"}},
	}
	for _, tt := range tests {
		dir := writeEntail(t, t.TempDir(), toyEntailSplits(1, [3]int{600, 150, 150}, tt.plant))
		rep, err := audit.Run(context.Background(), Audit, dir, audit.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		e := rep.Pairwise
		if e == nil || len(e.Pairs) != 3 || len(e.Multiway) != 2 {
			t.Fatalf("%s: got %+v, want an entailment report of 3 pairs and 2 evaluation splits", tt.name, e)
		}
		for _, p := range e.Pairs {
			if c := p.Report.Splits[0]; c.Records != 1200 || c.Sat != 600 || c.Unsat != 600 {
				t.Errorf("%s, %s: train %+v, want 600 records of each label", tt.name, p.Pair, c)
			}
			// A triple's records share their seed and stratum: scored out
			// of fold by position, each would be predicted by its
			// sibling's table, far below chance.
			for _, f := range p.Report.Metadata[0].Fields {
				if se := 0.5 / math.Sqrt(float64(f.Total)); math.Abs(f.Accuracy-0.5) > 3.3*se {
					t.Errorf("%s, %s: train metadata %s scores %v out of fold, more than 3.3 standard errors from 50%%", tt.name, p.Pair, f.Name, f.Accuracy)
				}
			}
			want := slices.Contains(tt.flagged, p.Pair)
			for _, res := range p.Report.Results {
				v := res.Verdict
				if v.Shortcut != want || want && !slices.Contains(v.Leaks, HypothesisOnly) {
					t.Errorf("%s, %s, %s: verdict %q (leaks %v), want shortcut %v", tt.name, p.Pair, res.Split, v.Text, v.Leaks, want)
				}
			}
		}
		for _, tw := range e.Multiway {
			if tw.Verdict.Shortcut != (len(tt.flagged) > 0) {
				t.Errorf("%s, %s: three-way verdict %q", tt.name, tw.Split, tw.Verdict.Text)
			}
		}
	}
}

// TestEntailReport checks the forms of an entailment audit: the text
// shows the three pairs, the JSON reads back, the manifest's copy names
// files relative to the directory, and a sat/unsat file is not taken
// for an entailment one.
func TestEntailReport(t *testing.T) {
	dir := writeEntail(t, filepath.Join(t.TempDir(), "ent"), toyEntailSplits(2, [3]int{200, 50, 50}, contradictionSaysNo))
	rep, err := audit.Run(context.Background(), Audit, dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"entailment records (nlsat-entail/1)", "Pair 1 of 3: entailment vs neutral", "Pair 2 of 3: entailment vs contradiction",
		"Pair 3 of 3: neutral vs contradiction", "Three-way summary", "Pairwise votes", "hypothesis-only", "h-overlap"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
	data, summary, err := audit.ForManifest(Audit)(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var back audit.Report
	if err := json.Unmarshal(data, &back); err != nil || back.Pairwise == nil {
		t.Fatalf("manifest JSON does not read back as an entailment audit: %v", err)
	}
	e := back.Pairwise
	if e.Dir != "." || e.Splits[1].File != "data/validation.jsonl" || e.Pairs[2].Report.Splits[2].File != "data/test.jsonl" || e.RecordSchema != entailrec.Schema {
		t.Errorf("manifest report: dir %q, files %q and %q, schema %q", e.Dir, e.Splits[1].File, e.Pairs[2].Report.Splits[2].File, e.RecordSchema)
	}
	again, _ := json.Marshal(&back)
	if !bytes.Equal(again, data) {
		t.Error("the manifest JSON changes on a round trip")
	}
	for _, want := range []string{"entailment vs contradiction", "surface shortcut above 55%", "three-way vote"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
}

// TestDetect: the audit's records are told by task.Detect from their
// first record: an entailment record has premises and a hypothesis, which
// no sat/unsat record has; a first line that is not a record is left to
// the sat/unsat reader to report.
func TestDetect(t *testing.T) {
	task.Register(satunsat.Task, Task)
	tests := []struct {
		name, content string
		want          bool
	}{
		{"entailment record", "\n" + `{"id":"a","premises":["Every a is a b."],"hypothesis":"Some a is a b.","label":0}` + "\n", true},
		{"sat/unsat record", `{"id":"a","text":"Every a is a b.","sentences":["Every a is a b."],"label":1}` + "\n", false},
		{"premises without hypothesis", `{"id":"a","premises":["Every a is a b."]}` + "\n", false},
		{"not JSON", "{oops\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		file := filepath.Join(t.TempDir(), "train.jsonl")
		writeFile(t, file, tt.content)
		if got, err := task.Detect(file); err != nil || (got == Task) != tt.want || got.Audit == nil {
			t.Errorf("%s: got %v, %v; want entailment %v", tt.name, got, err, tt.want)
		}
	}
}

// TestEntailSurface counts the hypothesis features by hand.
func TestEntailSurface(t *testing.T) {
	r := &auditRecord{Premises: []string{"Every scholar is a poet.", "Some poet is not a non-scholar."}, Hypothesis: "Some scholar is not a non-poet.", M: 2, N1: 2}
	x := surface(r, strings.Join(r.Premises, " "))
	// The hypothesis has 8 tokens (some scholar is not a non- poet .) and
	// 7 bigrams. The premises hold all 8 tokens and 5 of the bigrams:
	// not "some scholar" or "non- poet". 13 of 15.
	want := map[int]float64{fM: 2, fN1: 2, fHWords: 8, fHOverlap: 13.0 / 15, fSome: 1, fNot: 1, fNon: 1, fEvery: 0, fExistential: 1}
	for f, v := range want {
		if x[f] != v {
			t.Errorf("%s: got %v, want %v", features[f].Name, x[f], v)
		}
	}
}

// TestPremisePairs plants a label in how the hypothesis meets a premise:
// an entailed hypothesis swaps the nouns of a premise ("every A is a B"
// gives "some B is a A"), the others are drawn as before. Every word of
// such a hypothesis is in the premises, as it is in most drawn ones; the
// premise-pairs baseline must see the pattern.
func TestPremisePairs(t *testing.T) {
	splits := toyEntailSplits(4, [3]int{600, 150, 150}, nil)
	for s := range splits {
		for i := range splits[s] {
			r := &splits[s][i]
			if r.Label != 0 {
				continue
			}
			var a, b string
			if _, err := fmt.Sscanf(strings.TrimSuffix(r.Premises[0], "."), "%s %s is a %s", new(string), &a, &b); err != nil || strings.Contains(b, " ") {
				continue
			}
			r.Hypothesis = fmt.Sprintf("Some %s is a %s.", b, a)
		}
	}
	rep, err := audit.Run(context.Background(), Audit, writeEntail(t, t.TempDir(), splits), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Pairwise.Pairs {
		if p.Pair == "neutral-contradiction" {
			continue
		}
		for _, res := range p.Report.Results {
			if !slices.Contains(res.Verdict.Leaks, PremisePairs) {
				t.Errorf("%s, %s: leaks %v, want %s among them: %s", p.Pair, res.Split, res.Verdict.Leaks, PremisePairs, res.Verdict.Text)
			}
		}
	}
}
