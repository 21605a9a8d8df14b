package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJointSplitEval builds a joint dataset from the command line and
// scores predictions against its test split: eval gives one row per
// fragment (the paper's Table 2) without flags.
func TestJointSplitEval(t *testing.T) {
	t.Chdir(t.TempDir())
	args := []string{"split", "--fragment", "S,W,A", "--train", "40", "--validation", "20", "--test", "20", "--balance", "strata", "--audit=false", "-q"}
	if code, _, stderr := nlsat(context.Background(), "", args...); code != 0 {
		t.Fatalf("split: exit %d: %s", code, stderr)
	}
	card, _ := os.ReadFile(filepath.Join("nlsat-SWA", "README.md"))
	for _, want := range []string{"fragments S,W,A", "nlsat split --fragment S,W,A --train 40 --validation 20 --test 20", "| `data/test.jsonl` | default | test | 60 |"} {
		if !strings.Contains(string(card), want) {
			t.Errorf("card lacks %q", want)
		}
	}
	writeExamplePredictions(t, filepath.Join("nlsat-SWA", "data", "test.jsonl"))
	code, out, stderr := nlsat(context.Background(), "", "eval", "--gold", filepath.Join("nlsat-SWA", "data", "test.jsonl"), "--pred", "preds.jsonl", "--json")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var rep evalJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, r := range rep.ByFragment {
		rows = append(rows, r.Key)
		if r.Count != 20 || r.Accuracy != 1 {
			t.Errorf("fragment %s: %d records at %v, want 20 at 1", r.Key, r.Count, r.Accuracy)
		}
	}
	if strings.Join(rows, ",") != "S,W,A" {
		t.Errorf("rows by fragment %v, want S, W, A", rows)
	}
	if code, _, stderr := nlsat(context.Background(), "", "split", "--fragment", "S,X"); code != 2 || !strings.Contains(stderr, "S, W, V, Z, A, all") {
		t.Errorf("--fragment S,X: exit %d: %s; want 2 and the allowed values", code, stderr)
	}
}
