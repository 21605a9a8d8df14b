package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/proof"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/split"
)

// checkProofFile re-checks, with proof.Check and without the search that
// found them, every proof of a records file written with --proofs, and
// the fields around them: [] and depth 0 for sat, [] and -1 for unsat
// without a proof, and otherwise a proof of the depth recorded whose
// given steps are the record's MUS. It returns the depths of the proved
// unsat records.
func checkProofFile(t *testing.T, name string) []int {
	t.Helper()
	data, err := dataset.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	b, lx := native.New(native.Options{}), fragments.Default()
	var depths []int
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r dataset.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Proof == nil || r.Difficulty.ProofDepth == nil {
			t.Fatalf("%s: %s lacks proof or proof_depth", name, r.ID)
		}
		depth := *r.Difficulty.ProofDepth
		switch {
		case r.Label != dataset.LabelUnsat || depth == dataset.NoProof:
			if len(r.Proof) != 0 || depth != 0 && r.Label != dataset.LabelUnsat {
				t.Errorf("%s: label %d, depth %d, %d steps", r.ID, r.Label, depth, len(r.Proof))
			}
			continue
		}
		sents, err := lx.ParseText(r.Text)
		if err != nil {
			t.Fatal(err)
		}
		p, err := dataset.ProofOf(r.Proof)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		if err := proof.Check(context.Background(), b, lx, sents, p); err != nil {
			t.Errorf("%s: the proof written fails its check: %v", r.ID, err)
		}
		given := 0
		for _, s := range r.Proof {
			if s.Rule == string(proof.Given) {
				given++
			}
		}
		if p.Depth() != depth || given != len(r.Certificate.MUS) {
			t.Errorf("%s: depth %d recorded, %d checked; %d given steps for a MUS of %d", r.ID, depth, p.Depth(), given, len(r.Certificate.MUS))
		}
		depths = append(depths, depth)
	}
	return depths
}

// TestGenerateProofs writes every fragment with --proofs, as JSONL and as
// Parquet (which must read back as the same lines), and re-checks every
// proof; without --proofs the records are those of TestOutputsUnchanged.
func TestGenerateProofs(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"S", "W", "V", "Z", "A"} {
		t.Run(f, func(t *testing.T) {
			var files []string
			for _, ext := range []string{"jsonl", "parquet"} {
				out := filepath.Join(dir, f+"."+ext)
				code, _, stderr := nlsat(context.Background(), "", "generate", "--fragment", f, "--count", "60", "--seed", "3", "--proofs", "-q", "--out", out)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				files = append(files, out)
			}
			if depths := checkProofFile(t, files[0]); len(depths) == 0 {
				t.Errorf("no unsat record got a proof")
			}
			a, _ := os.ReadFile(files[0])
			b, err := dataset.ReadFile(files[1])
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("the Parquet file reads back otherwise than its JSONL twin (%v)", err)
			}
		})
	}
	code, _, stderr := nlsat(context.Background(), "", "generate", "--fragment", "S", "--count", "5", "--solver", "none", "--proofs")
	if code != 2 {
		t.Errorf("--proofs with --solver none: exit %d, want 2: %s", code, stderr)
	}
}

// TestSplitHoldoutDepth builds a small S dataset held out by proof depth
// (train shallow, test deep): every test unsat proof is deeper than every
// train and validation unsat proof, every proof passes proof.Check again,
// every split is balanced, and the audit finds no shortcut.
func TestSplitHoldoutDepth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a dataset")
	}
	dir := filepath.Join(t.TempDir(), "depth")
	code, _, stderr := nlsat(context.Background(), "", "split", "--fragment", "S", "--train", "400", "--validation", "40",
		"--test", "100", "--holdout", "depth", "--seed", "2", "-q", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := split.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if d := m.Plan.Holdout.MaxTrainDepth; d != split.DefaultHoldoutDepth || m.RecordSchema != dataset.ProofSchemaVersion {
		t.Errorf("manifest: depth %d, schema %s", d, m.RecordSchema)
	}
	depths := map[string][]int{}
	for _, name := range []string{"train", "validation", "test"} {
		depths[name] = checkProofFile(t, filepath.Join(dir, "data", name+".jsonl"))
		if sp := readHeldOut(t, dir, name); sp.sat != sp.unsat || len(depths[name]) != sp.unsat {
			t.Errorf("%s: %d sat, %d unsat, %d proved", name, sp.sat, sp.unsat, len(depths[name]))
		}
	}
	shallow := slices.Max(append(depths["train"], depths["validation"]...))
	if deep := slices.Min(depths["test"]); shallow > m.Plan.Holdout.MaxTrainDepth || deep <= m.Plan.Holdout.MaxTrainDepth {
		t.Errorf("train and validation depths up to %d, test from %d", shallow, deep)
	}
	var rep audit.Report
	if err := json.Unmarshal(m.Audit, &rep); err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Verdict.Shortcut {
			t.Errorf("%s: the audit finds a shortcut: %s", r.Split, r.Verdict.Text)
		}
	}
	if len(rep.Results) == 0 {
		t.Error("no audit results")
	}
}

// TestPromptCoT pins the chain-of-thought targets of prompt --cot on a
// small V file written with --proofs (golden: testdata/prompt-cot.golden,
// rewritten with -update) and its lm-eval task (checkCoTTask), and
// refuses records without proofs.
func TestPromptCoT(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "v.jsonl"), filepath.Join(dir, "p.jsonl")
	for _, args := range [][]string{
		{"generate", "--fragment", "V", "--count", "6", "--seed", "3", "--proofs", "-q", "--out", in},
		{"prompt", in, "--cot", "-q", "--out", out},
	} {
		if code, _, stderr := nlsat(context.Background(), "", args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var row struct {
			ID        string `json:"id"`
			TargetCoT string `json:"target_cot"`
		}
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatal(err)
		}
		got.WriteString("== " + row.ID + "\n" + row.TargetCoT + "\n")
	}
	checkGolden(t, "prompt-cot.golden", got.String())
	checkCoTTask(t, filepath.Join(dir, "nlsat_p_satunsat_cot.yaml"), readRows(t, out))
	plain := filepath.Join(dir, "plain.jsonl")
	nlsat(context.Background(), "", "generate", "--fragment", "V", "--count", "2", "-q", "--out", plain)
	if code, _, _ := nlsat(context.Background(), "", "prompt", plain, "--cot", "-q", "--out", filepath.Join(dir, "q.jsonl")); code != 2 {
		t.Errorf("prompt --cot of records without proofs: exit %d, want 2", code)
	}
}

// checkCoTTask reads the chain-of-thought task as lm-evaluation-harness
// would, with no key but those of taskConfig, checks that its columns are
// every row's, and pins it (testdata/prompt/nlsat_p_satunsat_cot.yaml).
func checkCoTTask(t *testing.T, name string, rows []map[string]any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var c taskConfig
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if c.Task != "nlsat_p_satunsat_cot" || c.OutputType != "generate_until" || c.DocToTarget != "target_cot" || len(c.MetricList) != 1 {
		t.Errorf("%s: %+v", name, c)
	}
	for i, row := range rows {
		_, text := row[c.DocToText].(string)
		_, target := row[c.DocToTarget].(string)
		if !text || !target {
			t.Errorf("row %d lacks %s or %s", i, c.DocToText, c.DocToTarget)
		}
	}
	checkGolden(t, filepath.Join("prompt", filepath.Base(name)), string(b))
}
