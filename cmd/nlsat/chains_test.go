package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
)

// TestEvalChains runs the chain-of-thought loop end to end: records with
// proofs, prompt --cot, predictions whose answers are the gold chains
// (every unsat chain must be valid) and a broken copy (each unsat chain's
// contradiction cites only its first step; each sat record claims a
// contradiction from its first sentence alone), scored by eval --chains.
// The reports and the broken copy's per-record results are pinned in
// testdata/eval-chains.golden (rewritten with -update).
func TestEvalChains(t *testing.T) {
	dir := t.TempDir()
	in, rows := filepath.Join(dir, "v.jsonl"), filepath.Join(dir, "p.jsonl")
	for _, args := range [][]string{
		{"generate", "--fragment", "V", "--count", "10", "--seed", "5", "--proofs", "-q", "--out", in},
		{"prompt", in, "--cot", "-q", "--out", rows},
	} {
		if code, _, stderr := nlsat(context.Background(), "", args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	recs := map[string]dataset.Record{}
	eachJSON(t, in, func(b []byte) {
		var r dataset.Record
		json.Unmarshal(b, &r)
		recs[r.ID] = r
	})
	lastCite := regexp.MustCompile(`by [0-9, ]+\nAnswer`)
	var good, broken bytes.Buffer
	eachJSON(t, rows, func(b []byte) {
		var row struct {
			ID        string `json:"id"`
			TargetCoT string `json:"target_cot"`
		}
		json.Unmarshal(b, &row)
		bad := lastCite.ReplaceAllString(row.TargetCoT, "by 1\nAnswer")
		if r := recs[row.ID]; r.Label == dataset.LabelSat {
			bad = "  1. " + r.Sentences[0] + "   sentence 1\n  2. These cannot all be true: a contradiction.   by 1\nAnswer: unsatisfiable"
		}
		json.NewEncoder(&good).Encode(map[string]string{"id": row.ID, "response": row.TargetCoT})
		json.NewEncoder(&broken).Encode(map[string]string{"id": row.ID, "response": bad})
	})
	var got strings.Builder
	for _, c := range []struct{ name, preds string }{{"gold chains", good.String()}, {"broken chains", broken.String()}} {
		per := filepath.Join(dir, "per.jsonl")
		code, out, stderr := nlsat(context.Background(), c.preds, "eval", "--gold", in, "--pred", "-", "--chains", "--per-record", per)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
		}
		if code, out1, stderr := nlsat(context.Background(), c.preds, "eval", "--gold", in, "--pred", "-", "--chains", "-j", "1"); code != 0 || out1 != out {
			t.Errorf("%s: -j 1 gives exit %d (%s) and a different report:\n%s\nwant\n%s", c.name, code, stderr, out1, out)
		}
		_, chains, _ := strings.Cut(out, "Chains of thought")
		got.WriteString("== " + c.name + "\nChains of thought" + chains)
		eachJSON(t, per, func(b []byte) {
			var r struct {
				ID    string          `json:"id"`
				Gold  int             `json:"gold"`
				Chain json.RawMessage `json:"chain"`
			}
			json.Unmarshal(b, &r)
			if c.name == "gold chains" && r.Gold == dataset.LabelUnsat && !bytes.Contains(r.Chain, []byte(`"valid":true`)) {
				t.Errorf("the gold chain of %s is not valid: %s", r.ID, r.Chain)
			}
			got.WriteString(r.ID + " " + string(r.Chain) + "\n")
		})
	}
	checkGolden(t, "eval-chains.golden", got.String())
}

// eachJSON calls fn with every line of a JSONL file.
func eachJSON(t *testing.T, name string, fn func([]byte)) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		fn(line)
	}
}
