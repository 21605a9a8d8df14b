package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/split"
)

// TestMain lets a test run the real program in a child process, so that
// it can be killed, or stand in for kubectl (fakeKubectl).
func TestMain(m *testing.M) {
	if os.Getenv("NLSAT_TEST_RUN_MAIN") == "1" {
		main()
		return
	}
	if os.Getenv("NLSAT_TEST_FAKE_KUBECTL") == "1" {
		os.Exit(fakeKubectl(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// tree returns every file under dir by its slash path.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameFiles(t *testing.T, want, got map[string]string) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%d files, want %d", len(got), len(want))
	}
	for name, w := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s missing", name)
		} else if g != w {
			t.Errorf("%s differs", name)
		}
	}
}

var smallSplit = []string{"split", "--fragment", "V", "--train", "300", "--validation", "60", "--test", "60", "--zero-shot", "60", "--seed", "5"}

func TestSplitCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "V")
	code, _, stderr := nlsat(context.Background(), "", append(smallSplit, "--out", dir, "-j", "2")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"data/train.jsonl", "300 instances (150 sat, 150 unsat)", "set zero-shot:"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("summary lacks %q:\n%s", want, stderr)
		}
	}
	if err := split.Verify(dir); err != nil {
		t.Fatal(err)
	}
	card, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	for _, want := range []string{"config_name: zero-shot", "path: data/validation.jsonl", "'1': sat", "license: cc-by-4.0",
		"nlsat split --fragment V --train 300 --validation 60 --test 60 --generalisation 0 --zero-shot 60 --seed 5"} {
		if !strings.Contains(string(card), want) {
			t.Errorf("card lacks %q", want)
		}
	}
	// Again: nothing to do.
	code, _, stderr = nlsat(context.Background(), "", append(smallSplit, "--out", dir)...)
	if code != 0 || !strings.Contains(stderr, "nothing to do") {
		t.Errorf("second run: exit %d: %s", code, stderr)
	}
	if testing.Short() {
		return // -j 1 against -j 2 is the full suite's
	}
	// One worker gives the same bytes.
	dir1 := filepath.Join(t.TempDir(), "V")
	if code, _, stderr := nlsat(context.Background(), "", append(smallSplit, "--out", dir1, "-j", "1", "-q")...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sameFiles(t, tree(t, dir), tree(t, dir1))
}

func TestSplitBadInput(t *testing.T) {
	notEmpty := t.TempDir()
	os.WriteFile(filepath.Join(notEmpty, "x"), nil, 0o644)
	region := filepath.Join(t.TempDir(), "region.json")
	os.WriteFile(region, []byte(`{"fragment": "S", "band": {"lo": 0.3, "hi": 0.7}, "sampler": {"own_share": 0.5, "neg_prob": 0.5, "distinct": true}, "points": [{"m": 8, "n1": 6, "n2": 0}]}`), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"odd size", []string{"--train", "101"}, exitUsage, "--train: train: size 101 must be even"},
		{"nothing", []string{"--train", "0", "--validation", "0", "--test", "0"}, exitUsage, "nothing to build"},
		{"region of another fragment", []string{"--fragment", "A", "--region", region}, exitUsage, "is a region of fragment S, not of --fragment A"},
		{"sampler mismatch", []string{"--fragment", "S", "--neg-prob", "0.3"}, exitUsage, "measured with sampler parameters"},
		{"draw limit", []string{"--draw-limit", "0"}, exitUsage, "--draw-limit must be at least 1"},
		{"preset", []string{"--preset", "huge"}, exitUsage, "huge"},
		{"pair of another fragment", []string{"--fragment", "V", "--holdout", "templates", "--holdout-pairs", "V1+A2"}, exitUsage, `"A2" is not a template of fragment V`},
		{"not a pair", []string{"--fragment", "V", "--holdout", "templates", "--holdout-pairs", "V1"}, exitUsage, `"V1" is not a pair of templates such as V1+V2`},
		{"pair twice the same", []string{"--fragment", "V", "--holdout", "templates", "--holdout-pairs", "V1+V1"}, exitUsage, "needs two different templates"},
		{"difficulty zero", []string{"--holdout", "difficulty", "--holdout-mus", "0"}, exitUsage, "--holdout-mus must be at least 1"},
		{"balance", []string{"--balance", "labels"}, exitUsage, "labels"},
		{"tiny pilot", []string{"--balance-pilot", "10"}, exitUsage, "balance pilot 10: expected at least 100"},
		{"non-empty output", []string{"--fragment", "S", "--train", "20", "--validation", "0", "--test", "0", "--out", notEmpty}, exitUsage, "is not empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"split", "-q"}, tt.args...)
			if !strings.Contains(strings.Join(tt.args, " "), "--out") {
				args = append(args, "--out", filepath.Join(t.TempDir(), "out"))
			}
			code, _, stderr := nlsat(context.Background(), "", args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}

// TestSplitSurvivesKill kills the program with SIGKILL at random points,
// runs it again each time, and compares the final bytes with an
// uninterrupted split.
func TestSplitSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a dataset several times")
	}
	// A pilot of 1,000, not the 9,600 the flags would draw: the test is
	// of kills and resumes, at whatever step they land.
	split := []string{"split", "--fragment", "V", "--train", "1000", "--validation", "100", "--test", "100", "--zero-shot", "60", "--seed", "6",
		"--balance-pilot", "1000"}
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, stderr := nlsat(context.Background(), "", append(split, "--out", ref, "-q")...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := tree(t, ref)

	dir := filepath.Join(t.TempDir(), "killed")
	args := append(split, "--out", dir, "-q", "--checkpoint-every", "20ms")
	kills := killRepeatedly(t, args, 6, rand.New(rand.NewPCG(1, 2)), 60*time.Millisecond, 300*time.Millisecond, nil)
	if code, _, stderr := nlsat(context.Background(), "", args...); code != 0 {
		t.Fatalf("final run: exit %d: %s", code, stderr)
	}
	if kills == 0 {
		t.Fatal("no run was killed")
	}
	t.Logf("%d kills", kills)
	sameFiles(t, want, tree(t, dir))
}

// TestSplitShardsMerge runs a split as 3 shards in parallel processes,
// each finding its index another way, merges them, and compares the
// result with an unsharded run. (The split package's tests merge one
// shard and three; TestOutputsUnchanged pins a merge of shards named by
// --shard-index.)
func TestSplitShardsMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a dataset as shards in child processes")
	}
	split := []string{"split", "--fragment", "Z", "--train", "400", "--validation", "40", "--test", "40", "--zero-shot", "60", "--seed", "8", "-q",
		"--balance-pilot", "1000"}
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, stderr := nlsat(context.Background(), "", append(split, "--out", ref)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := tree(t, ref)
	const n = 3
	base := t.TempDir()
	dirs := make([]string, n)
	out := filepath.Join(base, "merged")
	// The shards and the merge take turns: pilots, residual pilots,
	// candidates.
	for turn := 1; turn <= 3; turn++ {
		runShards(t, n, func(i int) ([]string, []string) {
			dir := filepath.Join(base, fmt.Sprint("shard", i))
			dirs[i] = dir
			// Two shards take their index from a Slurm array's
			// environment, the third from Kubernetes' with its count
			// from a flag.
			args := append(split, "--out", dir, "-j", "1")
			if i < 2 {
				return args, []string{"SLURM_ARRAY_TASK_ID=" + fmt.Sprint(i+1), "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=3"}
			}
			return append(args, "--shard-count", "3"), []string{"JOB_COMPLETION_INDEX=" + fmt.Sprint(i)}
		})
		code, _, stderr := nlsat(context.Background(), "", append([]string{"merge", "--out", out}, dirs...)...)
		if code != 0 {
			t.Fatalf("merge, turn %d: exit %d: %s", turn, code, stderr)
		}
		_, err := os.Stat(filepath.Join(out, "manifest.json"))
		if done := err == nil; done != (turn == 3) {
			t.Fatalf("merge, turn %d: done %v: %s", turn, done, stderr)
		}
		if turn < 3 && !strings.Contains(stderr, "run the shards again") {
			t.Errorf("merge, turn %d, does not say what comes next: %s", turn, stderr)
		}
	}
	sameFiles(t, want, tree(t, out))
	code, _, stderr := nlsat(context.Background(), "", "merge", "--out", filepath.Join(base, "partial"), dirs[0], dirs[2])
	if code != exitUsage || !strings.Contains(stderr, "shards [1] of 3 are missing") {
		t.Errorf("merge without shard 1: exit %d: %s", code, stderr)
	}
	// The shards removed their pilots once merged: a new merge is
	// refused, naming what is gone.
	code, _, stderr = nlsat(context.Background(), "", append([]string{"merge", "--out", filepath.Join(base, "again")}, dirs...)...)
	if code != exitUsage || !strings.Contains(stderr, "removed its main-pilot.jsonl.gz once a merge had read it") {
		t.Errorf("a new merge of merged shards: exit %d: %s", code, stderr)
	}
}

// heldOutSplit is what TestSplitHoldouts reads of one split file.
type heldOutSplit struct {
	n          []int
	words      map[string]bool
	sat, unsat int
	unsatRecs  []*dataset.Record
	templates  []map[string]bool // per record, its templates (A1, not A1.every)
}

// readHeldOut reads split name of the dataset in dir.
func readHeldOut(t *testing.T, dir, name string) heldOutSplit {
	t.Helper()
	sp := heldOutSplit{words: map[string]bool{}}
	err := dataset.EachRecord(filepath.Join(dir, "data", name+".jsonl"), nil, func(r *dataset.Record, _ string) error {
		sp.n = append(sp.n, r.N1+r.N2)
		ts := map[string]bool{}
		for _, id := range r.Templates {
			ts[strings.SplitN(id, ".", 2)[0]] = true
		}
		sp.templates = append(sp.templates, ts)
		for _, w := range append(slices.Clone(r.Nouns), r.Verbs...) {
			sp.words[w] = true
		}
		if r.Label == dataset.LabelSat {
			sp.sat++
		} else {
			sp.unsat++
			sp.unsatRecs = append(sp.unsatRecs, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestSplitHoldouts checks that each held-out split holds out what it
// claims, reading the files independently of the builder.
func TestSplitHoldouts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a dataset per hold-out")
	}
	checks := map[string]func(t *testing.T, m *split.Manifest, train, val, test heldOutSplit){
		"size": checkSizeHoldout, "vocabulary": checkVocabularyHoldout,
		"difficulty": checkDifficultyHoldout, "templates": checkTemplatesHoldout,
	}
	for _, kind := range []string{"size", "vocabulary", "difficulty", "templates"} {
		t.Run(kind, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), kind)
			code, _, stderr := nlsat(context.Background(), "", "split", "--fragment", "W", "--train", "400", "--validation", "40",
				"--test", "100", "--holdout", kind, "--seed", "2", "-q", "--balance-pilot", "1000", "--out", dir)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			m, err := split.ReadManifest(filepath.Join(dir, "manifest.json"))
			if err != nil {
				t.Fatal(err)
			}
			train, val, test := readHeldOut(t, dir, "train"), readHeldOut(t, dir, "validation"), readHeldOut(t, dir, "test")
			for name, sp := range map[string]heldOutSplit{"train": train, "validation": val, "test": test} {
				if sp.sat != sp.unsat {
					t.Errorf("%s: %d sat, %d unsat", name, sp.sat, sp.unsat)
				}
			}
			checks[kind](t, m, train, val, test)
		})
	}
}

func checkSizeHoldout(t *testing.T, m *split.Manifest, train, val, test heldOutSplit) {
	cut := m.Plan.Holdout.MaxTrainN
	if slices.Max(append(train.n, val.n...)) > cut || slices.Min(test.n) <= cut {
		t.Errorf("train/validation n up to %d, test n from %d; the cut is %d",
			slices.Max(append(train.n, val.n...)), slices.Min(test.n), cut)
	}
}

func checkTemplatesHoldout(t *testing.T, m *split.Manifest, train, val, test heldOutSplit) {
	if !reflect.DeepEqual(m.Plan.Holdout.HeldPairs, [][2]string{{"W1", "W2"}}) {
		t.Errorf("held-out pairs %v, want the default W1+W2", m.Plan.Holdout.HeldPairs)
	}
	both := func(ts map[string]bool) bool { return ts["W1"] && ts["W2"] }
	seen := map[string]bool{}
	for name, sp := range map[string]heldOutSplit{"train": train, "validation": val} {
		for i, ts := range sp.templates {
			if both(ts) {
				t.Errorf("%s record %d holds W1 and W2", name, i)
			}
			for tm := range ts {
				seen[tm] = true
			}
		}
	}
	if !seen["W1"] || !seen["W2"] {
		t.Errorf("train and validation use templates %v: the held-out ones should still occur, only never together", seen)
	}
	for i, ts := range test.templates {
		if !both(ts) {
			t.Errorf("test record %d lacks W1 or W2: %v", i, ts)
		}
	}
}

func checkDifficultyHoldout(t *testing.T, m *split.Manifest, train, val, test heldOutSplit) {
	k := m.Plan.Holdout.MaxTrainMUS
	if k != 3 {
		t.Errorf("the manifest says MUS up to %d, not the default 3", k)
	}
	for _, r := range append(train.unsatRecs, val.unsatRecs...) {
		if len(r.Certificate.MUS) > k || r.Difficulty.MUSSize != len(r.Certificate.MUS) {
			t.Errorf("%s: MUS %v in train or validation (difficulty %d)", r.ID, r.Certificate.MUS, r.Difficulty.MUSSize)
		}
	}
	// Every subset of at most k sentences of a test unsat instance is
	// satisfiable: solve each one.
	b := native.New(native.Options{})
	for _, r := range test.unsatRecs {
		fs := recordFormulas(t, r)
		var walk func(from int, idx []int)
		walk = func(from int, idx []int) {
			if len(idx) > 0 {
				var sub []fol.Formula
				for _, i := range idx {
					sub = append(sub, fs[i])
				}
				res, err := b.Solve(context.Background(), &solver.Problem{Sentences: sub})
				if err != nil || res.Status != solver.Sat {
					t.Fatalf("%s: sentences %v are %v (%v), in a test instance of difficulty above %d", r.ID, idx, res.Status, err, k)
				}
			}
			if len(idx) < k {
				for i := from; i < len(fs); i++ {
					walk(i+1, append(slices.Clone(idx), i))
				}
			}
		}
		walk(0, nil)
	}
	if m.Sets[0].HeldOut == 0 {
		t.Error("no candidate was held out: the test does not exercise the rule")
	}
}

func checkVocabularyHoldout(t *testing.T, m *split.Manifest, train, val, test heldOutSplit) {
	held := map[string]bool{}
	for _, w := range append(m.Plan.Holdout.TestNouns, m.Plan.Holdout.TestVerbs...) {
		held[w] = true
	}
	for w := range test.words {
		if !held[w] {
			t.Errorf("test uses %q, which is not held out", w)
		}
	}
	for w := range train.words {
		if held[w] || test.words[w] {
			t.Errorf("train uses the held-out word %q", w)
		}
	}
	for w := range val.words {
		if held[w] {
			t.Errorf("validation uses the held-out word %q", w)
		}
	}
}

// killRepeatedly runs the program with args in a child process rounds
// times, killing it with SIGKILL after a random delay in [least,
// least+spread) unless it ends first; after each kill it calls check (if
// set). It returns the number of kills.
func killRepeatedly(t *testing.T, args []string, rounds int, rng *rand.Rand, least, spread time.Duration, check func()) int {
	t.Helper()
	kills := 0
	for range rounds {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "NLSAT_TEST_RUN_MAIN=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(least + time.Duration(rng.Int64N(int64(spread)))):
			cmd.Process.Kill()
			<-done
			kills++
			if check != nil {
				check()
			}
		}
	}
	return kills
}

// runShards runs n shards of the program in parallel child processes,
// shard i with the arguments and extra environment that setup(i) returns,
// and waits for all of them to succeed.
func runShards(t *testing.T, n int, setup func(i int) (args, env []string)) {
	t.Helper()
	var cmds []*exec.Cmd
	for i := range n {
		args, env := setup(i)
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(append(os.Environ(), "NLSAT_TEST_RUN_MAIN=1"), env...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("shard %d of %d: %v", i, n, err)
		}
	}
}

// TestSplitMinCore builds with --min-core 3 and solves every pair of
// sentences of every unsat record of every split: all are satisfiable,
// and the records say so (no unsat_pair); the splits stay balanced.
func TestSplitMinCore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a dataset")
	}
	dir := filepath.Join(t.TempDir(), "ds")
	code, _, stderr := nlsat(context.Background(), "", "split", "--fragment", "W", "--train", "400", "--validation", "40",
		"--test", "100", "--min-core", "3", "--seed", "2", "-q", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := split.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Plan.MinCore != 3 || m.Sets[0].HeldOut == 0 {
		t.Errorf("min core %d, %d candidates held out: the rule was not applied", m.Plan.MinCore, m.Sets[0].HeldOut)
	}
	b := native.New(native.Options{})
	for _, name := range []string{"train", "validation", "test"} {
		sp := readHeldOut(t, dir, name)
		if sp.sat != sp.unsat {
			t.Errorf("%s: %d sat, %d unsat", name, sp.sat, sp.unsat)
		}
		for _, r := range sp.unsatRecs {
			if len(r.Difficulty.UnsatPair) > 0 || len(r.Certificate.MUS) < 3 {
				t.Errorf("%s: unsat pair %v, MUS %v", r.ID, r.Difficulty.UnsatPair, r.Certificate.MUS)
			}
			fs := recordFormulas(t, r)
			for i := range fs {
				for j := i; j < len(fs); j++ {
					res, err := b.Solve(context.Background(), &solver.Problem{Sentences: []fol.Formula{fs[i], fs[j]}})
					if err != nil || res.Status != solver.Sat {
						t.Fatalf("%s: sentences %d and %d are %v (%v) under --min-core 3", r.ID, i, j, res.Status, err)
					}
				}
			}
		}
	}
}

// TestSplitDefaultOut: the output directory a build writes to when --out
// is not given, for every task and as a shard.
func TestSplitDefaultOut(t *testing.T) {
	for _, tc := range []struct {
		out, fragments, suffix string
		sharded                bool
		want                   string
	}{
		{"", "S", "", false, "nlsat-S"},
		{"", "S,W", "", true, "nlsat-SW-shard-1-of-4"},
		{"", "V", "entailment", false, "nlsat-V-entailment"},
		{"", "S,W,V,Z,A", "entailment", true, "nlsat-SWVZA-entailment-shard-1-of-4"},
		{"mine", "V", "entailment", true, "mine"},
	} {
		o := &splitOptions{out: tc.out}
		o.shard.slot.Index, o.shard.slot.Count = 1, 4
		o.defaultOut(tc.fragments, tc.suffix, tc.sharded)
		if o.out != tc.want {
			t.Errorf("defaultOut(%q, %q, %v) with --out %q = %q, want %q", tc.fragments, tc.suffix, tc.sharded, tc.out, o.out, tc.want)
		}
	}
}
