package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/progress"
	"github.com/nlsat/nlsat/internal/split"
	"github.com/nlsat/nlsat/internal/split/units"
	"github.com/nlsat/nlsat/internal/task"
)

// unitSplitDefaults are the record counts of a balanced build (a task
// whose units hold one record per class) whose sizes are not given.
var unitSplitDefaults = map[string]int{"train": 3000, "validation": 300, "test": 300}

// unitRefusedSplitFlags are split's flags that only instance builds take:
// a balanced build's units are balanced by construction and
// deduplicated up to renaming.
var unitRefusedSplitFlags = []string{"preset", "generalisation", "zero-shot", "holdout", "proofs", "min-core", "balance", "balance-pilot", "dedup"}

// unitConfig resolves split's options for a balanced build of t.
func (o *splitOptions) unitConfig(cmd *cobra.Command, t *task.Task, solverName string) (units.Config, error) {
	for _, name := range unitRefusedSplitFlags {
		if cmd.Flags().Changed(name) {
			return units.Config{}, usagef("--task %s takes no --%s (%ss are balanced by construction and deduplicated up to renaming)", t.Name, name, t.Units.Unit())
		}
	}
	if len(o.fragment.list) > 1 && cmd.Flags().Changed("region") {
		return units.Config{}, usagef("--region is one fragment's region: a joint build draws each fragment from its shipped region")
	}
	for name, n := range unitSplitDefaults {
		if !cmd.Flags().Changed(name) {
			cmd.Flags().Set(name, strconv.Itoa(n))
		}
	}
	sampler, lx, err := o.sampler.sampler()
	return units.Config{
		Fragment:   o.fragment.list[0],
		Fragments:  o.fragment.list,
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

// runUnitSplit builds a dataset of t, a task whose units hold one record
// per class, or one shard of it.
func runUnitSplit(ctx context.Context, cmd *cobra.Command, t *task.Task, o *splitOptions, s streams) error {
	newBackend, solverName, err := o.solver.backends()
	if err != nil {
		return err
	}
	cfg, err := o.unitConfig(cmd, t, solverName)
	if err != nil {
		return err
	}
	p, err := units.NewPlan(t.Units, cfg)
	if err != nil {
		return usageError{err}
	}
	sharded, err := o.shard.resolve(cmd, nil)
	if err != nil {
		return err
	}
	o.defaultOut(p.Fragment, t.Name, sharded)
	release, err := lockOut(o.out, true)
	if err != nil {
		return err
	}
	defer release()
	opt := units.Options{
		Dir:             o.out,
		Workers:         o.solver.jobs,
		NewBackend:      newBackend,
		Log:             o.solver.logf(s),
		CheckpointEvery: o.checkpoint,
		Toolkit:         toolkit(),
		Command:         cfg.Command(p, o.solver.solver.value),
		License:         o.license,
		Force:           o.force,
		Output:          o.solver.records.spec(),
		Audit:           audit.ForManifest(t.Audit),
	}
	var pilotBar *progress.Bar
	opt.PilotProgress = func(stage string, done, total int) {
		if done == 1 {
			pilotBar = progress.NewSteps(s.Err, "split "+p.Fragment+" "+t.Name+" "+stage, total, o.solver.quiet)
		}
		pilotBar.Set(done)
		if done == total {
			pilotBar.Finish()
		}
	}
	start := time.Now()
	if sharded {
		return runUnitShard(ctx, t, p, opt, o, s, start)
	}
	noun := t.Units.Unit() + "s"
	prog := progress.NewClasses(s.Err, "split "+p.Fragment+" "+t.Name+" "+noun, p.Units(), o.solver.quiet, "accepted by this run")
	opt.Progress = func(accepted, _ int) { prog.Start(accepted - 1); prog.AddClass(0) }
	m, err := units.Build(ctx, t.Units, p, opt)
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

// runUnitShard draws one shard of a balanced build.
func runUnitShard(ctx context.Context, t *task.Task, p *units.Plan, opt units.Options, o *splitOptions, s streams, start time.Time) error {
	logf := o.solver.logf(s)
	logf("split %s %s: %s into %s", p.Fragment, t.Name, o.shard.slot.String(), o.out)
	var prog *progress.Bar
	opt.Progress = func(done, total int) {
		if prog == nil {
			prog = progress.NewSteps(s.Err, "split "+p.Fragment+" "+t.Name+" candidates", total, o.solver.quiet)
		}
		prog.Set(done)
	}
	m, err := units.RunShard(ctx, t.Units, p, split.Shard{Index: o.shard.slot.Index, Count: o.shard.slot.Count, Oversample: o.shard.oversample}, opt)
	if prog != nil {
		prog.Finish()
	}
	switch {
	case errors.Is(err, split.ErrAlreadyBuilt):
		logf("%s already holds this shard, checksums intact; nothing to do", o.out)
		return nil
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(s.Err, "nlsat: interrupted; run the same command again to resume the shard in %s\n", o.out)
		return ctx.Err()
	case err != nil:
		return err
	}
	for _, f := range m.Files {
		logf("  %s: %d candidates", f.Path, f.Rows)
	}
	logf("shard %d of %d done in %s; merge all shards with: nlsat merge --out DIR SHARD_DIR...", m.Index, m.Count, time.Since(start).Round(time.Second))
	return nil
}
