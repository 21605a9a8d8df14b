package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/job"
)

// TestGenerateShardsMerge runs generate as 3 shards in parallel processes
// and merges them, for every task: the same bytes as one run, in JSONL
// and in Parquet.
func TestGenerateShardsMerge(t *testing.T) {
	for _, tc := range []struct {
		name string
		gen  []string
	}{
		{"instance", []string{"generate", "--fragment", "Z", "--count", "200", "--seed", "12", "-q"}},
		{"entailment", []string{"generate", "--task", "entailment", "--fragment", "V", "--count", "45", "--seed", "12", "-q"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gen := tc.gen
			base := t.TempDir()
			var dirs []string
			runShards(t, 3, func(i int) ([]string, []string) {
				dirs = append(dirs, filepath.Join(base, fmt.Sprint("shard", i)))
				return append(gen, "--out", dirs[i], "-j", "1", "--shard-index", fmt.Sprint(i), "--shard-count", "3"), nil
			})
			for _, ext := range []string{".jsonl", ".parquet"} {
				ref := filepath.Join(base, "ref"+ext)
				if code, _, stderr := nlsat(context.Background(), "", append(gen, "--out", ref)...); code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				merged := filepath.Join(base, "merged"+ext)
				if code, _, stderr := nlsat(context.Background(), "", append([]string{"merge", "-q", "--out", merged}, dirs...)...); code != 0 {
					t.Fatalf("merge: exit %d: %s", code, stderr)
				}
				want, _ := os.ReadFile(ref)
				got, _ := os.ReadFile(merged)
				if len(want) == 0 || string(want) != string(got) {
					t.Errorf("%s: merged shards differ from one run", ext)
				}
			}
			// A shard of another seed is refused.
			other := filepath.Join(base, "other")
			args := slices.Clone(gen)
			args[slices.Index(args, "--seed")+1] = "13"
			if code, _, stderr := nlsat(context.Background(), "", append(args, "--shard-index", "1", "--shard-count", "3", "--out", other)...); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			code, _, stderr := nlsat(context.Background(), "", "merge", "--out", filepath.Join(base, "bad.jsonl"), dirs[0], other, dirs[2])
			if code == 0 || !strings.Contains(stderr, "another configuration or seed") {
				t.Errorf("mismatched seed: exit %d: %s", code, stderr)
			}
		})
	}
}

// TestGenerateSurvivesKill kills generate at random points and resumes.
func TestGenerateSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("runs generate several times")
	}
	gen := []string{"generate", "--fragment", "V", "--count", "2000", "--seed", "3", "-q"}
	base := t.TempDir()
	ref := filepath.Join(base, "ref.jsonl")
	if code, _, stderr := nlsat(context.Background(), "", append(gen, "--out", ref)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := filepath.Join(base, "out.jsonl")
	args := append(gen, "--out", out, "--checkpoint-every", "20ms")
	want, _ := os.ReadFile(ref)
	kills := killRepeatedly(t, args, 5, rand.New(rand.NewPCG(3, 4)), 50*time.Millisecond, 250*time.Millisecond, func() {
		// A kill may land after the output was moved into place; what
		// must never be there is a partial output.
		if got, err := os.ReadFile(out); err == nil && string(got) != string(want) {
			t.Fatalf("a killed run left a partial output (%d of %d bytes)", len(got), len(want))
		}
	})
	if code, _, stderr := nlsat(context.Background(), "", args...); code != 0 {
		t.Fatalf("final run: exit %d: %s", code, stderr)
	}
	if kills == 0 {
		t.Fatal("no run was killed")
	}
	got, _ := os.ReadFile(out)
	if string(want) != string(got) {
		t.Errorf("resumed output differs after %d kills", kills)
	}
	// The done stamp stays, so that the same command finds the output
	// finished; nothing else may.
	m, _ := filepath.Glob(filepath.Join(base, ".out.jsonl.*"))
	if m = slices.DeleteFunc(m, func(f string) bool { return f == job.DoneFile(out) }); len(m) > 0 {
		t.Errorf("left behind: %v", m)
	}
}

// TestGenerateDistractors checks that distractors are recorded, that
// removing them gives back the instance drawn without them, and that the
// label is the same.
func TestGenerateDistractors(t *testing.T) {
	for _, mode := range []string{"fresh", "implied"} {
		for _, frag := range []string{"S", "V", "A"} {
			base := []string{"generate", "--fragment", frag, "--count", "30", "--seed", "5", "-q"}
			_, plain, stderr := nlsat(context.Background(), "", base...)
			code, with, stderr2 := nlsat(context.Background(), "", append(base, "--distractors", "2", "--distractor-mode", mode)...)
			if code != 0 || stderr != "" && stderr2 == "" {
				t.Fatalf("%s %s: exit %d: %s", mode, frag, code, stderr2)
			}
			var got, want []*dataset.Record
			for _, src := range []struct {
				text string
				dst  *[]*dataset.Record
			}{{plain, &want}, {with, &got}} {
				dec := dataset.NewDecoder(strings.NewReader(src.text), "out")
				for {
					r, err := dec.Next()
					if err != nil {
						break
					}
					*src.dst = append(*src.dst, r)
				}
			}
			if len(got) != 30 || len(want) != 30 {
				t.Fatalf("%s %s: %d and %d records", mode, frag, len(got), len(want))
			}
			bySeed := map[string]*dataset.Record{}
			for _, w := range want {
				bySeed[w.Seed] = w
			}
			compared := 0
			for _, r := range got {
				w := bySeed[r.Seed]
				if w == nil {
					continue // drawn only because an instance without distractors was replaced
				}
				compared++
				if r.DistractorMode != mode || len(r.Distractors) != 2 {
					t.Fatalf("%s %s: record %s: distractors %v (%q)", mode, frag, r.ID, r.Distractors, r.DistractorMode)
				}
				var rest []string
				for j, s := range r.Sentences {
					if !slices.Contains(r.Distractors, j) {
						rest = append(rest, s)
					}
				}
				if !slices.Equal(rest, w.Sentences) || r.Label != w.Label {
					t.Errorf("%s %s: record %s without its distractors is not the plain instance (label %d vs %d)", mode, frag, r.ID, r.Label, w.Label)
				}
			}
			if compared < 25 {
				t.Errorf("%s %s: only %d of 30 instances kept their distractors", mode, frag, compared)
			}
		}
	}
}
