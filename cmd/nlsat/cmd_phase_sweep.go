package main

import (
	"context"
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/progress"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/backends"
	"github.com/nlsat/nlsat/internal/solver/z3"
	"github.com/nlsat/nlsat/internal/version"
)

type phaseSweepOptions struct {
	fragment       *enumFlag
	n1, n2, m      intRange
	mStep          int
	alpha, beta    ratioRange
	samples        int
	adaptive       bool
	budget         int
	bandLo, bandHi float64
	seed           uint64
	out            string
	fixedN2        int
	sampler        samplerFlags
	solver         *solverOptions
	shard          shardOptions
	checkpoint     time.Duration
	labeller       *enumFlag
}

func (o *phaseSweepOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Var(o.fragment, "fragment", "fragment to sweep: S, W, V, Z, A or all (all writes one subdirectory per fragment)")
	o.n1.stepped, o.n2.stepped = true, true
	f.Var(&o.n1, "n1", "nouns per instance, a number or a range LO-HI[:STEP] such as 6-16:2 (default 6-16 for S, W; 3-8 for V, Z, A)")
	f.Var(&o.n2, "n2", "verbs per instance for V, Z, A, a number or a range LO-HI[:STEP] (default 3-8)")
	f.Var(&o.m, "m", "sentences per instance, a number or range such as 4-30 (default: the fragment's α range)")
	f.IntVar(&o.mStep, "m-step", 1, "sweep every k-th m of --m")
	f.Var(&o.alpha, "alpha", "ratios α = m/n1 as LO-HI:STEP, such as 0.5-3:0.25 (m = round(α·n1)); instead of --m")
	f.Var(&o.beta, "beta", "ratios β = m/n2 as LO-HI:STEP (m = round(β·n2)); instead of --m, V, Z, A only")
	f.IntVar(&o.samples, "samples", 200, "instances per point (with --adaptive: the first batch)")
	f.BoolVar(&o.adaptive, "adaptive", false, "sample each point in doubling batches until its interval lies clearly above, inside or below the band, or --budget is spent")
	f.IntVar(&o.budget, "budget", 1600, "with --adaptive: most instances per point")
	f.Float64Var(&o.bandLo, "band-lo", 0.35, "lower edge of the band of P(sat) that defines the region")
	f.Float64Var(&o.bandHi, "band-hi", 0.65, "upper edge of the band")
	f.Uint64Var(&o.seed, "seed", 1, "master seed; sample s of point (m, n1, n2) draws from (seed, fragment, m, n1, n2, s) alone")
	f.StringVarP(&o.out, "out", "o", "", "output directory (required; created if missing; every file written atomically)")
	f.IntVar(&o.fixedN2, "fixed-n2", 0, "n2 of the P(sat) and time curves for V, Z, A (default: the middle n2 of the sweep)")
	o.sampler.addFlags(cmd, " (recorded in region.json)")
	o.solver.addFlags(cmd)
	f.Var(o.labeller, "labeller", "native: label with --solver; paper: one plain Z3 check per instance within --timeout, unknowns counted and dropped from P(sat), as the paper labelled (its region only says where to draw)")
	cmd.MarkFlagsMutuallyExclusive("labeller", "solver")
}

func newPhaseSweepCmd(s streams) *cobra.Command {
	o := &phaseSweepOptions{fragment: newFragmentEnum("all", true), solver: newSolverOptions("native", false),
		labeller: newEnum("native", backends.Labellers()...)}
	cmd := &cobra.Command{
		Use:   "phase-sweep",
		Short: "Map P(sat) over a grid of (m, n1, n2) and find the phase-change region",
		Long: phaseSweepHelp + shardHelp + ` A phase-sweep shard estimates the points
i ≡ shard (mod N) of each fragment's grid into --out (default
phase-sweep-shard-i-of-N); nlsat merge --out DIR SHARD... writes the files
of the whole sweep.

` + exitCodesHelp,
		Example: `  nlsat phase-sweep --fragment S --n1 6-8 --m 4-16 --samples 40 --seed 1 --out sweep-s
  nlsat phase-sweep --fragment A --n1 3-4 --n2 3 --alpha 1-4:1 --adaptive --samples 20 --budget 80 --out sweep-a
  nlsat phase-sweep --n1 6 --n2 3 --alpha 1-3:1 --samples 20 --out sweep   # every fragment (without --n1 etc.: the paper's ranges)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPhaseSweep(cmd.Context(), cmd, o, s)
		},
	}
	o.addFlags(cmd)
	o.shard.addFlags(cmd, false)
	cmd.Flags().DurationVar(&o.checkpoint, "checkpoint-every", 2*time.Second, "time between checkpoints of an unfinished sweep")
	cmd.MarkFlagRequired("out")
	return cmd
}

// gridSpec is the grid the flags ask for.
func (o *phaseSweepOptions) gridSpec() phase.GridSpec {
	g := phase.GridSpec{MStep: o.mStep, N1Step: o.n1.Step, N2Step: o.n2.Step}
	rng := func(r intRange) *phase.Range {
		if !r.set {
			return nil
		}
		return &phase.Range{Lo: r.Lo, Hi: r.Hi}
	}
	g.N1, g.N2, g.M = rng(o.n1), rng(o.n2), rng(o.m)
	if o.alpha.set {
		g.Alpha = &o.alpha.r
	}
	if o.beta.set {
		g.Beta = &o.beta.r
	}
	return g
}

func (o *phaseSweepOptions) check() error {
	switch {
	case o.samples < 1:
		return usagef("--samples must be at least 1, got %d", o.samples)
	case o.adaptive && o.budget < o.samples:
		return usagef("--budget (%d) must be at least --samples (%d)", o.budget, o.samples)
	case !(0 <= o.bandLo && o.bandLo <= o.bandHi && o.bandHi <= 1):
		return usagef("the band [%v, %v] must satisfy 0 <= --band-lo <= --band-hi <= 1", o.bandLo, o.bandHi)
	}
	return nil
}

func runPhaseSweep(ctx context.Context, cmd *cobra.Command, o *phaseSweepOptions, s streams) error {
	if err := o.check(); err != nil {
		return err
	}
	frags := fragments.All()
	if o.fragment.value != "all" {
		frags = []fragments.Fragment{o.fragment.fragment()}
	}
	newBackend, solverName, err := o.solver.backends()
	if o.labeller.value == "paper" {
		newBackend, solverName, err = backends.PaperLabeller(o.solver.timeout)
	}
	if err != nil {
		return err
	}
	sharded, err := o.shard.resolve(cmd, nil)
	if err != nil {
		return err
	}
	var plans []phase.Plan
	for _, f := range frags {
		p, err := o.plan(f, solverName, s)
		if err != nil {
			return err
		}
		plans = append(plans, p)
	}
	release, err := lockOut(o.out, true)
	if err != nil {
		return err
	}
	defer release()
	start := time.Now()
	total := -1
	if !o.adaptive {
		total = 0
		for _, p := range plans {
			total += len(p.Points) * p.Samples
		}
	}
	prog := progress.New(s.Err, "phase-sweep", total, o.solver.quiet)
	opt := phase.RunOptions{
		Workers:    o.solver.jobs,
		NewBackend: newBackend,
		Every:      o.checkpoint,
		Version:    version.Version(),
		Progress:   func(st solver.Status) { prog.Add(int(st), true) },
		Started:    prog.Start,
		Log:        o.solver.logf(s),
	}
	if sharded {
		err = phase.RunShard(ctx, o.out, plans, o.shard.slot, job.Manifest{Toolkit: toolkit(), Command: "nlsat phase-sweep"}, opt)
	} else {
		err = phase.Run(ctx, o.out, plans, opt)
	}
	prog.Finish()
	switch {
	case errors.Is(err, job.ErrDone) && sharded:
		opt.Log("%s already holds this shard, checksums intact; nothing to do", o.out)
	case errors.Is(err, job.ErrDone):
		opt.Log("%s already holds this sweep, checksums intact; nothing to do", o.out)
	case err != nil:
		return err
	case sharded:
		opt.Log("phase-sweep %s done; merge all shards with: nlsat merge --out DIR SHARD_DIR...", o.shard.slot)
	default:
		opt.Log("phase-sweep done in %s; output in %s", time.Since(start).Round(time.Millisecond), o.out)
	}
	return nil
}

// plan resolves the grid and settings of fragment f.
func (o *phaseSweepOptions) plan(f fragments.Fragment, solverName string, s streams) (phase.Plan, error) {
	g, err := o.gridSpec().Grid(f)
	if err != nil {
		return phase.Plan{}, usageError{err}
	}
	sampler, lx, err := o.sampler.sampler()
	if err != nil {
		return phase.Plan{}, err
	}
	pts, skipped, err := g.Points(f, sampler.WithLexicon(lx))
	if err != nil {
		return phase.Plan{}, usageError{err}
	}
	if len(pts) == 0 {
		return phase.Plan{}, usagef("fragment %s: the grid has no drawable point", f)
	}
	if len(skipped) > 0 {
		o.solver.logf(s)("fragment %s: skipped %d points with fewer distinct sentences than m (first: m=%d n1=%d n2=%d)",
			f, len(skipped), skipped[0].M, skipped[0].N1, skipped[0].N2)
	}
	p := phase.Plan{
		Fragment:   f.String(),
		Points:     pts,
		Samples:    o.samples,
		Band:       phase.Band{Lo: o.bandLo, Hi: o.bandHi},
		Seed:       o.seed,
		Sampler:    sampler,
		FixedN2:    o.fixedN2,
		Solver:     o.solver.solver.value,
		SolverName: solverName,
		Vocabulary: lx,
	}
	if o.adaptive {
		p.Budget = o.budget
	}
	if o.labeller.value == "paper" {
		p.Solver, p.Labeller, p.SolverName = "paper", solverName, "z3-"+z3.Version()
	}
	if p.Solver != "native" {
		p.Timeout = o.solver.timeout.String()
	}
	return p, nil
}

// ratioRange is a flag of ratios (phase.ParseRatios).
type ratioRange struct {
	r   phase.Ratios
	set bool
}

func (r *ratioRange) String() string {
	if !r.set {
		return ""
	}
	return r.r.String()
}

func (r *ratioRange) Set(s string) (err error) {
	r.r, err = phase.ParseRatios(s)
	r.set = err == nil
	return err
}

func (r *ratioRange) Type() string { return "LO-HI:STEP" }
