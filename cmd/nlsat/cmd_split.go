package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/build"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/solver"
)

type splitOptions struct {
	fragment                *enumFlag
	preset                  *enumFlag
	train, validation, test int
	generalisation          int
	zeroShot                int
	seed                    uint64
	out                     string
	region                  string
	dedup                   *enumFlag
	drawLimit               int
	ownShare, negProb       float64
	repeats                 bool
	force                   bool
	license                 string
	checkpoint              time.Duration
	holdout                 *enumFlag
	holdoutN                int
	holdoutShare            float64
	holdoutMUS              int
	holdoutPairs            string
	audit                   bool
	balance                 *enumFlag
	pilot                   int
	shard                   shardOptions
	solver                  *solverOptions
}

func newSplitCmd(s streams) *cobra.Command {
	o := &splitOptions{
		fragment: newEnum("A", "S", "W", "V", "Z", "A"),
		preset:   newEnum("none", "none", "paper"),
		dedup:    newEnum(build.DedupRenaming, build.DedupRenaming, build.DedupExact),
		balance:  newEnum(build.BalanceSurface, build.BalanceSurface, build.BalanceStrata),
		holdout:  newEnum(build.HoldoutNone, build.HoldoutNone, build.HoldoutSize, build.HoldoutVocabulary, build.HoldoutDifficulty, build.HoldoutTemplates),
		solver:   newSolverOptions("native", false),
	}
	cmd := &cobra.Command{
		Use:   "split",
		Short: "Build a balanced, deduplicated dataset with train, validation and test splits",
		Long: `Split builds a dataset of one fragment: train, validation and test splits
of exact sizes (by default the paper's 120,000 / 10,000 / 10,000), drawn from
the hard region, labelled, and written with a dataset card, a manifest and
checksums:

  OUT/data/train.jsonl, validation.jsonl, test.jsonl   (and the further sets)
  OUT/README.md     dataset card with HuggingFace YAML (configs, features)
  OUT/manifest.json full configuration and every count, per file and stratum
  OUT/SHA256SUMS    checksums that sha256sum -c accepts

Strata. Each split is exactly half sat and half unsat, and so is every
stratum of it. The main splits have one stratum per point (m, n1, n2) of the
region (--region, or the region shipped for the fragment, measured by the
default phase sweep), so the balance holds per fragment × n1 × n2 and per m.
A stratum that cannot be filled stops the build with an error naming it.

Balance. Equal counts per stratum do not stop the surface from predicting
the label: at the same (m, n1, n2) an instance with more existential
sentences is more often satisfiable, and a logistic model on a few word
counts scores over 60% on V, Z and A. With --balance surface (the default)
each set first labels a pilot of --balance-pilot candidates (a smaller set:
its size, but at least 10,000 or eight times its size), which only serve
to fit a logistic model p(x) of P(sat) on surface features x: sizes; the
count, share and log-count of each template variant, of the words every,
some, no, not, non-, who, him, any, does, is, a, an and of their bigrams
("every non-", "is not", ...); and how evenly the sentences spread over
the nouns and verbs. Its scores are calibrated on out-of-sample scores
within the pilot, so that noise in the model is not turned into a pattern.
Every candidate of the set is then kept with probability
min(p, 1-p)/p(its label), decided by its seed alone: kept sat and unsat
instances share one distribution of these features. About 40% of
candidates are thinned (the manifest counts them, and states how well the
model predicted the pilot); the audit measures what is left. --balance
strata skips this.

Uniqueness. No two instances anywhere in the dataset have the same set of
sentences, and by default (--dedup renaming) none is the same problem up to
a renaming of nouns, of verbs, and the order of sentences. The manifest
counts the candidates each rule rejected, and the undecided instances
(never labelled, never written).

Held-out splits. --holdout size gives train and validation the strata with
n = n1 + n2 up to --holdout-n and test the larger ones (the paper's Table
3); --holdout vocabulary draws test instances only from a share of the
nouns and verbs (--holdout-share) that train and validation never use, as
CLUTRR holds out names; --holdout difficulty gives train and validation
unsat instances with a certified MUS of at most --holdout-mus sentences and
test unsat instances with no unsatisfiable subset that small (every subset
shown satisfiable by a checked model), the analogue of RuleTaker's proof
depth; sat instances are drawn alike for all three; --holdout templates
keeps pairs of templates (--holdout-pairs, by default the fragment's own
templates 1 and 2) from ever occurring together in train and validation
(each candidate is drawn without one template of each pair, chosen by a
fair coin) and gives test only instances that hold both templates of some
pair. The manifest and the card record what was held out.

Further sets (--preset paper adds both): --generalisation N instances at
larger sizes (n1 16–24 for S, W; n1 8–12 and n2 8–24 for V, Z, A; one stratum
per (n1, n2)), and --zero-shot N instances at small sizes (n1 5–10 for S, W;
n1 3–5, n2 2–5 for V, Z, A; one stratum per n = n1 + n2), both at the fitted
hard m. They are deduplicated against everything else.

Long runs. Progress goes to stderr. The build checkpoints into
OUT/.nlsat-build; if it is interrupted (Ctrl-C, kill, crash), running the
same command again resumes it and ends in the same bytes as an
uninterrupted run. No file appears under OUT/data before it is complete.
The output is identical for any -j.

` + shardHelp + ` A split shard draws and labels its share
of the candidates (per stratum, what the stratum's rarer label needs on
average plus four standard deviations, times --oversample) into OUT
(default nlsat-FRAGMENT-shard-i-of-N);
nlsat merge --out DIR SHARD... then accepts them exactly as one run would.

` + exitCodesHelp,
		Example: `  nlsat split --fragment A --seed 1 --out nlsat-A
  nlsat split --fragment S --preset paper --out nlsat-S
  nlsat split --fragment V --train 2000 --validation 200 --test 200 --region phase/V/region.json --out small-V`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSplit(cmd.Context(), cmd, o, s)
		},
	}
	f := cmd.Flags()
	f.Var(o.fragment, "fragment", "fragment: S, W, V, Z or A")
	f.Var(o.preset, "preset", "paper: also build the paper's generalisation (6,000) and zero-shot (1,200) sets; explicit size flags override")
	f.IntVar(&o.train, "train", 120_000, "instances in the train split (even)")
	f.IntVar(&o.validation, "validation", 10_000, "instances in the validation split (even)")
	f.IntVar(&o.test, "test", 10_000, "instances in the test split (even)")
	f.IntVar(&o.generalisation, "generalisation", 0, "instances in the generalisation set (even; 0 = none; --preset paper: 6,000)")
	f.IntVar(&o.zeroShot, "zero-shot", 0, "instances in the zero-shot set (even; 0 = none; --preset paper: 1,200)")
	f.Uint64Var(&o.seed, "seed", 1, "master seed")
	f.StringVarP(&o.out, "out", "o", "", "output directory (default nlsat-FRAGMENT)")
	f.StringVar(&o.region, "region", "", "region.json from nlsat phase-sweep (default: the region shipped for the fragment)")
	f.Var(o.dedup, "dedup", "renaming: no two instances equal up to renaming nouns and verbs and reordering sentences; exact: only no two with the same sentences")
	f.IntVar(&o.drawLimit, "draw-limit", 20, "give up on a stratum after drawing this many times its size in candidates")
	f.Float64Var(&o.ownShare, "own-share", 0.5, "probability of drawing one of the fragment's own templates (must match the region's)")
	f.Float64Var(&o.negProb, "neg-prob", 0.5, "probability of each optional negation (must match the region's)")
	f.BoolVar(&o.repeats, "allow-repeats", false, "allow the same noun or verb twice in one sentence (must match the region's)")
	f.BoolVar(&o.force, "force", false, "write into an output directory that already holds files")
	f.StringVar(&o.license, "license", "cc-by-4.0", "license the dataset card declares")
	f.DurationVar(&o.checkpoint, "checkpoint-every", 2*time.Second, "time between checkpoints of an unfinished build")
	f.Var(o.holdout, "holdout", "what test holds out from train and validation: size (larger n = n1 + n2), vocabulary (nouns and verbs train never uses), difficulty (unsat instances whose every MUS is larger), templates (pairs of templates never together in train) or none")
	f.BoolVar(&o.audit, "audit", true, "run nlsat audit on the finished data and put its report in the manifest and its verdicts in the card (--audit=false to skip)")
	f.Var(o.balance, "balance", "surface: also thin candidates so that no surface feature predicts the label (see Balance above); strata: only equal counts per stratum")
	f.IntVar(&o.pilot, "balance-pilot", build.DefaultPilot, "with --balance surface: candidates labelled per set only to fit the surface model (a smaller set: its size, but at least 10,000 or 8 times its size)")
	f.IntVar(&o.holdoutN, "holdout-n", 0, "with --holdout size: train and validation take n ≤ this, test n above it (default: the median n of the region)")
	f.Float64Var(&o.holdoutShare, "holdout-share", 0.2, "with --holdout vocabulary: the share of nouns and of verbs kept for test")
	f.StringVar(&o.holdoutPairs, "holdout-pairs", "", "with --holdout templates: comma-separated pairs of templates that never co-occur in train and validation, such as A1+A2,V3+Z1 (default: the fragment's own templates 1 and 2, e.g. A1+A2)")
	f.IntVar(&o.holdoutMUS, "holdout-mus", 3, "with --holdout difficulty: train and validation take unsat instances with a MUS of at most this many sentences, test those with no unsatisfiable subset that small")
	o.shard.addFlags(cmd, true)
	o.solver.addFlags(cmd)
	return cmd
}

// plan resolves the options into a build plan.
func (o *splitOptions) plan(cmd *cobra.Command, solverName string) (*build.Plan, error) {
	frag, err := fragments.ParseFragment(o.fragment.value)
	if err != nil {
		return nil, usageError{err}
	}
	if o.preset.value == "paper" {
		if !cmd.Flags().Changed("generalisation") {
			o.generalisation = 6000
		}
		if !cmd.Flags().Changed("zero-shot") {
			o.zeroShot = 1200
		}
	}
	if o.ownShare < 0 || o.ownShare > 1 || o.negProb < 0 || o.negProb > 1 {
		return nil, usagef("--own-share and --neg-prob must lie in [0, 1]")
	}
	p := &build.Plan{Fragment: frag.String(), Seed: o.seed, Dedup: o.dedup.value, DrawLimit: o.drawLimit, Solver: solverName, Audit: o.audit,
		Sampler: fragments.SamplerParams{OwnShare: o.ownShare, NegProb: o.negProb, Distinct: !o.repeats},
		Balance: build.Balance{Mode: o.balance.value}}
	if p.Balance.Mode == build.BalanceSurface {
		p.Balance.Pilot = o.pilot
	}
	if o.drawLimit < 1 {
		return nil, usagef("--draw-limit must be at least 1, got %d", o.drawLimit)
	}
	region, source, err := o.loadRegion(frag, p.Sampler)
	if err != nil {
		return nil, err
	}
	main := build.Pool{Name: "main", Source: source, Strata: build.RegionStrata(region)}
	// allowed[t] says which strata split t may use (nil: all).
	allowed := make([][]bool, 3)
	p.Holdout.Kind = o.holdout.value
	switch o.holdout.value {
	case build.HoldoutSize:
		var ns []int
		for _, st := range main.Strata {
			pt := st.Points[0]
			ns = append(ns, pt.N1+pt.N2)
		}
		cut := o.holdoutN
		if cut == 0 {
			sorted := slices.Clone(ns)
			slices.Sort(sorted)
			sorted = slices.Compact(sorted)
			cut = sorted[(len(sorted)-1)/2]
		}
		p.Holdout.MaxTrainN = cut
		for t := range allowed {
			allowed[t] = make([]bool, len(ns))
			for k, n := range ns {
				allowed[t][k] = (n <= cut) == (t < 2)
			}
		}
	case build.HoldoutTemplates:
		spec := o.holdoutPairs
		if spec == "" {
			spec = fmt.Sprintf("%s1+%s2", frag, frag)
		}
		for _, item := range strings.Split(spec, ",") {
			a, b, ok := strings.Cut(strings.TrimSpace(item), "+")
			if !ok {
				return nil, usagef("--holdout-pairs: %q is not a pair of templates such as %s1+%s2", item, frag, frag)
			}
			p.Holdout.HeldPairs = append(p.Holdout.HeldPairs, [2]string{strings.TrimSpace(a), strings.TrimSpace(b)})
		}
		main.Templates = "train"
	case build.HoldoutDifficulty:
		if o.holdoutMUS < 1 {
			return nil, usagef("--holdout-mus must be at least 1, got %d", o.holdoutMUS)
		}
		p.Holdout.MaxTrainMUS = o.holdoutMUS
	case build.HoldoutVocabulary:
		if !(o.holdoutShare > 0 && o.holdoutShare < 1) {
			return nil, usagef("--holdout-share must lie strictly between 0 and 1")
		}
		p.Holdout = build.VocabularyHoldout(o.seed, o.holdoutShare)
		main.Vocabulary = "train"
	}
	test := main
	test.Name, test.Splits = "test", nil
	if main.Vocabulary != "" {
		test.Vocabulary = "test"
	}
	if main.Templates != "" {
		test.Templates = "test"
	}
	sizes := []struct {
		name string
		n    int
		flag string
	}{{build.Train, o.train, "train"}, {build.Validation, o.validation, "validation"}, {build.Test, o.test, "test"}}
	for t, sz := range sizes {
		if sz.n == 0 {
			continue
		}
		sp, err := build.NewSplitOver(sz.name, sz.n, len(main.Strata), allowed[t])
		if err != nil {
			return nil, usagef("--%s: %w", sz.flag, err)
		}
		if t == 2 && (p.Holdout.Kind == build.HoldoutVocabulary || p.Holdout.Kind == build.HoldoutTemplates) {
			test.Splits = append(test.Splits, sp)
		} else {
			main.Splits = append(main.Splits, sp)
		}
	}
	if len(main.Splits)+len(test.Splits) == 0 {
		return nil, usagef("--train, --validation and --test are all 0: nothing to build")
	}
	if len(main.Splits) > 0 {
		p.Pools = append(p.Pools, main)
	}
	if len(test.Splits) > 0 {
		p.Pools = append(p.Pools, test)
	}
	extra := []struct {
		name  string
		n     int
		sizes func(fragments.Fragment) (int, int, int, int)
		make  func(fragments.Fragment, int, int, int, int) []build.Stratum
		what  string
	}{
		{build.Generalisation, o.generalisation, build.GeneralisationSizes, build.SizeStrata, "one stratum per (n1, n2)"},
		{build.ZeroShot, o.zeroShot, build.ZeroShotSizes, build.TotalStrata, "one stratum per n = n1 + n2, its (n1, n2) drawn uniformly"},
	}
	for _, e := range extra {
		if e.n == 0 {
			continue
		}
		a, b, c, d := e.sizes(frag)
		pool := build.Pool{Name: e.name, Strata: e.make(frag, a, b, c, d)}
		pool.Source = fmt.Sprintf("n1 %d–%d", a, b)
		if d > 0 {
			pool.Source += fmt.Sprintf(", n2 %d–%d", c, d)
		}
		pool.Source += ", " + e.what + ", m at the fitted hard m of each (n1, n2)"
		sp, err := build.NewSplit(e.name, e.n, len(pool.Strata))
		if err != nil {
			return nil, usagef("--%s: %w", e.name, err)
		}
		pool.Splits = []build.Split{sp}
		p.Pools = append(p.Pools, pool)
	}
	if err := p.Validate(); err != nil {
		return nil, usageError{err}
	}
	return p, nil
}

// loadRegion returns the points of the region and a description for the
// card.
func (o *splitOptions) loadRegion(frag fragments.Fragment, sp fragments.SamplerParams) ([]phase.RegionPoint, string, error) {
	var r *phase.Region
	var err error
	what := "the points of the region shipped with nlsat for " + frag.String()
	if o.region == "" {
		r, err = phase.DefaultRegion(frag)
		if err != nil {
			return nil, "", err
		}
	} else {
		f, err := os.Open(o.region)
		if err != nil {
			return nil, "", usageError{err}
		}
		defer f.Close()
		if r, err = phase.ReadRegion(f); err != nil {
			return nil, "", usagef("%s: %w", o.region, err)
		}
		if rf := r.FragmentOf(); rf != frag {
			return nil, "", usagef("%s is a region of fragment %s, not of --fragment %s", o.region, rf, frag)
		}
		what = "the points of the region file " + o.region
	}
	if r.Params != sp {
		return nil, "", usagef("the region was measured with sampler parameters %+v, not this run's %+v: its points are not hard for this sampler; measure a region with nlsat phase-sweep and pass it with --region", r.Params, sp)
	}
	if len(r.Points) == 0 {
		return nil, "", usagef("the region of %s has no points", frag)
	}
	what += fmt.Sprintf(" (P(sat) in [%g, %g] at %d instances per point, seed %d), one stratum per point (m, n1, n2)", r.Band.Lo, r.Band.Hi, r.Samples, r.Seed)
	return r.Points, what, nil
}

// command renders the plan as the command line that rebuilds it, with
// every option that changes the output, in a fixed order.
func (o *splitOptions) command(p *build.Plan) string {
	args := []string{"nlsat split", "--fragment " + p.Fragment}
	sizes := map[string]int{}
	for _, pl := range p.Pools {
		for _, sp := range pl.Splits {
			sizes[sp.Name] = sp.Size
		}
	}
	for _, n := range []string{build.Train, build.Validation, build.Test, build.Generalisation, build.ZeroShot} {
		args = append(args, fmt.Sprintf("--%s %d", n, sizes[n]))
	}
	args = append(args, fmt.Sprintf("--seed %d", p.Seed), "--dedup "+p.Dedup, fmt.Sprintf("--draw-limit %d", p.DrawLimit))
	if o.region != "" {
		args = append(args, "--region "+o.region)
	}
	args = append(args, fmt.Sprintf("--own-share %g --neg-prob %g", p.Sampler.OwnShare, p.Sampler.NegProb))
	if !p.Sampler.Distinct {
		args = append(args, "--allow-repeats")
	}
	switch p.Holdout.Kind {
	case build.HoldoutSize:
		args = append(args, fmt.Sprintf("--holdout size --holdout-n %d", p.Holdout.MaxTrainN))
	case build.HoldoutVocabulary:
		args = append(args, fmt.Sprintf("--holdout vocabulary --holdout-share %g", o.holdoutShare))
	case build.HoldoutDifficulty:
		args = append(args, fmt.Sprintf("--holdout difficulty --holdout-mus %d", p.Holdout.MaxTrainMUS))
	case build.HoldoutTemplates:
		var pairs []string
		for _, pair := range p.Holdout.HeldPairs {
			pairs = append(pairs, pair[0]+"+"+pair[1])
		}
		args = append(args, "--holdout templates --holdout-pairs "+strings.Join(pairs, ","))
	}
	if p.Balance.Mode == build.BalanceSurface {
		args = append(args, fmt.Sprintf("--balance surface --balance-pilot %d", p.Balance.Pilot))
	} else {
		args = append(args, "--balance "+p.Balance.Mode)
	}
	if !p.Audit {
		args = append(args, "--audit=false")
	}
	args = append(args, "--solver "+o.solver.solver.value)
	return strings.Join(args, " ")
}

// splitWorker labels instances for the builder with one backend.
type splitWorker struct {
	b solver.Backend
}

func (w *splitWorker) Label(ctx context.Context, inst fragments.Instance) (build.Labelled, error) {
	v, err := solver.Decide(ctx, w.b, inst.Formulas(), solver.DecideOptions{MUS: true})
	if err != nil {
		return build.Labelled{}, err
	}
	if v.Status == solver.Unknown {
		return build.Labelled{Reason: v.Reason.String()}, nil
	}
	return build.Labelled{Record: dataset.NewRecord(inst, v, w.b.Name())}, nil
}

func (w *splitWorker) Solver() solver.Backend { return w.b }

func (w *splitWorker) Close() { solver.Close(w.b) }

// toolkit names this program and its version for manifests.
func toolkit() build.Toolkit {
	return build.Toolkit{Name: "nlsat", Version: toolVersion(), Commit: vcsCommit()}
}

func vcsCommit() string {
	if commit != "" {
		return commit
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && dirty {
		rev += "-dirty"
	}
	return rev
}

func runSplit(ctx context.Context, cmd *cobra.Command, o *splitOptions, s streams) error {
	newBackend, solverName, err := o.solver.backends()
	if err != nil {
		return err
	}
	p, err := o.plan(cmd, solverName)
	if err != nil {
		return err
	}
	sharded, err := o.shard.resolve(cmd, nil)
	if err != nil {
		return err
	}
	if o.out == "" {
		o.out = "nlsat-" + p.Fragment
		if sharded {
			o.out += fmt.Sprintf("-shard-%d-of-%d", o.shard.slot.Index, o.shard.slot.Count)
		}
	}
	var prog *progress
	progSet := ""
	// bar returns the progress bar of what (a set or its pilot), starting
	// a new one, at done of total, when what changes.
	bar := func(what string, total, done int) *progress {
		if what != progSet {
			if prog != nil {
				prog.finish()
			}
			prog = newProgress(s.Err, "split "+p.Fragment+" "+what, total, o.solver.quiet)
			prog.done = done
			progSet = what
		}
		return prog
	}
	opt := build.Options{
		Dir: o.out, Workers: o.solver.jobs, Force: o.force, License: o.license, CheckpointEvery: o.checkpoint,
		Toolkit: toolkit(),
		Command: o.command(p),
		Audit:   auditFor(p),
		NewWorker: func() (build.Worker, error) {
			b, err := newBackend()
			if err != nil {
				return nil, err
			}
			return &splitWorker{b: b}, nil
		},
		Progress: func(set string, accepted, total, label int) {
			bar(set, total, accepted-1).add(dataset.StatusOf(label), true)
		},
		Pilot: func(set string, total, label int) {
			bar(set+" pilot", total, 0).add(dataset.StatusOf(label), true)
		},
		Log: func(format string, a ...any) {
			if !o.solver.quiet {
				fmt.Fprintf(s.Err, "nlsat: "+format+"\n", a...)
			}
		},
	}
	start := time.Now()
	if sharded {
		return runSplitShard(ctx, p, opt, o, s, start)
	}
	m, err := build.Run(ctx, p, opt)
	if prog != nil {
		prog.finish()
	}
	if errors.Is(err, build.ErrAlreadyBuilt) {
		if !o.solver.quiet {
			fmt.Fprintf(s.Err, "nlsat: %s already holds this dataset, checksums intact; nothing to do\n", o.out)
		}
		return nil
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(s.Err, "nlsat: interrupted; run the same command again to resume the build in %s\n", o.out)
			return ctx.Err()
		}
		return err
	}
	if !o.solver.quiet {
		fmt.Fprintf(s.Err, "nlsat: built %s in %s with %s\n", o.out, time.Since(start).Round(time.Second), m.Solver)
		for _, f := range m.Files {
			fmt.Fprintf(s.Err, "  %-28s %7d instances (%d sat, %d unsat)\n", f.Path, f.Rows, f.Labels.Sat, f.Labels.Unsat)
		}
		for _, st := range m.Sets {
			und := 0
			for _, n := range st.Undecided {
				und += n
			}
			fmt.Fprintf(s.Err, "  set %s: %d candidates, %d accepted; rejected: %d undecided, %d thinned by the surface balance, %d held out, %d with their label's quota full, %d duplicates as written, %d up to renaming\n",
				st.Name, st.Candidates, st.Accepted, und, st.Thinned, st.HeldOut, st.LabelFull, st.DuplicatesExact, st.DuplicatesRenaming)
		}
	}
	return nil
}

func runSplitShard(ctx context.Context, p *build.Plan, opt build.Options, o *splitOptions, s streams, start time.Time) error {
	opt.Log("split %s: %s into %s", p.Fragment, o.shard.slot.String(), o.out)
	m, err := build.RunShard(ctx, p, build.Shard{Index: o.shard.slot.Index, Count: o.shard.slot.Count, Oversample: o.shard.oversample}, opt)
	if errors.Is(err, build.ErrAlreadyBuilt) {
		opt.Log("%s already holds this shard, checksums intact; nothing to do", o.out)
		return nil
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(s.Err, "nlsat: interrupted; run the same command again to resume the shard in %s\n", o.out)
			return ctx.Err()
		}
		return err
	}
	for _, f := range m.Files {
		opt.Log("  %s: %d candidates", f.Path, f.Rows)
	}
	opt.Log("shard %d of %d done in %s; merge all shards with: nlsat merge --out DIR SHARD_DIR...", m.Index, m.Count, time.Since(start).Round(time.Second))
	return nil
}

// auditFor returns the audit the plan asks for, if any.
func auditFor(p *build.Plan) func(context.Context, string) (json.RawMessage, string, error) {
	if !p.Audit {
		return nil
	}
	return auditHook()
}
