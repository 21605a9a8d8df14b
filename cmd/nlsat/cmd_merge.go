package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/split"
	"github.com/nlsat/nlsat/internal/split/units"
	"github.com/nlsat/nlsat/internal/task"
	"github.com/nlsat/nlsat/internal/task/satunsat"
	"github.com/nlsat/nlsat/internal/version"
)

type mergeOptions struct {
	out     string
	force   bool
	quiet   bool
	records outputFlags
}

func newMergeCmd(s streams) *cobra.Command {
	o := &mergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge --out OUT SHARD_DIR...",
		Short: "Merge the shards of a split, generate or phase-sweep run into its output",
		Long: `Merge takes the output directories of the N shards of one run (split,
generate or phase-sweep with --shard-index/--shard-count) and writes what a
single unsharded run would have written, byte for byte: for split the
balanced, deduplicated dataset with its card, manifest and checksums (of
either --task, instance or entailment, of one fragment or joint).

Before merging it checks the shards' manifests: one configuration and seed,
every shard index from 0 to N-1 exactly once, and every file's checksum.
A missing, repeated, foreign or corrupt shard is an error naming it, and
nothing is written.

The shards of a split with the surface balance and their merge take
turns: the merge reads the shards as far as they have drawn, fits the
balance models to their pilots, keeps its progress in --out and hands
the models to the shards, then exits 0 asking for the shards to run
again; after three turns it writes the dataset. Running it again when
there is nothing new to read changes nothing. Once the merge has fitted
the balance to their pilots, the shards remove them (unless split ran
with --keep-pilots), so only the merge that took the turns with them,
from its progress in --out, can finish them; a new merge of the same
shards says so.

` + exitCodesHelp,
		Example: `  nlsat generate --fragment S --count 100 --shard-index 0 --shard-count 2 --out gen-shard-0
  nlsat generate --fragment S --count 100 --shard-index 1 --shard-count 2 --out gen-shard-1
  nlsat merge --out s.jsonl gen-shard-*`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd.Context(), o, args, s)
		},
	}
	cmd.Flags().StringVarP(&o.out, "out", "o", "", "output: a directory for split and phase-sweep shards, a file for generate shards (required)")
	cmd.Flags().BoolVar(&o.force, "force", false, "write into an output directory that already holds files")
	cmd.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "no summary on stderr")
	o.records.addFlags(cmd)
	cmd.MarkFlagRequired("out")
	return cmd
}

func runMerge(ctx context.Context, o *mergeOptions, dirs []string, s streams) error {
	src, err := job.OpenShards(dirs)
	if err != nil {
		return err
	}
	start := time.Now()
	logf := func(format string, a ...any) {
		if !o.quiet {
			fmt.Fprintf(s.Err, "nlsat: "+format+"\n", a...)
		}
	}
	switch src.Manifest.Kind {
	case split.Kind:
		return mergeSplit(ctx, o, src, s, start)
	case units.KindOf(src.Manifest.Task):
		t, err := task.Lookup(src.Manifest.Task)
		if err != nil || t.Units == nil {
			return usagef("%s: shards of task %q cannot be merged by this version", dirs[0], src.Manifest.Task)
		}
		return mergeUnits(ctx, t, o, src, s, start)
	case generate.Kind:
		t, err := task.Lookup(cmp.Or(src.Manifest.Task, satunsat.Name))
		if err != nil {
			return err
		}
		sum, err := generate.Merge(ctx, t.Generate, src, generate.RunOptions{Out: o.out, Stdout: s.Out, Output: o.records.spec()})
		if err != nil {
			return err
		}
		logf("merged %d shards: %d records (%d units undecided and dropped) into %s", len(dirs), sum.Written, sum.Stats.Undecided(), o.out)
		return nil
	case phase.Kind:
		if err := phase.Merge(ctx, src, o.out, phase.RunOptions{Version: version.Version(), Log: logf}); err != nil {
			return err
		}
		logf("merged %d shards into %s", len(dirs), o.out)
		return nil
	}
	return usagef("%s: shards of %q cannot be merged by this version", dirs[0], src.Manifest.Kind)
}

func mergeSplit(ctx context.Context, o *mergeOptions, src *job.Shards, s streams, start time.Time) error {
	opt := split.Options{
		Dir:     o.out,
		Force:   o.force,
		Toolkit: toolkit(),
		Output:  o.records.spec(),
		Audit:   audit.ForManifest(satunsat.Task.Audit),
	}
	m, err := split.Merge(ctx, src, opt)
	if errors.Is(err, split.ErrAlreadyBuilt) {
		if !o.quiet {
			fmt.Fprintf(s.Err, "nlsat: %s already holds this dataset, checksums intact; nothing to do\n", o.out)
		}
		return nil
	}
	if errors.Is(err, split.ErrWaiting) {
		// Not an error: the shards go on with what this merge fitted.
		if o.quiet {
			return nil
		}
		fmt.Fprintf(s.Err, "nlsat: fitted the balance models to what the %d shards have drawn so far (in %s) and handed them to the shards; "+
			"run the shards again, then this merge again (its progress is kept in %s)\n",
			len(src.Dirs), time.Since(start).Round(time.Millisecond), o.out)
		return nil
	}
	if err != nil {
		return err
	}
	if !o.quiet {
		fmt.Fprintf(s.Err, "nlsat: merged %d shards into %s in %s\n", len(src.Dirs), o.out, time.Since(start).Round(time.Millisecond))
		m.WriteSummary(s.Err, false)
	}
	return nil
}
