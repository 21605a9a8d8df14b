package entail

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/cardtest"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/split"
)

// jointPlan is the plan of a joint build of fs with the given record
// counts per fragment over their shipped regions.
func jointPlan(t testing.TB, fs []fragments.Fragment, train, val, test int, audit bool) *BuildPlan {
	t.Helper()
	p, err := NewBuildPlan(BuildConfig{Fragment: fs[0], Fragments: fs, Train: train, Validation: val, Test: test, Seed: 4,
		Sampler: fragments.DefaultSampler(), DrawLimit: 20, Audit: audit, Solver: "nlsat-native-1"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runShards runs the n shards of p (oversample 0: the default) into
// directories of their own, concurrently, and returns them by index.
func runShards(t *testing.T, p *BuildPlan, n int, oversample float64) []string {
	t.Helper()
	dirs := make([]string, n)
	errs := make(chan error, n)
	for j := range dirs {
		dirs[j] = filepath.Join(t.TempDir(), fmt.Sprint("shard", j))
		go func() {
			_, err := RunShard(context.Background(), p, split.Shard{Index: j, Count: n, Oversample: oversample}, buildOptions(dirs[j], 1))
			errs <- err
		}()
	}
	for range dirs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// merge checks the shard directories and merges them.
func merge(ctx context.Context, dirs []string, o BuildOptions) (*Manifest, error) {
	src, err := job.OpenShards(dirs)
	if err != nil {
		return nil, err
	}
	return Merge(ctx, src, o)
}

// TestShardsMerge builds a dataset of one fragment and a joint one
// unsharded, as one shard and as three, merges the shards (given in any
// order) and compares every file's bytes; the Parquet merge of the
// shards is the Parquet build. The joint build is checked as a user
// would (checkBuild): a third of each label in every (fragment,
// stratum) of every split.
func TestShardsMerge(t *testing.T) {
	cases := []struct {
		name string
		plan func(t *testing.T) *BuildPlan
	}{
		{"S", func(t *testing.T) *BuildPlan { return buildPlan(t, fragments.S, 30, 15, 15, false) }},
		{"S,W,V joint", func(t *testing.T) *BuildPlan {
			return jointPlan(t, []fragments.Fragment{fragments.S, fragments.W, fragments.V}, 18, 9, 9, true)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && strings.Contains(c.name, "joint") {
				t.Skip("builds and audits a joint dataset four times")
			}
			p := c.plan(t)
			ref := t.TempDir()
			if _, err := Build(context.Background(), p, buildOptions(ref, 2)); err != nil {
				t.Fatal(err)
			}
			if p.Joint() {
				checkBuild(t, ref, false)
			}
			want := cardtest.ReadTree(t, ref)
			three := runShards(t, p, 3, 0)
			for _, tt := range []struct {
				name string
				dirs []string
			}{{"one shard", runShards(t, p, 1, 0)}, {"three shards", three}, {"three shards in another order", []string{three[2], three[0], three[1]}}} {
				out := filepath.Join(t.TempDir(), "merged")
				if _, err := merge(context.Background(), tt.dirs, buildOptions(out, 2)); err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
				sameTree(t, tt.name, want, cardtest.ReadTree(t, out))
			}
			if p.Joint() {
				return
			}
			pq := buildOptions(t.TempDir(), 2)
			pq.Output = dataset.Output{Format: dataset.Parquet}
			if _, err := Build(context.Background(), p, pq); err != nil {
				t.Fatal(err)
			}
			merged := buildOptions(filepath.Join(t.TempDir(), "merged"), 2)
			merged.Output = pq.Output
			if _, err := merge(context.Background(), three, merged); err != nil {
				t.Fatal(err)
			}
			sameTree(t, "Parquet", cardtest.ReadTree(t, pq.Dir), cardtest.ReadTree(t, merged.Dir))
		})
	}
}

// TestMergeRefuses checks that a merge refuses shards that are not one
// whole build, with a message that names what is wrong, and writes
// nothing.
func TestMergeRefuses(t *testing.T) {
	p := buildPlan(t, fragments.S, 30, 15, 15, false)
	dirs := runShards(t, p, 3, 0)
	other := buildPlan(t, fragments.S, 30, 15, 15, false)
	other.Seed++
	otherDir := filepath.Join(t.TempDir(), "other")
	if _, err := RunShard(context.Background(), other, split.Shard{Index: 1, Count: 3}, buildOptions(otherDir, 2)); err != nil {
		t.Fatal(err)
	}
	wrongKind := t.TempDir()
	copyTree(t, dirs[1], wrongKind)
	name := filepath.Join(wrongKind, job.ManifestFile)
	data, _ := os.ReadFile(name)
	os.WriteFile(name, []byte(strings.Replace(string(data), `"kind": "`+Kind+`"`, `"kind": "split"`, 1)), 0o644)
	tampered := t.TempDir()
	copyTree(t, dirs[1], tampered)
	cardtest.EditGzip(t, filepath.Join(tampered, "candidates.jsonl.gz"), func(s string) string {
		return strings.Replace(s, `"label":0`, `"label":1`, 1)
	})
	for _, tt := range []struct {
		name string
		dirs []string
		want string
	}{
		{"another seed", []string{dirs[0], otherDir, dirs[2]}, "another configuration or seed"},
		{"missing shard", []string{dirs[0], dirs[2]}, "shards [1] of 3 are missing"},
		{"shard twice", []string{dirs[0], dirs[1], dirs[1], dirs[2]}, "shard 1 is given twice"},
		{"another kind", []string{dirs[0], wrongKind, dirs[2]}, "is a shard of split, not of " + Kind},
		{"tampered file", []string{dirs[0], tampered, dirs[2]}, "was changed or truncated"},
		{"not a shard", []string{dirs[0], t.TempDir(), dirs[2]}, "is not a finished shard"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "merged")
			_, err := merge(context.Background(), tt.dirs, buildOptions(out, 1))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Error("a refused merge wrote output")
			}
		})
	}
}

// TestShardsTooFewCandidates merges shards whose budget cannot fill a
// stratum: the merge fails, naming the stratum.
func TestShardsTooFewCandidates(t *testing.T) {
	p := buildPlan(t, fragments.S, 240, 0, 0, false)
	dirs := runShards(t, p, 2, 0.01)
	_, err := merge(context.Background(), dirs, buildOptions(filepath.Join(t.TempDir(), "out"), 1))
	var short *ShortError
	if !errors.As(err, &short) || !strings.Contains(err.Error(), "stratum "+p.Strata[0].Key+" needs more candidates than the shards drew") {
		t.Fatalf("got %v, want the first stratum's shortfall", err)
	}
}

// TestShardAndMergeResume interrupts a shard twice, and a merge once, and
// compares each with one run straight through; a finished shard run
// again has nothing to do.
func TestShardAndMergeResume(t *testing.T) {
	p := jointPlan(t, []fragments.Fragment{fragments.S, fragments.W}, 30, 15, 15, false)
	sh := split.Shard{Index: 1, Count: 2}
	ref := filepath.Join(t.TempDir(), "ref")
	if _, err := RunShard(context.Background(), p, sh, buildOptions(ref, 2)); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "resumed")
	for round, stop := range []int{5, 20, -1} {
		ctx, cancel := context.WithCancel(context.Background())
		o := buildOptions(dir, 2)
		o.CheckpointEvery = -1
		o.Progress = func(done, _ int) {
			// done counts the shard's share of the stream, drawn or
			// not: it may step past stop.
			if stop >= 0 && done >= stop {
				cancel()
			}
		}
		_, err := RunShard(ctx, p, sh, o)
		cancel()
		if stop < 0 && err != nil || stop >= 0 && !errors.Is(err, context.Canceled) {
			t.Fatalf("round %d: %v", round, err)
		}
		if _, serr := os.Stat(filepath.Join(dir, job.ManifestFile)); (serr == nil) != (stop < 0) {
			t.Fatalf("round %d: shard manifest present: %v", round, serr == nil)
		}
	}
	sameTree(t, "resumed shard", cardtest.ReadTree(t, ref), cardtest.ReadTree(t, dir))
	if _, err := RunShard(context.Background(), p, sh, buildOptions(dir, 2)); !errors.Is(err, split.ErrAlreadyBuilt) {
		t.Errorf("running the finished shard again: %v, want ErrAlreadyBuilt", err)
	}

	first := filepath.Join(t.TempDir(), "shard0")
	if _, err := RunShard(context.Background(), p, split.Shard{Index: 0, Count: 2}, buildOptions(first, 2)); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(t.TempDir(), "want")
	if _, err := merge(context.Background(), []string{first, dir}, buildOptions(want, 1)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "merged")
	ctx, cancel := context.WithCancel(context.Background())
	o := buildOptions(out, 1)
	o.CheckpointEvery = -1
	o.Progress = func(accepted, _ int) {
		if accepted == 7 {
			cancel()
		}
	}
	if _, err := merge(ctx, []string{first, dir}, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want canceled", err)
	}
	cancel()
	if _, err := merge(context.Background(), []string{first, dir}, buildOptions(out, 1)); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "resumed merge", cardtest.ReadTree(t, want), cardtest.ReadTree(t, out))
	if _, err := merge(context.Background(), []string{first, dir}, buildOptions(out, 1)); !errors.Is(err, split.ErrAlreadyBuilt) {
		t.Errorf("merging again into the same directory: %v, want ErrAlreadyBuilt", err)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	for name, data := range cardtest.ReadTree(t, from) {
		dst := filepath.Join(to, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
