package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/entail"
	"github.com/nlsat/nlsat/internal/progress"
	"github.com/nlsat/nlsat/internal/split"
)

// entailConfig resolves split's options for --task entailment.
func (o *splitOptions) entailConfig(cmd *cobra.Command, solverName string) (entail.BuildConfig, error) {
	for _, name := range entailRefusedSplitFlags {
		if cmd.Flags().Changed(name) {
			return entail.BuildConfig{}, usagef("--task entailment takes no --%s (triples are balanced by construction and deduplicated up to renaming)", name)
		}
	}
	if len(o.fragment.list) > 1 && cmd.Flags().Changed("region") {
		return entail.BuildConfig{}, usagef("--region is one fragment's region: a joint build draws each fragment from its shipped region")
	}
	for name, n := range entail.SplitDefaults {
		if !cmd.Flags().Changed(name) {
			cmd.Flags().Set(name, strconv.Itoa(n))
		}
	}
	sampler, lx, err := o.sampler.sampler()
	return entail.BuildConfig{
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
	sharded, err := o.shard.resolve(cmd, nil)
	if err != nil {
		return err
	}
	if o.out == "" {
		o.out = "nlsat-" + strings.ReplaceAll(p.Fragment, ",", "") + "-entailment"
		if sharded {
			o.out += fmt.Sprintf("-shard-%d-of-%d", o.shard.slot.Index, o.shard.slot.Count)
		}
	}
	release, err := lockOut(o.out, true)
	if err != nil {
		return err
	}
	defer release()
	opt := entail.BuildOptions{
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
		Audit:           audit.ForManifest,
	}
	start := time.Now()
	if sharded {
		return runEntailShard(ctx, p, opt, o, s, start)
	}
	prog := progress.NewClasses(s.Err, "split "+p.Fragment+" entailment triples", p.Records()/3, o.solver.quiet, "accepted by this run")
	opt.Progress = func(accepted, _ int) { prog.Start(accepted - 1); prog.AddClass(0) }
	m, err := entail.Build(ctx, p, opt)
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

// runEntailShard draws one shard of an entailment build.
func runEntailShard(ctx context.Context, p *entail.BuildPlan, opt entail.BuildOptions, o *splitOptions, s streams, start time.Time) error {
	logf := o.solver.logf(s)
	logf("split %s entailment: %s into %s", p.Fragment, o.shard.slot.String(), o.out)
	var prog *progress.Bar
	opt.Progress = func(done, total int) {
		if prog == nil {
			prog = progress.NewSteps(s.Err, "split "+p.Fragment+" entailment candidates", total, o.solver.quiet)
		}
		prog.Set(done)
	}
	m, err := entail.RunShard(ctx, p, split.Shard{Index: o.shard.slot.Index, Count: o.shard.slot.Count, Oversample: o.shard.oversample}, opt)
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
