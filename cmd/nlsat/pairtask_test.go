package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/task"
	"github.com/nlsat/nlsat/internal/task/pairtask"
)

// The pair task is registered in this test binary only: the line a new
// task's package adds to cmd/nlsat/tasks.go.
func init() { task.Register(pairtask.Task) }

// TestThirdTask runs a task that nothing outside its package knows
// through the drivers: generate (one run, and shards merged into its
// bytes), prompt, split (one run, and shards merged into its bytes),
// eval and audit.
func TestThirdTask(t *testing.T) {
	dir := t.TempDir()
	gen := []string{"generate", "--task", "pair", "--fragment", "S", "--n1", "2", "--m", "2", "--count", "40", "--seed", "3", "-q"}
	one := filepath.Join(dir, "pairs.jsonl")
	if code, _, stderr := nlsat(context.Background(), "", append(gen, "--out", one)...); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(one)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	labels := map[string]int{}
	for _, l := range lines {
		for _, name := range pairtask.Labels {
			if strings.Contains(l, `"label_text":"`+name+`"`) {
				labels[name]++
			}
		}
	}
	if len(lines) != 40 || labels["consistent"] == 0 || labels["inconsistent"] == 0 {
		t.Fatalf("generate --task pair wrote %d records, labels %v", len(lines), labels)
	}
	var dirs []string
	for i := range 2 {
		dirs = append(dirs, filepath.Join(dir, fmt.Sprint("shard", i)))
		args := append(gen, "--out", dirs[i], "--shard-index", fmt.Sprint(i), "--shard-count", "2", "--oversample", "1.5")
		if code, _, stderr := nlsat(context.Background(), "", args...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if code, _, stderr := nlsat(context.Background(), "", append([]string{"merge", "-q", "--out", merged}, dirs...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(merged); string(got) != string(b) {
		t.Error("generate --task pair: merged shards differ from one run")
	}
	if got, err := task.Detect(one); err != nil || got != pairtask.Task {
		t.Errorf("Detect(pair records) = %v, %v", got, err)
	}
	other, prompts := filepath.Join(dir, "other.jsonl"), filepath.Join(dir, "prompts", "p.jsonl")
	if code, _, stderr := nlsat(context.Background(), "", slices.Concat(gen[:len(gen)-3], []string{"--seed", "4", "-q", "--out", other})...); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	if err := os.Mkdir(filepath.Dir(prompts), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := nlsat(context.Background(), "", "prompt", one, "--fewshot", other, "--name", "t", "--out", prompts)
	if want := "nlsat: wrote 40 pair prompt rows to " + prompts + " and tasks t_pair, t_pair_gen\n"; code != 0 || stderr != want {
		t.Errorf("prompt: exit %d, stderr %q, want %q", code, stderr, want)
	}
	if rows := readRows(t, prompts); len(rows) != 40 || !strings.HasSuffix(rows[0]["prompt"].(string), rows[0]["text"].(string)+"\n\nA:") {
		t.Errorf("prompt --task pair: %d rows, the first %v", len(rows), rows[0])
	}
	c := readTaskConfig(t, filepath.Join(dir, "prompts", "t_pair.yaml"))
	for i, row := range readRows(t, prompts) {
		if idx, ok := row[c.DocToTarget].(float64); !ok || c.DocToChoice[int(idx)] != row["target"] || c.FewshotSplit != "validation" {
			t.Errorf("t_pair: row %d: choices %v, target %v, want %v", i, c.DocToChoice, row[c.DocToTarget], row["target"])
		}
	}
	code, _, stderr = nlsat(context.Background(), "", "prompt", one, "--cot", "--fewshot", other, "--out", prompts)
	if code != exitUsage || !strings.Contains(stderr, "--cot needs sat/unsat records") {
		t.Errorf("prompt --cot of pair records: exit %d, stderr %q", code, stderr)
	}
	splitPairs(t, dir)
}

// splitPairs builds a balanced dataset of the pair task, as one run and
// as two shards merged, and evaluates and audits it.
func splitPairs(t *testing.T, dir string) {
	t.Helper()
	build := []string{"split", "--task", "pair", "--fragment", "S", "--train", "40", "--validation", "20", "--test", "20", "--seed", "5", "-q"}
	one := filepath.Join(dir, "set")
	if code, _, stderr := nlsat(context.Background(), "", append(build, "--out", one)...); code != 0 {
		t.Fatalf("split --task pair: exit %d: %s", code, stderr)
	}
	var shards []string
	for i := range 2 {
		shards = append(shards, filepath.Join(dir, fmt.Sprint("set-shard", i)))
		if code, _, stderr := nlsat(context.Background(), "", append(build, "--out", shards[i], "--shard-index", fmt.Sprint(i), "--shard-count", "2")...); code != 0 {
			t.Fatalf("split --task pair shard %d: exit %d: %s", i, code, stderr)
		}
	}
	merged := filepath.Join(dir, "set-merged")
	if code, _, stderr := nlsat(context.Background(), "", append([]string{"merge", "-q", "--out", merged}, shards...)...); code != 0 {
		t.Fatalf("merge of split --task pair shards: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"data/train.jsonl", "data/validation.jsonl", "data/test.jsonl", "manifest.json", "README.md", "SHA256SUMS"} {
		want, err := os.ReadFile(filepath.Join(one, f))
		got, _ := os.ReadFile(filepath.Join(merged, f))
		if err != nil || string(got) != string(want) {
			t.Errorf("split --task pair: merged %s differs from one run's (%v)", f, err)
		}
	}
	test := filepath.Join(one, "data", "test.jsonl")
	b, _ := os.ReadFile(test)
	var preds strings.Builder
	perLabel := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r pairtask.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		perLabel[r.LabelText]++
		fmt.Fprintf(&preds, "{\"id\":%q,\"label\":1}\n", r.ID)
	}
	if perLabel["consistent"] != 10 || perLabel["inconsistent"] != 10 {
		t.Errorf("split --task pair: test holds %v, not 10 of each label", perLabel)
	}
	predFile := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(predFile, []byte(preds.String()), 0o644)
	code, out, stderr := nlsat(context.Background(), "", "eval", "--gold", test, "--pred", predFile, "--json")
	var rep struct {
		Overall struct {
			Accuracy float64 `json:"accuracy"`
		} `json:"overall"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Overall.Accuracy != 0.5 {
		t.Errorf("eval of pair records answering consistent: exit %d, accuracy %v (want 0.5): %s%s", code, rep.Overall.Accuracy, out, stderr)
	}
	// The audit runs on the task's records; the toy task's inconsistent
	// pairs share their nouns, which the structure of the text shows.
	code, out, stderr = nlsat(context.Background(), "", "audit", one)
	if code != 0 || !strings.Contains(out, "Shortcut audit of "+one) || !strings.Contains(out, "gbm-structure") {
		t.Errorf("audit of a pair dataset: exit %d: %s%s", code, out, stderr)
	}
}
