package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/distract"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/progress"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/task"
)

type generateOptions struct {
	fragment     *enumFlag
	count        int
	m, n1, n2    intRange
	seed         uint64
	out          string
	sampler      samplerFlags
	region       string
	solver       *solverOptions
	shard        shardOptions
	checkpoint   time.Duration
	distractors  int
	distractMode *enumFlag
	proofs       bool
	task         *enumFlag
}

func (o *generateOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Var(o.fragment, "fragment", "fragment to sample: S, W, V, Z or A")
	f.IntVarP(&o.count, "count", "n", 1000, "number of labelled instances to write (instances a solver leaves undecided are drawn again, never written)")
	f.Var(&o.m, "m", "sentences per instance, a number or a range such as 12-20 (default: the hard region's m for each n1, n2)")
	f.Var(&o.n1, "n1", "distinct nouns per instance, a number or range (default 6-16 for S, W; 3-8 for V, Z, A)")
	f.Var(&o.n2, "n2", "distinct verbs per instance, a number or range (default 0 for S, W; 3-8 for V, Z, A)")
	f.Uint64Var(&o.seed, "seed", 1, "master seed; instance i draws from (seed, i) alone")
	f.StringVarP(&o.out, "out", "o", "-", "output JSONL file (- for stdout), written atomically and resumed if interrupted; with shards, a directory")
	o.sampler.addFlags(cmd, "")
	f.StringVar(&o.region, "region", "", "region.json from nlsat phase-sweep: draw (m, n1, n2) uniformly from its points instead of --m, --n1, --n2")
	o.solver.addFlags(cmd)
	o.solver.records.addFlags(cmd)
	o.shard.addFlags(cmd, true)
	f.Lookup("oversample").Usage = "with shards: draw instances 0 .. count×oversample−1 in all (above 1 where a solver may leave instances undecided)"
	f.Lookup("oversample").DefValue = "1"
	o.shard.oversample = 1
	f.DurationVar(&o.checkpoint, "checkpoint-every", 2*time.Second, "time between checkpoints of an unfinished output file")
	f.IntVar(&o.distractors, "distractors", 0, "add this many sentences to each instance that provably do not change its label (recorded in the record's distractors)")
	f.BoolVar(&o.proofs, "proofs", false, proofsUsage)
	f.Var(o.task, "task", taskUsage()+" (see below)")
	f.Var(o.distractMode, "distractor-mode", "fresh: over words the instance does not use; implied: over its own words, entailed by its (consistent) sentences")
}

func newGenerateCmd(s streams) *cobra.Command {
	o := &generateOptions{fragment: newFragmentEnum("A", false), solver: newSolverOptions("native", true),
		distractMode: newEnum("fresh", "fresh", "implied"), task: newTaskEnum()}
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Sample and label random instances of one fragment",
		Long: generateHelp + shardHelp + ` A generate shard decides the instances
i ≡ shard (mod N) below count × --oversample into a directory (--out,
default generate-FRAGMENT-shard-i-of-N); nlsat merge --out FILE SHARD...
writes the first --count decided instances in index order.

` + entailGenerateHelp + exitCodesHelp,
		Example: `  nlsat generate --fragment A --count 100 --m 16 --n1 5 --n2 5 --seed 7 --out a.jsonl
  nlsat generate --fragment S --n1 10 --m 12-16 --solver none`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runGenerate(cmd.Context(), cmd, o, s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

// plan resolves the options into the run's plan, labelled by solverName.
func (o *generateOptions) plan(cmd *cobra.Command, solverName string) (*generate.Plan, error) {
	sampler, lx, err := o.sampler.sampler()
	if err != nil {
		return nil, err
	}
	mode, _ := distract.ParseMode(o.distractMode.value)
	p, err := generate.NewPlan(generate.Options{
		Fragment:     o.fragment.fragment(),
		FragmentSet:  cmd.Flags().Changed("fragment"),
		Sampler:      sampler,
		Vocabulary:   lx,
		M:            o.m.ptr(),
		N1:           o.n1.ptr(),
		N2:           o.n2.ptr(),
		Region:       o.region,
		Seed:         o.seed,
		Count:        o.count,
		Distractors:  o.distractors,
		DistractMode: mode,
		Proofs:       o.proofs,
		Solver:       o.solver.solver.value,
		SolverName:   solverName,
		Timeout:      o.solver.timeout,
	})
	if err != nil {
		return nil, usageError{err}
	}
	return p, nil
}

func runGenerate(ctx context.Context, cmd *cobra.Command, o *generateOptions, s streams) error {
	t, err := task.Lookup(o.task.value)
	if err != nil {
		return err
	}
	newBackend, solverName, err := o.solver.backends()
	if err != nil {
		return err
	}
	plan, err := o.plan(cmd, solverName)
	if err != nil {
		return err
	}
	sharded, err := o.shard.resolve(cmd, nil)
	if err != nil {
		return err
	}
	output := o.solver.records.spec()
	if err := t.Generate.Check(plan, output); err != nil {
		return err
	}
	if !sharded {
		release, err := lockOut(o.out, false)
		if err != nil {
			return err
		}
		defer release()
	}
	if sharded {
		return runGenerateShard(ctx, o, t, plan, newBackend, s)
	}
	if newBackend == nil && !o.solver.quiet {
		fmt.Fprintln(s.Err, "nlsat: --solver none: records are written without labels (label -1)")
	}
	prog := taskBar(t, s.Err, "generate "+plan.Fragment, o.count, o.solver.quiet)
	sum, err := generate.Run(ctx, t.Generate, plan, generate.RunOptions{
		Out:        o.out,
		Stdout:     s.Out,
		Output:     output,
		Workers:    o.solver.jobs,
		NewBackend: newBackend,
		Every:      o.checkpoint,
		Progress:   prog.Add,
		Log:        o.solver.logf(s),
		Started:    func(written int) { prog.Start(written) },
	})
	prog.Finish()
	if errors.Is(err, job.ErrDone) {
		o.solver.logf(s)("%s already holds these %d records, checksum intact; nothing to do", o.out, o.count)
		return nil
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		if ctx.Err() != nil && o.out != "-" && o.out != "" && !o.solver.quiet {
			fmt.Fprintf(s.Err, "nlsat: %d of %d records are saved; run the same command again to resume\n", sum.Written, o.count)
		}
		return err
	}
	if !o.solver.quiet && newBackend != nil {
		reportGenerate(s.Err, t, sum)
	}
	return nil
}

// taskBar is the progress of a run of t: counts of t's classes, or of
// sat, unsat and undecided records.
func taskBar(t *task.Task, w io.Writer, what string, total int, quiet bool) *progress.Bar {
	if t.Classes == nil {
		return progress.New(w, what, total, quiet)
	}
	return progress.NewClasses(w, what, total, quiet, t.Classes...)
}

// reportGenerate prints what a run of t wrote: its counts by status, or
// by t's classes.
func reportGenerate(w io.Writer, t *task.Task, sum generate.Summary) {
	if t.Classes == nil {
		sum.Stats.Report(w, sum.Written)
		return
	}
	fmt.Fprintf(w, "nlsat: wrote %d %s records from %d units drawn\n", sum.Written, t.Name, sum.Stats.Drawn())
}

// runGenerateShard decides this shard's instances into a directory.
func runGenerateShard(ctx context.Context, o *generateOptions, t *task.Task, plan *generate.Plan, newBackend func() (solver.Backend, error), s streams) error {
	sh := o.shard
	if sh.oversample < 1 {
		return usagef("--oversample must be at least 1 for generate")
	}
	dir := o.out
	if dir == "-" || dir == "" {
		dir = fmt.Sprintf("generate-%s-shard-%d-of-%d", plan.Fragment, sh.slot.Index, sh.slot.Count)
	}
	release, err := lockOut(dir, true)
	if err != nil {
		return err
	}
	defer release()
	logf := o.solver.logf(s)
	logf("generate %s: %s into %s", plan.Fragment, sh.slot, dir)
	prog := taskBar(t, s.Err, fmt.Sprintf("generate %s shard %d/%d", plan.Fragment, sh.slot.Index, sh.slot.Count), -1, o.solver.quiet)
	shard := generate.ShardOptions{
		Slot:       sh.slot,
		Oversample: sh.oversample,
		Dir:        dir,
		Manifest:   job.Manifest{Toolkit: toolkit(), Command: "nlsat generate"},
		Task:       t.Name,
	}
	run := generate.RunOptions{
		Workers:    o.solver.jobs,
		NewBackend: newBackend,
		Every:      o.checkpoint,
		Progress:   prog.Add,
		Log:        logf,
	}
	sum, err := generate.RunShard(ctx, t.Generate, plan, shard, run)
	prog.Finish()
	if errors.Is(err, job.ErrDone) {
		logf("%s already holds this shard, checksums intact; nothing to do", dir)
		return nil
	}
	if err != nil {
		return err
	}
	logf("shard %d of %d: %d records decided of %d units drawn; merge with: nlsat merge --out FILE SHARD_DIR...",
		sh.slot.Index, sh.slot.Count, sum.Written, sum.Stats.Drawn())
	return nil
}
