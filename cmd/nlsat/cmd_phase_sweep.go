package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/solver"
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
	ownShare       float64
	negProb        float64
	repeats        bool
	solver         *solverOptions
	shard          shardOptions
	checkpoint     time.Duration
}

func (o *phaseSweepOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Var(o.fragment, "fragment", "fragment to sweep: S, W, V, Z, A or all (all writes one subdirectory per fragment)")
	f.Var(&o.n1, "n1", "nouns per instance, a number or range (default 6-16 for S, W; 3-8 for V, Z, A)")
	f.Var(&o.n2, "n2", "verbs per instance for V, Z, A, a number or range (default 3-8)")
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
	f.StringVarP(&o.out, "out", "o", "", "output directory (created if missing; every file written atomically)")
	f.IntVar(&o.fixedN2, "fixed-n2", 0, "n2 of the P(sat) and time curves for V, Z, A (default: the middle n2 of the sweep)")
	f.Float64Var(&o.ownShare, "own-share", 0.5, "sampler: probability of one of the fragment's own templates (recorded in region.json)")
	f.Float64Var(&o.negProb, "neg-prob", 0.5, "sampler: probability of each optional negation (recorded in region.json)")
	f.BoolVar(&o.repeats, "allow-repeats", false, "sampler: allow the same noun or verb twice in one sentence")
	o.solver.addFlags(cmd)
}

func newPhaseSweepCmd(s streams) *cobra.Command {
	o := &phaseSweepOptions{fragment: newEnum("all", "S", "W", "V", "Z", "A", "all"), solver: newSolverOptions("native", false)}
	cmd := &cobra.Command{
		Use:   "phase-sweep",
		Short: "Map P(sat) over a grid of (m, n1, n2) and find the phase-change region",
		Long: `Phase-sweep draws instances at every point (m, n1, n2) of a grid, decides
each, and estimates P(sat) with a Wilson 95% interval. It writes into --out:

  points.csv, points.jsonl  counts, P(sat), interval and verdict per point
                            (identical bytes for the same flags, any -j)
  timing.csv                median and 90th-percentile solver time per point
                            (varies from run to run)
  crossings.csv             where P(sat) falls through 0.5 on each (n1, n2)
  region.json               the points whose P(sat) lies in the band, for
                            nlsat generate --region
  FIGURE.png, .svg, .csv    P(sat) and median time against α, and for V, Z,
                            A a heat map over (α, β), with the numbers behind

With --fragment all each fragment gets its own subdirectory.

Each point's estimate is checkpointed into .phase-sweep.checkpoint.json as
it is final; if the run is interrupted or killed, the same command resumes
with the points still open and ends in the same files.

` + shardHelp + ` A phase-sweep shard estimates the points
i ≡ shard (mod N) of each fragment's grid into --out (default
phase-sweep-shard-i-of-N); nlsat merge --out DIR SHARD... writes the files
of the whole sweep.

` + exitCodesHelp,
		Example: `  nlsat phase-sweep --fragment S --n1 6-16 --m 4-30 --samples 200 --seed 1 --out sweep-s
  nlsat phase-sweep --fragment A --n1 3-8 --n2 3-8 --alpha 1-10:0.5 --adaptive --out sweep-a
  nlsat phase-sweep --out sweep   # the paper's ranges, every fragment`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPhaseSweep(cmd.Context(), cmd, o, s)
		},
	}
	o.addFlags(cmd)
	o.shard.addFlags(cmd, false)
	cmd.Flags().DurationVar(&o.checkpoint, "checkpoint-every", 2*time.Second, "time between checkpoints of an unfinished sweep")
	return cmd
}

// grid resolves the sweep grid of fragment f from the flags.
func (o *phaseSweepOptions) grid(f fragments.Fragment) (phase.Grid, error) {
	g := phase.DefaultGrid(f)
	if n := btoi(o.m.set) + btoi(o.alpha.set) + btoi(o.beta.set); n > 1 {
		return g, usagef("--m, --alpha and --beta are alternatives: give one")
	}
	monadic := f == fragments.S || f == fragments.W
	if o.n1.set {
		g.N1 = phase.Range{Lo: o.n1.Lo, Hi: o.n1.Hi}
	}
	if o.n2.set && !monadic {
		g.N2 = phase.Range{Lo: o.n2.Lo, Hi: o.n2.Hi}
	}
	switch {
	case o.m.set:
		g.M, g.Alpha, g.MStep = &phase.Range{Lo: o.m.Lo, Hi: o.m.Hi}, nil, o.mStep
	case o.alpha.set:
		g.Alpha = &o.alpha.r
	case o.beta.set:
		if monadic {
			return g, usagef("--beta needs verbs: fragment %s has no verbs (use --alpha or --m)", f)
		}
		g.Alpha, g.Beta = nil, &o.beta.r
	}
	if o.mStep < 1 {
		return g, usagef("--m-step must be at least 1, got %d", o.mStep)
	}
	return g, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (o *phaseSweepOptions) check() error {
	switch {
	case o.out == "":
		return usagef("--out DIR is required")
	case o.samples < 1:
		return usagef("--samples must be at least 1, got %d", o.samples)
	case o.adaptive && o.budget < o.samples:
		return usagef("--budget (%d) must be at least --samples (%d)", o.budget, o.samples)
	case !(0 <= o.ownShare && o.ownShare <= 1 && 0 <= o.negProb && o.negProb <= 1):
		return usagef("--own-share and --neg-prob must lie in [0, 1]")
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
		f, _ := fragments.ParseFragment(o.fragment.value)
		frags = []fragments.Fragment{f}
	}
	newBackend, solverName, err := o.solver.backends()
	if err != nil {
		return err
	}
	sharded, err := o.shard.resolve(cmd, nil)
	if err != nil {
		return err
	}
	if sharded && o.out == "" {
		o.out = fmt.Sprintf("phase-sweep-shard-%d-of-%d", o.shard.slot.Index, o.shard.slot.Count)
	}
	start := time.Now()
	var plans []sweepPlan
	var files []job.FileReport
	for _, f := range frags {
		sp, err := o.sweepPlan(f, solverName, s)
		if err != nil {
			return err
		}
		plans = append(plans, sp)
		dir := o.out
		if len(frags) > 1 && !sharded {
			dir = filepath.Join(o.out, f.String())
		}
		recs, err := o.sweepOne(ctx, sp, dir, sharded, newBackend, s)
		if err != nil {
			return err
		}
		if sharded {
			fr, err := writeShardPoints(o.out, f, recs)
			if err != nil {
				return err
			}
			files = append(files, fr)
		}
	}
	if sharded {
		return writeSweepShard(o, plans, files, s)
	}
	// Every fragment is written: the checkpoints, kept until now so that a
	// resumed run skips finished fragments, can go.
	for _, f := range frags {
		dir := o.out
		if len(frags) > 1 {
			dir = filepath.Join(o.out, f.String())
		}
		if err := os.Remove(filepath.Join(dir, ".phase-sweep.checkpoint.json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if !o.solver.quiet {
		fmt.Fprintf(s.Err, "nlsat: phase-sweep done in %s; output in %s\n", time.Since(start).Round(time.Millisecond), o.out)
	}
	return nil
}

// sweepPlan is everything that decides one fragment's sweep files.
type sweepPlan struct {
	Fragment   string                  `json:"fragment"`
	Points     []phase.Point           `json:"points"`
	Samples    int                     `json:"samples"`
	Budget     int                     `json:"budget"`
	Band       phase.Band              `json:"band"`
	Seed       uint64                  `json:"seed"`
	Sampler    fragments.SamplerParams `json:"sampler"`
	FixedN2    int                     `json:"fixed_n2"`
	Solver     string                  `json:"solver"`
	SolverName string                  `json:"solver_name"`
	Timeout    string                  `json:"timeout"`
}

func (sp *sweepPlan) frag() fragments.Fragment {
	f, _ := fragments.ParseFragment(sp.Fragment)
	return f
}

func (sp *sweepPlan) digest() string {
	data, _ := json.Marshal(sp)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// config returns the phase configuration of the plan without a solver.
func (sp *sweepPlan) config() phase.Config {
	params := sp.Sampler.Params()
	return phase.Config{Fragment: sp.frag(), Params: params, Points: sp.Points, Samples: sp.Samples, Budget: sp.Budget, Band: sp.Band, Seed: sp.Seed}
}

// sweepPlan resolves the grid and settings of fragment f.
func (o *phaseSweepOptions) sweepPlan(f fragments.Fragment, solverName string, s streams) (sweepPlan, error) {
	g, err := o.grid(f)
	if err != nil {
		return sweepPlan{}, err
	}
	params := fragments.SamplerParams{OwnShare: o.ownShare, NegProb: o.negProb, Distinct: !o.repeats}.Params()
	pts, skipped, err := g.Points(f, params)
	if err != nil {
		return sweepPlan{}, usageError{err}
	}
	if len(pts) == 0 {
		return sweepPlan{}, usagef("fragment %s: the grid has no drawable point", f)
	}
	if len(skipped) > 0 && !o.solver.quiet {
		fmt.Fprintf(s.Err, "nlsat: fragment %s: skipped %d points with fewer distinct sentences than m (first: m=%d n1=%d n2=%d)\n",
			f, len(skipped), skipped[0].M, skipped[0].N1, skipped[0].N2)
	}
	sp := sweepPlan{Fragment: f.String(), Points: pts, Samples: o.samples, Band: phase.Band{Lo: o.bandLo, Hi: o.bandHi},
		Seed: o.seed, Sampler: fragments.SamplerParams{OwnShare: o.ownShare, NegProb: o.negProb, Distinct: !o.repeats},
		FixedN2: o.fixedN2, Solver: o.solver.solver.value, SolverName: solverName}
	if o.adaptive {
		sp.Budget = o.budget
	}
	if sp.Solver != "native" {
		sp.Timeout = o.solver.timeout.String()
	}
	return sp, nil
}

// sweepCheckpoint holds the final estimates of a sweep in progress.
type sweepCheckpoint struct {
	Digest string         `json:"digest"`
	Done   []phase.Record `json:"done"`
}

// sweepOne estimates the points of one fragment (this shard's, if
// sharded), resuming from dir's checkpoint, and unless sharded writes the
// fragment's files into dir. It returns the records of its points in grid
// order.
func (o *phaseSweepOptions) sweepOne(ctx context.Context, sp sweepPlan, dir string, sharded bool,
	newBackend func() (solver.Backend, error), s streams) ([]phase.Record, error) {
	f := sp.frag()
	mine := sp.Points
	ckName := ".phase-sweep.checkpoint.json"
	if sharded {
		mine = nil
		for i, p := range sp.Points {
			if i%o.shard.slot.Count == o.shard.slot.Index {
				mine = append(mine, p)
			}
		}
		ckName = ".phase-sweep-" + f.String() + ".checkpoint.json"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, usagef("cannot create %s: %v", dir, err)
	}
	if err := dataset.RemoveStaleTemps(dir, ""); err != nil {
		return nil, err
	}
	ckPath := filepath.Join(dir, ckName)
	ck := sweepCheckpoint{Digest: sp.digest()}
	if sharded {
		ck.Digest += fmt.Sprintf("/%d/%d", o.shard.slot.Index, o.shard.slot.Count)
	}
	done := map[phase.Point]phase.Record{}
	if data, err := os.ReadFile(ckPath); err == nil {
		var old sweepCheckpoint
		if err := json.Unmarshal(data, &old); err != nil || old.Digest != ck.Digest {
			return nil, usagef("%s belongs to an unfinished sweep with other settings (or is corrupt); run that command again, or delete it to start afresh", ckPath)
		}
		for _, r := range old.Done {
			done[r.Point] = r
		}
		if !o.solver.quiet {
			fmt.Fprintf(s.Err, "nlsat: fragment %s: resuming with %d of %d points done\n", f, len(done), len(mine))
		}
	}
	save := func() error {
		ck.Done = ck.Done[:0]
		for _, p := range mine {
			if r, ok := done[p]; ok {
				ck.Done = append(ck.Done, r)
			}
		}
		data, _ := json.Marshal(ck)
		return phase.WriteFile(ckPath, func(w io.Writer) error { _, err := w.Write(data); return err })
	}
	var todo []phase.Point
	for _, p := range mine {
		if _, ok := done[p]; !ok {
			todo = append(todo, p)
		}
	}
	cfg := sp.config()
	cfg.Points, cfg.Workers, cfg.NewBackend, cfg.Close = todo, o.solver.jobs, newBackend, solver.Close
	total := len(todo) * o.samples
	if o.adaptive {
		total = -1
	}
	prog := newProgress(s.Err, "phase-sweep "+f.String(), total, o.solver.quiet)
	cfg.Done = func(st solver.Status) { prog.add(st, true) }
	last := time.Now()
	cfg.Final = func(e phase.Estimate) error {
		done[e.Point] = e.Record()
		if time.Since(last) >= o.checkpoint {
			last = time.Now()
			return save()
		}
		return nil
	}
	start := time.Now()
	if len(todo) > 0 {
		_, err := phase.Run(ctx, cfg)
		prog.finish()
		if err != nil {
			if serr := save(); serr != nil {
				return nil, errors.Join(err, serr)
			}
			return nil, err
		}
	}
	recs := make([]phase.Record, 0, len(mine))
	for _, p := range mine {
		recs = append(recs, done[p])
	}
	if !sharded {
		if err := writeSweepFiles(dir, sp, recs, s, o.solver.quiet, time.Since(start)); err != nil {
			return nil, err
		}
	} else if err := save(); err != nil {
		return nil, err
	}
	return recs, nil
}

// writeSweepFiles writes a fragment's files from the records of all its
// points (in grid order).
func writeSweepFiles(dir string, sp sweepPlan, recs []phase.Record, s streams, quiet bool, took time.Duration) error {
	cfg := sp.config()
	es := make([]phase.Estimate, len(recs))
	for i, r := range recs {
		es[i] = r.Estimate(cfg.Fragment, cfg.Band)
	}
	region := phase.NewRegion(cfg, es, toolVersion(), sp.SolverName)
	if err := phase.WriteSweep(dir, es, region, sp.FixedN2); err != nil {
		return err
	}
	if !quiet {
		reportSweep(s.Err, cfg.Fragment, es, region, took)
	}
	return nil
}

// reportSweep prints a summary of one fragment's sweep on w.
func reportSweep(w io.Writer, f fragments.Fragment, es []phase.Estimate, region *phase.Region, took time.Duration) {
	n := 0
	for _, e := range es {
		n += e.N
	}
	fmt.Fprintf(w, "nlsat: fragment %s: %d points, %d instances in %s; %d points in the band [%v, %v]\n",
		f, len(es), n, took.Round(time.Millisecond), len(region.Points), region.Band.Lo, region.Band.Hi)
	if c := phase.Crossings(es); len(c) > 0 {
		m := phase.SummarizeCrossings(c)
		fmt.Fprintf(w, "nlsat: fragment %s: P(sat) = 0.5 at median α %.2f, β %.2f, m %.1f over %d curves\n",
			f, m.Alpha, m.Beta, m.M, len(c))
	}
}

// ratioRange is a range of ratios given as "LO-HI:STEP" or a single "R".
type ratioRange struct {
	r   phase.Ratios
	set bool
}

func (r *ratioRange) String() string {
	if !r.set {
		return ""
	}
	return fmt.Sprintf("%g-%g:%g", r.r.Lo, r.r.Hi, r.r.Step)
}

func (r *ratioRange) Set(s string) error {
	bad := fmt.Errorf("%q is not a ratio or a range such as 0.5-3:0.25", s)
	span, step, hasStep := strings.Cut(strings.TrimSpace(s), ":")
	lo, hi, isRange := strings.Cut(span, "-")
	var v [3]float64
	var err error
	for i, t := range []string{lo, hi, step} {
		if t == "" && (i == 1 && !isRange || i == 2 && !hasStep) {
			continue
		}
		if v[i], err = strconv.ParseFloat(strings.TrimSpace(t), 64); err != nil || !(v[i] >= 0) || v[i] > 1e3 {
			return bad
		}
	}
	if !isRange {
		v[1] = v[0]
	}
	if !hasStep {
		v[2] = 1
	}
	if v[1] < v[0] || v[2] <= 0 {
		return fmt.Errorf("%q needs low <= high and a positive step", s)
	}
	r.r, r.set = phase.Ratios{Lo: v[0], Hi: v[1], Step: v[2]}, true
	return nil
}

func (r *ratioRange) Type() string { return "LO-HI:STEP" }
