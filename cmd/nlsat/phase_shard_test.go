package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sweepFiles returns the files of a sweep that do not depend on solver
// times (timing.csv and the time figures do).
func sweepFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, data := range tree(t, dir) {
		// The done stamp holds the checksums of the timings too.
		if !strings.Contains(name, "time-alpha") && !strings.HasSuffix(name, "timing.csv") && !strings.HasSuffix(name, ".nlsat-done.json") {
			out[name] = data
		}
	}
	return out
}

var smallSweep = []string{"phase-sweep", "--fragment", "all", "--n1", "3-4", "--n2", "3", "--m", "6-14", "--samples", "40", "--seed", "3", "-q"}

// TestPhaseSweepShardsMerge runs a sweep as 3 shards in parallel processes
// and as 1 shard, merges each, and compares with an unsharded sweep, whose
// figures it checks too (checkSweepFigures: one sweep serves both, as
// drawing at 300 dpi is the slow part).
func TestPhaseSweepShardsMerge(t *testing.T) {
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, stderr := nlsat(context.Background(), "", append(smallSweep, "--out", ref)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkSweepFigures(t, ref)
	want := sweepFiles(t, ref)
	for _, n := range []int{1, 3} {
		base := t.TempDir()
		var dirs []string
		runShards(t, n, func(i int) ([]string, []string) {
			dirs = append(dirs, filepath.Join(base, fmt.Sprint("shard", i)))
			return append(smallSweep, "--out", dirs[i], "-j", "1", "--shard-index", fmt.Sprint(i), "--shard-count", fmt.Sprint(n)), nil
		})
		out := filepath.Join(base, "merged")
		if code, _, stderr := nlsat(context.Background(), "", append([]string{"merge", "-q", "--out", out}, dirs...)...); code != 0 {
			t.Fatalf("merge of %d shards: exit %d: %s", n, code, stderr)
		}
		sameFiles(t, want, sweepFiles(t, out))
		if n == 3 {
			code, _, stderr := nlsat(context.Background(), "", "merge", "--out", filepath.Join(base, "bad"), dirs[0], dirs[1], dirs[1], dirs[2])
			if code == 0 || !strings.Contains(stderr, "shard 1 is given twice") {
				t.Errorf("duplicated shard: exit %d: %s", code, stderr)
			}
		}
	}
}

// TestPhaseSweepSurvivesKill kills a sweep at random points and resumes.
func TestPhaseSweepSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("sweeps several times")
	}
	sweep := []string{"phase-sweep", "--fragment", "all", "--n1", "3-5", "--n2", "3-4", "--m", "6-16", "--samples", "60", "--seed", "4", "-q"}
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, stderr := nlsat(context.Background(), "", append(sweep, "--out", ref)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "out")
	args := append(sweep, "--out", out, "--checkpoint-every", "10ms")
	kills := killRepeatedly(t, args, 5, rand.New(rand.NewPCG(5, 6)), 80*time.Millisecond, 400*time.Millisecond, nil)
	if code, _, stderr := nlsat(context.Background(), "", args...); code != 0 {
		t.Fatalf("final run: exit %d: %s", code, stderr)
	}
	if kills == 0 {
		t.Fatal("no run was killed")
	}
	t.Logf("%d kills", kills)
	got := sweepFiles(t, out)
	for name := range got {
		if _, ok := sweepFiles(t, ref)[name]; !ok {
			t.Errorf("extra file %s", name)
		}
	}
	sameFiles(t, sweepFiles(t, ref), got)
}
