package main

import (
	"cmp"
	"context"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/entail"
	"github.com/nlsat/nlsat/internal/progress"

	"github.com/nlsat/nlsat/internal/task/entailment"
)

// entailConfig resolves split's options for --task entailment.
func (o *splitOptions) entailConfig(cmd *cobra.Command, solverName string) (entail.BuildConfig, error) {
	for _, name := range entailRefusedSplitFlags {
		if cmd.Flags().Changed(name) {
			return entail.BuildConfig{}, usagef("--task entailment takes no --%s (triples are balanced by construction and deduplicated up to renaming)", name)
		}
	}
	if len(o.fragment.list) != 1 {
		return entail.BuildConfig{}, usagef("--task entailment builds one fragment at a time, not %s", o.fragment.value)
	}
	for name, n := range entail.SplitDefaults {
		if !cmd.Flags().Changed(name) {
			cmd.Flags().Set(name, strconv.Itoa(n))
		}
	}
	sampler, lx, err := o.sampler.sampler()
	return entail.BuildConfig{
		Fragment:   o.fragment.list[0],
		Train:      o.train,
		Validation: o.validation,
		Test:       o.test,
		Seed:       o.seed,
		RegionFile: o.region,
		Sampler:    sampler,
		Vocabulary: lx,
		MaxWords:   o.maxWords,
		DrawLimit:  o.drawLimit,
		Audit:      o.audit,
		Solver:     solverName,
	}, err
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
	release, err := lockOut(o.out, true)
	if err != nil {
		return err
	}
	defer release()
	prog := progress.NewClasses(s.Err, "split "+p.Fragment+" entailment triples", p.Records()/3, o.solver.quiet, "accepted by this run")
	start := time.Now()
	m, err := entail.Build(ctx, p, entail.BuildOptions{
		Dir:             o.out,
		Workers:         o.solver.jobs,
		NewBackend:      newBackend,
		Progress:        func(accepted, _ int) { prog.Start(accepted - 1); prog.AddClass(0) },
		Log:             o.solver.logf(s),
		CheckpointEvery: o.checkpoint,
		Toolkit:         toolkit(),
		Command:         cfg.Command(p, o.solver.solver.value),
		License:         o.license,
		Force:           o.force,
		Output:          o.solver.records.spec(),
		Audit:           audit.ForManifest(entailment.Task.Audit),
	})
	prog.Finish()
	if done, err := o.built(ctx, err, s); done || err != nil {
		return err
	}
	o.solver.logf(s)("built %s in %s with %s: %s", o.out, time.Since(start).Round(time.Second), m.Solver, m.Summary())
	if !o.solver.quiet {
		writeBuildEnd(s.Err, o.out, m.Audit, m.AuditSummary)
	}
	return nil
}
