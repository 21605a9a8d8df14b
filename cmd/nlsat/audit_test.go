package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/binom"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

// splitDataset builds a small balanced dataset with nlsat split.
func splitDataset(t *testing.T, frag string, train, val, test int, seed string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	code, _, errs := nlsat(context.Background(), "", "split", "--fragment", frag, "--train", fmt.Sprint(train),
		"--validation", fmt.Sprint(val), "--test", fmt.Sprint(test), "--seed", seed, "-q", "--out", dir)
	if code != 0 {
		t.Fatalf("split: exit %d: %s", code, errs)
	}
	return dir
}

// familyConfidence is the level of each of the six intervals that
// TestAuditBalanced checks (three models on two splits), so that all six
// hold together with 95% confidence (Bonferroni): at 95% each, one of them
// excludes 50% about one time in four on data with nothing to find.
const familyConfidence = 1 - 0.05/6

// TestAuditBalanced is the acceptance test of issue 7: on a balanced split
// of nlsat instances every baseline scores within its interval of 50%
// (intervals whose family holds with 95% confidence) and the verdict finds
// no shortcut.
func TestAuditBalanced(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and audits a dataset")
	}
	dir := splitDataset(t, "S", 4400, 600, 600, "1")
	code, out, errs := nlsat(context.Background(), "", "audit", "--json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep audit.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if n := rep.Splits[0].Records; n < 4000 {
		t.Fatalf("train has %d records; the test wants a few thousand", n)
	}
	for _, res := range rep.Results {
		if res.Verdict.Shortcut || !strings.HasPrefix(res.Verdict.Text, "no surface shortcut above 55%") {
			t.Errorf("%s: verdict %q", res.Split, res.Verdict.Text)
		}
		for _, b := range res.Baselines {
			if iv := binom.Wilson(b.Correct, b.Total, familyConfidence); iv.Lo > 0.5 || iv.Hi < 0.5 {
				t.Errorf("%s: %s scores %v [%v, %v] (%.2f%% interval), which excludes 50%%", res.Split, b.Name, b.Accuracy, iv.Lo, iv.Hi, 100*familyConfidence)
			}
		}
	}
	// The text report gives the same verdicts.
	code, text, _ := nlsat(context.Background(), "", "audit", dir)
	for _, res := range rep.Results {
		if code != 0 || !strings.Contains(text, res.Split+": "+res.Verdict.Text+"\n") {
			t.Errorf("text report lacks the %s verdict %q", res.Split, res.Verdict.Text)
		}
	}
}

func TestAuditBadInput(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "ds")
	os.MkdirAll(filepath.Join(ds, "data"), 0o755)
	rec := `{"id":"a","fragment":"S","text":"Every artist is a baker.","sentences":["Every artist is a baker."],"label":1,"label_text":"sat","m":1}` + "\n"
	for _, s := range []string{"train", "validation"} {
		os.WriteFile(filepath.Join(ds, "data", s+".jsonl"), []byte(rec), 0o644)
	}
	os.WriteFile(filepath.Join(ds, "data", "test.jsonl"), []byte(rec+"{\"id\": 3\n"), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no argument", []string{"audit"}, exitUsage, "audit needs a dataset directory"},
		{"missing directory", []string{"audit", filepath.Join(dir, "nope")}, exitUsage, "no such file or directory"},
		{"missing split", []string{"audit", dir}, exitUsage, filepath.Join("data", "train.jsonl")},
		{"malformed record", []string{"audit", ds}, exitUsage, filepath.Join(ds, "data", "test.jsonl") + ":2: not a record"},
		{"threshold out of range", []string{"audit", "--threshold", "1.5", ds}, exitUsage, "--threshold"},
		{"bad min-stratum", []string{"audit", "--min-stratum", "0", ds}, exitUsage, "--min-stratum"},
		{"bad max-train", []string{"audit", "--max-train", "0", ds}, exitUsage, "--max-train must be at least 1"},
	}
	for _, tt := range tests {
		code, stdout, stderr := nlsat(context.Background(), "", tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line containing %q", tt.name, code, stderr, tt.code, tt.want)
		}
		if stdout != "" {
			t.Errorf("%s: wrote to stdout: %q", tt.name, stdout)
		}
	}
}

// TestNoLabelInOrder builds a dataset with only equal counts per stratum
// (where accepting in index order would let the index, the file order and
// the id tell the label) and checks that the audit's metadata section
// finds none of them predictive and every head balanced. The same build
// with the earlier in-order acceptance fails it: the seed index predicts
// 57% of train (out of fold) and 60% of test.
func TestNoLabelInOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and audits a dataset")
	}
	dir := filepath.Join(t.TempDir(), "ds")
	code, _, errs := nlsat(context.Background(), "", "split", "--fragment", "V", "--train", "4000", "--validation", "600",
		"--test", "600", "--balance", "strata", "--audit=false", "--seed", "4", "-q", "--out", dir)
	if code != 0 {
		t.Fatalf("split: exit %d: %s", code, errs)
	}
	rep, err := audit.Run(context.Background(), satunsat.Task.Audit, dir, audit.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, ms := range rep.Metadata {
		if ms.Verdict.Shortcut || len(ms.FirstK) == 0 {
			t.Errorf("%s: %s", ms.Split, ms.Verdict.Text)
		}
	}
	// The difficulty profile reads the pairs and MUSes off the files:
	// some unsat records of V hold a contradictory pair, and the
	// one-step reasoner scores half plus half their share.
	for _, d := range rep.Difficulty {
		if d.OneStep == nil || d.PairKnown != d.Unsat || d.WithPair == 0 || d.WithPair == d.Unsat || d.MUSSizes[1].Count == 0 {
			t.Fatalf("%s: difficulty %+v", d.Split, d)
		}
		if want := 0.5 + 0.5*float64(d.WithPair)/float64(d.Unsat); math.Abs(d.OneStep.Accuracy-want) > 1e-4 {
			t.Errorf("%s: one-step %.4f, want %.4f", d.Split, d.OneStep.Accuracy, want)
		}
	}
	// The file is not in index order, and every head of it is within 10
	// of half sat (blocks of 20).
	var last, ascending, n, sat, worst int
	dataset.EachRecord(filepath.Join(dir, "data", "train.jsonl"), nil, func(r *dataset.Record, _ string) error {
		_, idx, _ := strings.Cut(r.Seed, ":")
		i, _ := strconv.Atoi(idx)
		if i > last {
			ascending++
		}
		last, n, sat = i, n+1, sat+r.Label
		worst = max(worst, 2*sat-n, n-2*sat)
		return nil
	})
	if worst > 20 {
		t.Errorf("a head of train is %d records off balance (at most 10 sat or unsat more than half expected)", worst/2)
	}
	if ascending > n*6/10 {
		t.Errorf("%d of %d records follow a record of lower index: the file is in index order", ascending, n)
	}
}

// TestAuditEntailment audits a small entailment dataset made with nlsat
// generate --task entailment, its triples dealt out to train, validation
// and test: nlsat audit recognises the records with no flag and reports
// the three pairs of labels, in text and in JSON.
func TestAuditEntailment(t *testing.T) {
	dir := t.TempDir()
	gen := filepath.Join(dir, "ent.jsonl")
	if code, _, errs := nlsat(context.Background(), "", "generate", "--task", "entailment", "--fragment", "S", "--count", "60", "-q", "-o", gen); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(gen)
	if err != nil {
		t.Fatal(err)
	}
	// Records come in triples sharing a seed; 14 to train, 3 and 3 to
	// the other splits.
	var files [3]strings.Builder
	var seeds []string
	for _, line := range strings.SplitAfter(strings.TrimSpace(string(data))+"\n", "\n")[:60] {
		var r struct{ Seed string }
		json.Unmarshal([]byte(line), &r)
		if len(seeds) == 0 || seeds[len(seeds)-1] != r.Seed {
			seeds = append(seeds, r.Seed)
		}
		s := 0
		if len(seeds) > 14 {
			s = 1 + (len(seeds)-15)/3
		}
		files[s].WriteString(line)
	}
	ds := filepath.Join(dir, "ds")
	os.MkdirAll(filepath.Join(ds, "data"), 0o755)
	for s, name := range audit.Splits[:3] {
		os.WriteFile(filepath.Join(ds, "data", name+".jsonl"), []byte(files[s].String()), 0o644)
	}
	code, out, errs := nlsat(context.Background(), "", "audit", "--json", ds)
	if code != 0 {
		t.Fatalf("audit --json: exit %d: %s", code, errs)
	}
	var rep audit.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Pairwise == nil {
		t.Fatalf("audit --json: not an entailment audit (%v): %.200s", err, out)
	}
	e := rep.Pairwise
	if len(e.Pairs) != 3 || len(e.Multiway) != 2 || e.Splits[0].Records != 42 || e.Splits[0].Counts[0] != 14 {
		t.Errorf("got %d pairs, %d summaries, train %+v; want 3, 2 and 14 records of each label", len(e.Pairs), len(e.Multiway), e.Splits[0])
	}
	code, text, _ := nlsat(context.Background(), "", "audit", ds)
	for _, want := range []string{"Pair 1 of 3: entailment vs neutral", "Pair 3 of 3: neutral vs contradiction", "validation: " + e.Multiway[0].Verdict.Text + "\n"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("text report lacks %q", want)
		}
	}
}
