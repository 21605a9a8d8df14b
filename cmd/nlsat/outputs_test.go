package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/golden"
)

// outputStep is one command of TestOutputsUnchanged: its arguments, where
// "$D" stands for the test's directory, and the files whose bytes it
// pins ("stdout" for its standard output; a name ending in "/" for every
// file under that directory but the varying ones).
type outputStep struct {
	name  string
	args  []string
	files []string
}

// splitFiles are the files of a built dataset that are pinned.
var splitFiles = []string{"data/", "manifest.json", "README.md", "SHA256SUMS"}

// sweepFilesPinned are the files of a phase sweep that do not depend on
// solver times.
var sweepFilesPinned = []string{"points.csv", "points.jsonl", "crossings.csv", "quantifiers.csv", "region.json"}

// outputSteps is a fixed set of commands that covers every command that
// writes data: generate per fragment (with distractors, without a solver,
// as shards), label, split with each hold-out, as shards and joint, split
// --task entailment (as shards, and joint), phase-sweep
// (as shards too), pairs, distract, stats, audit, prompt, eval and solve.
var outputSteps = []outputStep{
	{"generate S", []string{"generate", "--fragment", "S", "--count", "120", "--seed", "3", "--out", "$D/gen-S.jsonl"}, []string{"gen-S.jsonl"}},
	{"generate W", []string{"generate", "--fragment", "W", "--count", "120", "--seed", "3", "--out", "$D/gen-W.jsonl"}, []string{"gen-W.jsonl"}},
	{"generate V", []string{"generate", "--fragment", "V", "--count", "120", "--seed", "3", "--out", "$D/gen-V.jsonl"}, []string{"gen-V.jsonl"}},
	{"generate Z", []string{"generate", "--fragment", "Z", "--count", "120", "--seed", "3", "--out", "$D/gen-Z.jsonl"}, []string{"gen-Z.jsonl"}},
	{"generate A", []string{"generate", "--fragment", "A", "--count", "120", "--seed", "3", "--out", "$D/gen-A.jsonl"}, []string{"gen-A.jsonl"}},
	{"generate distractors", []string{"generate", "--fragment", "V", "--count", "40", "--seed", "4", "--distractors", "2", "--distractor-mode", "implied", "--out", "$D/gen-V-implied.jsonl"}, []string{"gen-V-implied.jsonl"}},
	{"generate stdout", []string{"generate", "--fragment", "W", "--count", "30", "--m", "10-14", "--n1", "7", "--seed", "8"}, []string{"stdout"}},
	{"generate none", []string{"generate", "--fragment", "Z", "--count", "50", "--seed", "5", "--solver", "none", "--out", "$D/gen-Z-none.jsonl"}, []string{"gen-Z-none.jsonl"}},
	{"label", []string{"label", "$D/gen-Z-none.jsonl", "--out", "$D/label-Z.jsonl"}, []string{"label-Z.jsonl"}},
	{"generate shard 0", []string{"generate", "--fragment", "A", "--count", "60", "--seed", "6", "--shard-index", "0", "--shard-count", "2", "--out", "$D/gen-shard0"}, nil},
	{"generate shard 1", []string{"generate", "--fragment", "A", "--count", "60", "--seed", "6", "--shard-index", "1", "--shard-count", "2", "--out", "$D/gen-shard1"}, nil},
	{"merge generate", []string{"merge", "--out", "$D/gen-merged.jsonl", "$D/gen-shard0", "$D/gen-shard1"}, []string{"gen-merged.jsonl"}},
	{"split", []string{"split", "--fragment", "V", "--train", "300", "--validation", "60", "--test", "60", "--zero-shot", "60", "--seed", "5", "--out", "$D/split-V"}, prefixed("split-V/", splitFiles)},
	{"split size", holdoutSplit("size"), prefixed("split-size/", splitFiles)},
	{"split vocabulary", holdoutSplit("vocabulary"), prefixed("split-vocabulary/", splitFiles)},
	{"split difficulty", holdoutSplit("difficulty"), prefixed("split-difficulty/", splitFiles)},
	{"split templates", holdoutSplit("templates"), prefixed("split-templates/", splitFiles)},
	{"split strata", []string{"split", "--fragment", "S", "--train", "200", "--validation", "40", "--test", "40", "--generalisation", "40", "--balance", "strata", "--dedup", "exact", "--seed", "9", "--out", "$D/split-strata"}, prefixed("split-strata/", splitFiles)},
	{"split joint", []string{"split", "--fragment", "S,W", "--train", "40", "--validation", "20", "--test", "20", "--seed", "4", "--out", "$D/split-joint"}, prefixed("split-joint/", splitFiles)},
	// The shards and the merge take three turns: pilots, residual
	// pilots, candidates.
	{"split shard 0", shardSplit(0), nil},
	{"split shard 1", shardSplit(1), nil},
	{"merge split, fitting the balance", mergeSplitShards(), nil},
	{"split shard 0, residual pilot", shardSplit(0), nil},
	{"split shard 1, residual pilot", shardSplit(1), nil},
	{"merge split, fitting the residual stage", mergeSplitShards(), nil},
	{"split shard 0, candidates", shardSplit(0), nil},
	{"split shard 1, candidates", shardSplit(1), nil},
	{"merge split", mergeSplitShards(), prefixed("split-merged/", splitFiles)},
	{"split entailment", entailSplit("$D/entail-S"), prefixed("entail-S/", splitFiles)},
	{"split entailment shard 0", entailSplit("$D/entail-shard0", "--shard-index", "0", "--shard-count", "2"), nil},
	{"split entailment shard 1", entailSplit("$D/entail-shard1", "--shard-index", "1", "--shard-count", "2"), nil},
	{"merge split entailment", []string{"merge", "--out", "$D/entail-merged", "$D/entail-shard0", "$D/entail-shard1"}, prefixed("entail-merged/", splitFiles)},
	{"split entailment joint", []string{"split", "--task", "entailment", "--fragment", "S,W", "--train", "12", "--validation", "6", "--test", "6", "--seed", "2", "--out", "$D/entail-joint"},
		prefixed("entail-joint/", splitFiles)},
	{"phase-sweep", []string{"phase-sweep", "--fragment", "S", "--n1", "6-7", "--m", "4-20", "--m-step", "4", "--samples", "40", "--seed", "1", "--out", "$D/sweep-S"}, prefixed("sweep-S/", sweepFilesPinned)},
	{"phase-sweep adaptive", []string{"phase-sweep", "--fragment", "V", "--n1", "3-4", "--n2", "3", "--alpha", "1-4:1", "--samples", "20", "--adaptive", "--budget", "80", "--seed", "2", "--out", "$D/sweep-V"}, prefixed("sweep-V/", sweepFilesPinned)},
	{"phase-sweep shard 0", shardSweep(0), nil},
	{"phase-sweep shard 1", shardSweep(1), nil},
	{"merge phase-sweep", []string{"merge", "--out", "$D/sweep-merged", "$D/sweep-shard0", "$D/sweep-shard1"},
		slices.Concat(prefixed("sweep-merged/S/", sweepFilesPinned), prefixed("sweep-merged/W/", sweepFilesPinned),
			prefixed("sweep-merged/V/", sweepFilesPinned), prefixed("sweep-merged/Z/", sweepFilesPinned), prefixed("sweep-merged/A/", sweepFilesPinned))},
	{"pairs", []string{"pairs", "$D/gen-S.jsonl", "--out", "$D/pairs-S.jsonl"}, []string{"pairs-S.jsonl"}},
	{"pairs A", []string{"pairs", "$D/gen-A.jsonl", "--out", "$D/pairs-A.jsonl"}, []string{"pairs-A.jsonl"}},
	{"distract fresh", []string{"distract", "$D/split-V/data/test.jsonl", "--count", "3", "--out", "$D/distract-fresh.jsonl"}, []string{"distract-fresh.jsonl"}},
	{"distract implied", []string{"distract", "$D/split-V/data/validation.jsonl", "--count", "2", "--mode", "implied", "--seed", "4", "--out", "$D/distract-implied.jsonl"}, []string{"distract-implied.jsonl"}},
	{"stats", []string{"stats", "$D/gen-S.jsonl", "$D/gen-V.jsonl", "$D/gen-A.jsonl"}, []string{"stdout"}},
	{"stats json", []string{"stats", "--json", "$D/split-V/data/train.jsonl"}, []string{"stdout"}},
	{"audit", []string{"audit", "$D/split-V"}, []string{"stdout"}},
	{"audit json", []string{"audit", "--json", "$D/split-size"}, []string{"stdout"}},
	{"prompt", []string{"prompt", "$D/split-V/data/zero-shot.jsonl", "--out", "$D/prompt/zero-shot.jsonl"}, []string{"prompt/"}},
	{"eval", []string{"eval", "--gold", "$D/split-V/data/test.jsonl", "--pred", "$D/preds.jsonl"}, []string{"stdout"}},
	{"eval json", []string{"eval", "--gold", "$D/split-V", "--pred", "$D/preds.jsonl", "--allow-missing", "--json"}, []string{"stdout"}},
	{"generate entailment", []string{"generate", "--task", "entailment", "--fragment", "V", "--count", "30", "--seed", "3", "--out", "$D/gen-entail-V.jsonl"}, []string{"gen-entail-V.jsonl"}},
	{"generate entailment stdout", []string{"generate", "--task", "entailment", "--fragment", "S", "--count", "12", "--seed", "4"}, []string{"stdout"}},
	{"split entailment A", []string{"split", "--task", "entailment", "--fragment", "A", "--train", "60", "--validation", "12", "--test", "12", "--seed", "5", "--out", "$D/split-entail-A"}, prefixed("split-entail-A/", splitFiles)},
	{"audit entailment", []string{"audit", "$D/split-entail-A"}, []string{"stdout"}},
	{"prompt entailment", []string{"prompt", "$D/split-entail-A/data/test.jsonl", "--out", "$D/prompt-entail/test.jsonl"}, []string{"prompt-entail/"}},
	{"eval entailment", []string{"eval", "--gold", "$D/split-entail-A/data/test.jsonl", "--pred", "$D/entail-preds.jsonl"}, []string{"stdout"}},
	{"eval entailment json", []string{"eval", "--gold", "$D/split-entail-A", "--pred", "$D/entail-preds.jsonl", "--allow-missing", "--json"}, []string{"stdout"}},
	{"solve unsat", []string{"solve", "Every scholar is a poet.", "Every poet loves some musician.", "Some scholar does not love any musician."}, []string{"stdout"}},
	{"solve sat", []string{"solve", "Every scholar is a poet.", "Some poet admires every scholar who does not hate him.", "Some non-poet is not a scholar."}, []string{"stdout"}},
}

func prefixed(dir string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = dir + n
	}
	return out
}

func holdoutSplit(kind string) []string {
	return []string{"split", "--fragment", "W", "--train", "200", "--validation", "40", "--test", "60", "--holdout", kind, "--seed", "2", "--out", "$D/split-" + kind}
}

func shardSplit(i int) []string {
	return []string{"split", "--fragment", "Z", "--train", "200", "--validation", "40", "--test", "40", "--zero-shot", "60", "--seed", "8",
		"--shard-index", fmt.Sprint(i), "--shard-count", "2", "--out", fmt.Sprintf("$D/split-shard%d", i)}
}

// entailSplit is a small entailment build into out, with further flags.
func entailSplit(out string, flags ...string) []string {
	return append([]string{"split", "--task", "entailment", "--fragment", "S", "--train", "30", "--validation", "15", "--test", "15", "--seed", "7", "--out", out}, flags...)
}

func mergeSplitShards() []string {
	return []string{"merge", "--out", "$D/split-merged", "$D/split-shard0", "$D/split-shard1"}
}

func shardSweep(i int) []string {
	return []string{"phase-sweep", "--fragment", "all", "--n1", "6", "--m", "4-12", "--m-step", "4", "--samples", "30", "--seed", "3",
		"--shard-index", fmt.Sprint(i), "--shard-count", "2", "--out", fmt.Sprintf("$D/sweep-shard%d", i)}
}

// TestOutputsUnchanged runs outputSteps and compares the SHA-256 of every
// pinned output with testdata/outputs.sha256: any change to the bytes
// nlsat writes shows up here, and a change that is meant must rewrite the
// file with -update in the same commit.
func TestOutputsUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("builds several datasets")
	}
	dir := t.TempDir()
	for _, d := range []string{"prompt", "prompt-entail"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var got strings.Builder
	var outputs []pinnedOutput
	for _, st := range outputSteps {
		switch st.name {
		case "eval":
			writePredictions(t, filepath.Join(dir, "split-V/data/test.jsonl"), filepath.Join(dir, "preds.jsonl"))
		case "eval entailment":
			writeEntailPredictions(t, filepath.Join(dir, "split-entail-A/data/test.jsonl"), filepath.Join(dir, "entail-preds.jsonl"))
		}
		args := make([]string, len(st.args))
		for i, a := range st.args {
			args[i] = strings.ReplaceAll(a, "$D", dir)
		}
		args = append(args, []string{"-q", "-j", "2"}[:quietFlags(args[0])]...)
		code, stdout, stderr := nlsat(context.Background(), "", args...)
		if code != 0 {
			t.Fatalf("%s: %v: exit %d: %s", st.name, args, code, stderr)
		}
		for _, f := range st.files {
			for _, out := range pinned(t, dir, f, strings.ReplaceAll(stdout, dir, "$D")) {
				out.name = st.name + ": " + out.name
				fmt.Fprintf(&got, "%s  %s\n", out.sum, out.name)
				outputs = append(outputs, out)
			}
		}
	}
	checkLines(t, filepath.Join("testdata", "outputs.lines"), outputs)
	checkGolden(t, "outputs.sha256", got.String())
}

// pinnedOutput is one pinned output: its name, its SHA-256 and its
// content.
type pinnedOutput struct {
	name, sum, content string
}

// checkLines compares each output's lines with the fingerprints stored in
// file (rewritten under -update): a block per output, "== name" and then
// one short hash per line. Where an output changed, it reports the first
// line that differs and what it holds now, so a failure of the pinned
// checksums says what changed, not only that bytes did.
func checkLines(t *testing.T, file string, outputs []pinnedOutput) {
	t.Helper()
	fingerprints := func(content string) []string {
		lines := strings.Split(content, "\n")
		out := make([]string, len(lines))
		for i, l := range lines {
			h := sha256.Sum256([]byte(l))
			out[i] = hex.EncodeToString(h[:4])
		}
		return out
	}
	if golden.Update() {
		var b strings.Builder
		for _, o := range outputs {
			b.WriteString("== " + o.name + "\n" + strings.Join(fingerprints(o.content), "\n") + "\n")
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	stored := map[string][]string{}
	var cur string
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if name, ok := strings.CutPrefix(l, "== "); ok {
			cur = name
			stored[cur] = []string{}
			continue
		}
		stored[cur] = append(stored[cur], l)
	}
	for _, o := range outputs {
		want, ok := stored[o.name]
		if !ok {
			t.Errorf("%s: a new output, not in %s", o.name, file)
			continue
		}
		got := fingerprints(o.content)
		lines := strings.Split(o.content, "\n")
		for i := 0; i < len(got) || i < len(want); i++ {
			switch {
			case i >= len(got):
				t.Errorf("%s: %d lines, %d before: the lines from %d on are gone", o.name, len(got), len(want), i+1)
			case i >= len(want):
				t.Errorf("%s: %d lines, %d before; line %d is new: %.300s", o.name, len(got), len(want), i+1, lines[i])
			case got[i] != want[i]:
				t.Errorf("%s: line %d of %d differs; it now reads: %.300s", o.name, i+1, len(got), lines[i])
			default:
				continue
			}
			break
		}
	}
}

// quietFlags returns how many of "-q", "-j 2" a command takes: the
// labelling commands take both, the readers neither (stats, audit, eval
// and solve write to stdout, prompt and merge take -q only).
func quietFlags(cmd string) int {
	switch cmd {
	case "generate", "label", "split", "phase-sweep", "pairs", "distract":
		return 3
	case "prompt", "merge":
		return 1
	}
	return 0
}

// pinned returns (name, sha256) of the output f: stdout (with dir written
// as $D), a file of dir, or
// every file under a directory of dir in name order.
func pinned(t *testing.T, dir, f, stdout string) []pinnedOutput {
	t.Helper()
	sum := func(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }
	if f == "stdout" {
		return []pinnedOutput{{f, sum([]byte(stdout)), stdout}}
	}
	if !strings.HasSuffix(f, "/") {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		return []pinnedOutput{{f, sum(b), string(b)}}
	}
	files := tree(t, filepath.Join(dir, f))
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []pinnedOutput
	for _, n := range names {
		out = append(out, pinnedOutput{f + n, sum([]byte(files[n])), files[n]})
	}
	return out
}

// writePredictions writes one prediction per gold record: sat for every
// third record, unsat otherwise.
func writePredictions(t *testing.T, gold, out string) {
	t.Helper()
	var b strings.Builder
	i := 0
	err := dataset.EachRecord(gold, nil, func(r *dataset.Record, _ string) error {
		label := 0
		if i%3 == 0 {
			label = 1
		}
		i++
		line, _ := json.Marshal(map[string]any{"id": r.ID, "label": label})
		b.Write(append(line, '\n'))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeEntailPredictions writes one three-way prediction per entailment
// record: its number modulo 3.
func writeEntailPredictions(t *testing.T, gold, out string) {
	t.Helper()
	b, err := os.ReadFile(gold)
	if err != nil {
		t.Fatal(err)
	}
	var w strings.Builder
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		line, _ := json.Marshal(map[string]any{"id": r.ID, "label": i % 3})
		w.Write(append(line, '\n'))
	}
	if err := os.WriteFile(out, []byte(w.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
