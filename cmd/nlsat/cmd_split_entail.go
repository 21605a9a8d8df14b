package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/entail"
	"github.com/nlsat/nlsat/internal/progress"
	"github.com/nlsat/nlsat/internal/split"
	"github.com/nlsat/nlsat/internal/version"
)

// entailConfig resolves split's options for --task entailment, refusing
// those that only instance builds have. Sizes not given default to
// 3,000 / 300 / 300 records (multiples of 3).
func (o *splitOptions) entailConfig(cmd *cobra.Command, solverName string) (entail.BuildConfig, error) {
	for _, name := range []string{"preset", "generalisation", "zero-shot", "holdout", "proofs", "min-core", "balance", "balance-pilot", "dedup"} {
		if cmd.Flags().Changed(name) {
			return entail.BuildConfig{}, usagef("--task entailment takes no --%s (triples are balanced by construction and deduplicated up to renaming)", name)
		}
	}
	if len(o.fragment.list) != 1 {
		return entail.BuildConfig{}, usagef("--task entailment builds one fragment at a time, not %s", o.fragment.value)
	}
	for name, v := range map[string]*int{"train": &o.train, "validation": &o.validation, "test": &o.test} {
		if !cmd.Flags().Changed(name) {
			*v = map[string]int{"train": 3000, "validation": 300, "test": 300}[name]
		}
	}
	sampler, lx, err := o.sampler.sampler()
	return entail.BuildConfig{Fragment: o.fragment.list[0], Train: o.train, Validation: o.validation, Test: o.test, Seed: o.seed,
		RegionFile: o.region, Sampler: sampler, Vocabulary: lx, MaxWords: o.maxWords, DrawLimit: o.drawLimit, Audit: o.audit,
		Solver: solverName}, err
}

func runEntailSplit(ctx context.Context, cmd *cobra.Command, o *splitOptions, s streams) error {
	newBackend, solverName, err := o.solver.backends()
	if err != nil {
		return err
	}
	cfg, err := o.entailConfig(cmd, solverName)
	if err != nil {
		return err
	}
	p, err := entail.NewBuildPlan(cfg)
	if err != nil {
		return usageError{err}
	}
	if sharded, err := o.shard.resolve(cmd, nil); err != nil || sharded {
		return cmp.Or(err, usagef("--task entailment takes no shards"))
	}
	if o.out == "" {
		o.out = "nlsat-" + p.Fragment + "-entailment"
	}
	prog := progress.NewClasses(s.Err, "split "+p.Fragment+" entailment triples", p.Records()/3, o.solver.quiet, "triples")
	start := time.Now()
	m, err := entail.Build(ctx, p, entail.BuildOptions{Dir: o.out, Workers: o.solver.jobs, NewBackend: newBackend,
		Progress: func(int, int) { prog.AddClass(0) }, Log: o.solver.logf(s), CheckpointEvery: o.checkpoint,
		Toolkit: version.Toolkit(), Command: cfg.Command(p, o.solver.solver.value), License: o.license, Force: o.force,
		Output: o.solver.records.spec()})
	prog.Finish()
	switch {
	case errors.Is(err, split.ErrAlreadyBuilt):
		o.solver.logf(s)("%s already holds this dataset, checksums intact; nothing to do", o.out)
		return nil
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(s.Err, "nlsat: interrupted; run the same command again to resume the build in %s\n", o.out)
		return ctx.Err()
	case err != nil:
		return err
	}
	o.solver.logf(s)("built %s in %s with %s: %s", o.out, time.Since(start).Round(time.Second), m.Solver, m.Summary())
	return nil
}
