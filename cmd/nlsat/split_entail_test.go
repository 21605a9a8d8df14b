package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEntailSplitShardsMerge runs split --task entailment of one fragment
// and of several (a joint build) unsharded, as two shards from the flags
// and as three from a Slurm array's environment, merges each in JSONL and
// in Parquet, and compares every file with the unsharded run's; the
// manifest's command rebuilds the joint dataset; and merge refuses an
// incomplete or mixed set of shards.
func TestEntailSplitShardsMerge(t *testing.T) {
	for _, c := range []struct {
		name, fragment string
	}{{"one fragment", "W"}, {"joint", "S,Z"}} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.name == "joint" {
				t.Skip("builds a joint dataset eight times")
			}
			base := t.TempDir()
			args := []string{"split", "--task", "entailment", "--fragment", c.fragment, "--train", "18", "--validation", "9", "--test", "9",
				"--seed", "6", "--audit=false", "-q", "-j", "2"}
			run := func(extra ...string) {
				t.Helper()
				if code, _, stderr := nlsat(context.Background(), "", append(args, extra...)...); code != 0 {
					t.Fatalf("%v: exit %d: %s", extra, code, stderr)
				}
			}
			ref := filepath.Join(base, "ref")
			run("--out", ref)
			want := tree(t, ref)
			refPq := filepath.Join(base, "ref-parquet")
			run("--out", refPq, "--format", "parquet")
			var two, three []string
			for i := range 2 {
				two = append(two, filepath.Join(base, fmt.Sprint("two", i)))
				run("--out", two[i], "--shard-index", fmt.Sprint(i), "--shard-count", "2")
			}
			for i := range 3 {
				three = append(three, filepath.Join(base, fmt.Sprint("three", i)))
				t.Setenv("SLURM_ARRAY_TASK_ID", fmt.Sprint(i+1))
				t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
				t.Setenv("SLURM_ARRAY_TASK_COUNT", "3")
				run("--out", three[i])
			}
			for _, v := range []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"} {
				os.Unsetenv(v) // t.Setenv puts them back as they were at the end
			}
			for _, m := range []struct {
				name  string
				dirs  []string
				flags []string
				want  map[string]string
			}{
				{"two shards", two, nil, want},
				{"three shards", []string{three[1], three[2], three[0]}, nil, want},
				{"Parquet", three, []string{"--format", "parquet"}, tree(t, refPq)},
			} {
				out := filepath.Join(base, "merged-"+strings.ReplaceAll(m.name, " ", "-"))
				margs := append(append([]string{"merge", "-q", "--out", out}, m.flags...), m.dirs...)
				if code, _, stderr := nlsat(context.Background(), "", margs...); code != 0 {
					t.Fatalf("merge of %s: exit %d: %s", m.name, code, stderr)
				}
				sameFiles(t, m.want, tree(t, out))
			}
			if c.name == "joint" {
				var man struct {
					Command string `json:"command"`
				}
				if err := json.Unmarshal([]byte(want["manifest.json"]), &man); err != nil {
					t.Fatal(err)
				}
				again := filepath.Join(base, "again")
				cmdArgs := append(strings.Fields(strings.TrimPrefix(man.Command, "nlsat ")), "-q", "--out", again)
				if code, _, stderr := nlsat(context.Background(), "", cmdArgs...); code != 0 {
					t.Fatalf("the manifest's command %q: exit %d: %s", man.Command, code, stderr)
				}
				sameFiles(t, want, tree(t, again))
			}
			for _, bad := range []struct {
				name string
				dirs []string
				want string
			}{
				{"missing shard", []string{three[0], three[2]}, "shards [1] of 3 are missing"},
				{"shards of two runs", []string{two[0], three[1], three[2]}, "is shard 1 of 3"},
			} {
				code, _, stderr := nlsat(context.Background(), "", append([]string{"merge", "--out", filepath.Join(base, "bad")}, bad.dirs...)...)
				if code != exitUsage || !strings.Contains(stderr, bad.want) {
					t.Errorf("merge of %s: exit %d: %s", bad.name, code, stderr)
				}
			}
		})
	}
}

// TestEntailSplitRefusals checks what split --task entailment refuses in
// a joint build, and that its help says shards and joint builds work.
func TestEntailSplitRefusals(t *testing.T) {
	code, _, stderr := nlsat(context.Background(), "", "split", "--task", "entailment", "--fragment", "S,W", "--region", "region.json", "--out", filepath.Join(t.TempDir(), "x"))
	if code != exitUsage || !strings.Contains(stderr, "--region is one fragment's region") {
		t.Errorf("a joint build with --region: exit %d: %s", code, stderr)
	}
	_, help, _ := nlsat(context.Background(), "", "split", "--help")
	entailHelp := help[strings.Index(help, "Entailment (--task entailment)"):]
	entailHelp = entailHelp[:strings.Index(entailHelp, "\n\n")]
	for _, want := range []string{"joint build", "Shards work", "nlsat merge"} {
		if !strings.Contains(entailHelp, want) {
			t.Errorf("split --help's entailment paragraph does not say %q:\n%s", want, entailHelp)
		}
	}
	if strings.Contains(entailHelp, "no shards") || strings.Contains(entailHelp, "One fragment at a time") {
		t.Errorf("split --help still refuses shards or joint entailment builds:\n%s", entailHelp)
	}
	_, help, _ = nlsat(context.Background(), "", "merge", "--help")
	if !strings.Contains(help, "entailment") {
		t.Error("merge --help does not say it merges entailment shards")
	}
}
