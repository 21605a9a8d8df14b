package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/build"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/job"
)

type mergeOptions struct {
	out   string
	force bool
	quiet bool
}

func newMergeCmd(s streams) *cobra.Command {
	o := &mergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge --out OUT SHARD_DIR...",
		Short: "Merge the shards of a split, generate or phase-sweep run into its output",
		Long: `Merge takes the output directories of the N shards of one run (split,
generate or phase-sweep with --shard-index/--shard-count) and writes what a
single unsharded run would have written, byte for byte: for split the
balanced, deduplicated dataset with its card, manifest and checksums.

Before merging it checks the shards' manifests: one configuration and seed,
every shard index from 0 to N-1 exactly once, and every file's checksum.
A missing, repeated, foreign or corrupt shard is an error naming it, and
nothing is written.

` + exitCodesHelp,
		Example: `  nlsat merge --out nlsat-A nlsat-A-shard-*-of-8`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd.Context(), o, args, s)
		},
	}
	cmd.Flags().StringVarP(&o.out, "out", "o", "", "output directory (required)")
	cmd.Flags().BoolVar(&o.force, "force", false, "write into an output directory that already holds files")
	cmd.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "no summary on stderr")
	return cmd
}

// shardKind reads the kind of run a shard directory holds.
func shardKind(dir string) (string, error) {
	m, err := job.Read(dir)
	if err != nil {
		return "", usageError{err}
	}
	return m.Kind, nil
}

func runMerge(ctx context.Context, o *mergeOptions, dirs []string, s streams) error {
	if o.out == "" {
		return usagef("--out is required")
	}
	kind, err := shardKind(dirs[0])
	if err != nil {
		return err
	}
	for _, d := range dirs[1:] {
		k, err := shardKind(d)
		if err != nil {
			return err
		}
		if k != kind {
			return usagef("%s is a shard of %s, but %s is one of %s", d, k, dirs[0], kind)
		}
	}
	start := time.Now()
	switch kind {
	case "split":
		opt := build.Options{Dir: o.out, Force: o.force, AuditFor: auditFor,
			Toolkit: toolkit()}
		m, err := build.Merge(ctx, dirs, opt)
		if errors.Is(err, build.ErrAlreadyBuilt) {
			if !o.quiet {
				fmt.Fprintf(s.Err, "nlsat: %s already holds this dataset, checksums intact; nothing to do\n", o.out)
			}
			return nil
		}
		if err != nil {
			return err
		}
		if !o.quiet {
			fmt.Fprintf(s.Err, "nlsat: merged %d shards into %s in %s\n", len(dirs), o.out, time.Since(start).Round(time.Millisecond))
			for _, f := range m.Files {
				fmt.Fprintf(s.Err, "  %-28s %7d instances (%d sat, %d unsat)\n", f.Path, f.Rows, f.Labels.Sat, f.Labels.Unsat)
			}
		}
		return nil
	case generate.Kind:
		src, err := job.OpenShards(dirs)
		if err != nil {
			return err
		}
		sum, err := generate.Merge(ctx, src, generate.RunOptions{Out: o.out, Stdout: s.Out})
		if err != nil {
			return err
		}
		if !o.quiet {
			fmt.Fprintf(s.Err, "nlsat: merged %d shards: %d instances (%d undecided and dropped) into %s\n", len(dirs), sum.Written, sum.Stats.Undecided(), o.out)
		}
		return nil
	case "phase-sweep":
		return mergeSweep(dirs, o.out, s, o.quiet)
	}
	return usagef("%s: shards of %q cannot be merged by this version", dirs[0], kind)
}
