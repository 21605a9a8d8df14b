package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/progress"
	"github.com/nlsat/nlsat/internal/split"
	"github.com/nlsat/nlsat/internal/task"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

type splitOptions struct {
	fragment                *fragmentsFlag
	preset                  *enumFlag
	train, validation, test int
	generalisation          int
	zeroShot                int
	seed                    uint64
	out                     string
	region                  string
	dedup                   *enumFlag
	drawLimit               int
	sampler                 samplerFlags
	force                   bool
	license                 string
	checkpoint              time.Duration
	holdout                 *enumFlag
	holdoutN                int
	holdoutShare            float64
	holdoutMUS              int
	holdoutPairs            string
	holdoutDepth            int
	proofs                  bool
	minCore                 int
	maxWords                int
	audit                   bool
	balance                 *enumFlag
	pilot                   int
	keepPilots              bool
	shard                   shardOptions
	solver                  *solverOptions
	task                    *enumFlag
}

func newSplitCmd(s streams) *cobra.Command {
	o := &splitOptions{
		fragment: &fragmentsFlag{enumFlag: *newFragmentEnum("A", true), list: []fragments.Fragment{fragments.A}},
		preset:   newEnum("none", "none", "paper", "paper-joint", "paper-joint-small"),
		dedup:    newEnum(split.DedupRenaming, split.DedupRenaming, split.DedupExact),
		balance:  newEnum(split.BalanceSurface, split.BalanceSurface, split.BalanceStrata),
		holdout:  newEnum(split.HoldoutNone, split.HoldoutNone, split.HoldoutSize, split.HoldoutVocabulary, split.HoldoutDifficulty, split.HoldoutTemplates, split.HoldoutDepth),
		solver:   newSolverOptions("native", false),
		task:     newTaskEnum(),
	}
	cmd := &cobra.Command{
		Use:   "split",
		Short: "Build a balanced, deduplicated dataset with train, validation and test splits",
		Long: splitHelp + "\n" + entailSplitHelp + "\n" + shardHelp + ` A split shard draws and labels its share
of the candidates (per stratum, what the stratum's rarer label needs on
average plus four standard deviations, times --oversample) into OUT
(default nlsat-FRAGMENT-shard-i-of-N);
nlsat merge --out DIR SHARD... then accepts them exactly as one run would.
With the surface balance (the default) the shards and the merge take
three turns, each the same two commands: the merge fits the balance
models to the pilots the shards drew and hands them to the shards, which
then decide themselves which candidates the balance keeps; a shard or
merge whose turn is over says what comes next and exits 0
(deploy/slurm-build.sh and deploy/parallel.sh run all three).

` + exitCodesHelp,
		Example: `  nlsat split --fragment S --train 200 --validation 40 --test 40 --out nlsat-S
  nlsat split --fragment W --train 200 --validation 40 --test 40 --zero-shot 40 --holdout size --out nlsat-W
  nlsat split --fragment V --train 100 --validation 20 --test 20 --region sweep-v/region.json --out small-V
  nlsat split --fragment S,W --train 100 --validation 20 --test 20 --out nlsat-SW`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := task.Lookup(o.task.value)
			if err != nil {
				return err
			}
			if t.Units != nil {
				return runUnitSplit(cmd.Context(), cmd, t, o, s)
			}
			return runSplit(cmd.Context(), cmd, o, s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

func (o *splitOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Var(o.task, "task", taskUsage()+" (see Entailment above)")
	f.Var(o.fragment, "fragment", "fragment: S, W, V, Z or A; or several, comma-separated, or all: a joint build, every size per fragment")
	f.Var(o.preset, "preset", "paper: also build the paper's generalisation (6,000) and zero-shot (1,200) sets; paper-joint: all fragments at the paper's sizes per fragment (Table 2's 600K train); paper-joint-small: --train 24,000 per fragment (its 120K); explicit flags override")
	f.IntVar(&o.train, "train", 120_000, "instances in the train split (even)")
	f.IntVar(&o.validation, "validation", 10_000, "instances in the validation split (even)")
	f.IntVar(&o.test, "test", 10_000, "instances in the test split (even)")
	f.IntVar(&o.generalisation, "generalisation", 0, "instances in the generalisation set (even; 0 = none; --preset paper: 6,000)")
	f.IntVar(&o.zeroShot, "zero-shot", 0, "instances in the zero-shot set (even; 0 = none; --preset paper: 1,200)")
	f.Uint64Var(&o.seed, "seed", 1, "master seed")
	f.StringVarP(&o.out, "out", "o", "", "output directory (default nlsat-FRAGMENT)")
	f.StringVar(&o.region, "region", "", "region.json from nlsat phase-sweep, or paper: the paper's band shipped for the fragment (where its Z3 labelling put P(sat) ≈ 0.5; labels stay this build's) (default: the region shipped for the fragment)")
	f.IntVar(&o.maxWords, "max-words", 0, "keep only the region's points (m, n1, n2) none of whose instances can exceed this many words split at spaces (m × the fragment's longest sentence ≤ N); the manifest lists the points dropped; 0 keeps all")
	f.Var(o.dedup, "dedup", "renaming: no two instances equal up to renaming nouns and verbs and reordering sentences; exact: only no two with the same sentences")
	f.IntVar(&o.drawLimit, "draw-limit", 20, "give up on a stratum after drawing this many times its size in candidates")
	o.sampler.addFlags(cmd, " (must match the region's)")
	f.BoolVar(&o.force, "force", false, "write into an output directory that already holds files")
	f.StringVar(&o.license, "license", "cc-by-4.0", "license the dataset card declares")
	f.DurationVar(&o.checkpoint, "checkpoint-every", 2*time.Second, "time between checkpoints of an unfinished build")
	f.Var(o.holdout, "holdout", "what test holds out from train and validation: size (larger n = n1 + n2), vocabulary (nouns and verbs train never uses), difficulty (unsat instances whose every MUS is larger), templates (pairs of templates never together in train), depth (unsat instances with deeper proofs) or none")
	f.BoolVar(&o.audit, "audit", true, "run nlsat audit on the finished data and put its report in the manifest and its verdicts in the card (--audit=false to skip)")
	f.Var(o.balance, "balance", "surface: also thin candidates so that no surface feature predicts the label (see Balance above); strata: only equal counts per stratum")
	f.IntVar(&o.pilot, "balance-pilot", split.DefaultPilot, "with --balance surface: candidates labelled per set only to fit the surface model (a smaller set: twice its size, but at least 10,000 or 8 times its size), and as many again for its residual stage")
	f.IntVar(&o.holdoutN, "holdout-n", 0, "with --holdout size: train and validation take n ≤ this, test n above it (default: the median n of the region)")
	f.Float64Var(&o.holdoutShare, "holdout-share", 0.2, "with --holdout vocabulary: the share of nouns and of verbs kept for test")
	f.StringVar(&o.holdoutPairs, "holdout-pairs", "", "with --holdout templates: comma-separated pairs of templates that never co-occur in train and validation, such as A1+A2,V3+Z1 (default: the fragment's own templates 1 and 2, e.g. A1+A2)")
	f.IntVar(&o.minCore, "min-core", 0, "keep out unsat instances with an unsatisfiable subset of fewer than this many sentences (3: no two sentences contradict each other; each kept instance's absence of one is certified by checked models); 0 keeps all")
	f.IntVar(&o.holdoutMUS, "holdout-mus", 3, "with --holdout difficulty: train and validation take unsat instances with a MUS of at most this many sentences, test those with no unsatisfiable subset that small")
	f.IntVar(&o.holdoutDepth, "holdout-depth", split.DefaultHoldoutDepth, holdoutDepthUsage)
	f.BoolVar(&o.proofs, "proofs", false, proofsUsage)
	o.shard.addFlags(cmd, true)
	f.BoolVar(&o.keepPilots, "keep-pilots", false, "with shards: keep the pilots after the merge has fitted the balance to them, so that the finished shards can be merged again from scratch (into another format, say); they are most of a shard's storage")
	o.solver.addFlags(cmd)
	o.solver.records.addFlags(cmd)
}

// config resolves the options into the build's configuration.
func (o *splitOptions) config(cmd *cobra.Command, solverName string) (split.Config, error) {
	if strings.HasPrefix(o.preset.value, "paper-joint") && !cmd.Flags().Changed("fragment") {
		o.fragment.Set("all")
	}
	if o.preset.value == "paper-joint-small" && !cmd.Flags().Changed("train") {
		o.train = 24_000
	}
	if o.preset.value == "paper" {
		if !cmd.Flags().Changed("generalisation") {
			o.generalisation = 6000
		}
		if !cmd.Flags().Changed("zero-shot") {
			o.zeroShot = 1200
		}
	}
	sampler, lx, err := o.sampler.sampler()
	if err != nil {
		return split.Config{}, err
	}
	return split.Config{
		Fragment:       o.fragment.list[0],
		Fragments:      o.fragment.list,
		Train:          o.train,
		Validation:     o.validation,
		Test:           o.test,
		Generalisation: o.generalisation,
		ZeroShot:       o.zeroShot,
		Seed:           o.seed,
		RegionFile:     o.region,
		Dedup:          o.dedup.value,
		DrawLimit:      o.drawLimit,
		Sampler:        sampler,
		Vocabulary:     lx,
		Holdout:        o.holdout.value,
		HoldoutN:       o.holdoutN,
		HoldoutShare:   o.holdoutShare,
		HoldoutMUS:     o.holdoutMUS,
		HoldoutPairs:   o.holdoutPairs,
		HoldoutDepth:   o.holdoutDepth,
		Proofs:         o.proofs,
		Balance:        o.balance.value,
		Pilot:          o.pilot,
		MinCore:        o.minCore,
		MaxWords:       o.maxWords,
		Audit:          o.audit,
		Solver:         o.solver.solver.value,
		SolverName:     solverName,
	}, nil
}

func runSplit(ctx context.Context, cmd *cobra.Command, o *splitOptions, s streams) error {
	newBackend, solverName, err := o.solver.backends()
	if err != nil {
		return err
	}
	cfg, err := o.config(cmd, solverName)
	if err != nil {
		return err
	}
	p, err := split.NewPlan(cfg)
	if err != nil {
		return usageError{err}
	}
	sharded, err := o.shard.resolve(cmd, nil)
	if err != nil {
		return err
	}
	o.defaultOut(p.Fragment, "", sharded)
	release, err := lockOut(o.out, true)
	if err != nil {
		return err
	}
	defer release()
	var prog *progress.Bar
	progWhat := ""
	// bar returns the progress bar of what (a set, its pilot or a step
	// of the build), starting a new one, made by newBar, when what
	// changes.
	bar := func(what string, total int, newBar func(w io.Writer, what string, total int, quiet bool) *progress.Bar) *progress.Bar {
		if what != progWhat {
			if prog != nil {
				prog.Finish()
			}
			prog = newBar(s.Err, "split "+p.Fragment+" "+what, total, o.solver.quiet)
			progWhat = what
		}
		return prog
	}
	opt := split.Options{
		Dir:             o.out,
		Workers:         o.solver.jobs,
		Force:           o.force,
		Output:          o.solver.records.spec(),
		License:         o.license,
		CheckpointEvery: o.checkpoint,
		Toolkit:         toolkit(),
		Audit:           audit.ForManifest(satunsat.Task.Audit),
		Command:         cfg.Command(p),
		NewBackend:      newBackend,
		Progress: func(set string, ready, total, label int) {
			b := bar(set, total, func(w io.Writer, what string, total int, quiet bool) *progress.Bar {
				return progress.New(w, what, total, quiet).Units("accepted", "collected so far")
			})
			b.Add(int(dataset.StatusOf(label)), false)
			b.Set(ready)
		},
		Pilot: func(set string, total, label int) {
			bar(set+" pilot", total, progress.New).Add(int(dataset.StatusOf(label)), true)
		},
		Phase: func(what string, total int) func() {
			return bar(what, total, progress.NewSteps).Step
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
	m, err := split.Run(ctx, p, opt)
	if prog != nil {
		prog.Finish()
	}
	if done, err := o.built(ctx, err, s); done || err != nil {
		return err
	}
	if !o.solver.quiet {
		fmt.Fprintf(s.Err, "nlsat: built %s in %s with %s\n", o.out, time.Since(start).Round(time.Second), m.Solver)
		m.WriteSummary(s.Err, true)
		writeBuildEnd(s.Err, o.out, m.Audit, m.AuditSummary)
	}
	return nil
}

// writeBuildEnd ends a build's summary: the audit's verdict and what to
// open next.
func writeBuildEnd(w io.Writer, dir string, report json.RawMessage, summary string) {
	var rep audit.Report
	switch {
	case len(report) == 0 || string(report) == "null":
		if summary == "" {
			fmt.Fprintf(w, "  audit: not run (--audit=false); run nlsat audit %s for it\n", dir)
		} else {
			fmt.Fprintf(w, "  audit: %s", summary)
		}
	case json.Unmarshal(report, &rep) != nil:
		fmt.Fprintf(w, "  audit: see audit in %s\n", filepath.Join(dir, split.ManifestFile))
	default:
		if sc := rep.Shortcuts(); len(sc) > 0 {
			fmt.Fprintf(w, "  audit: %d shortcut verdicts: %s\n", len(sc), strings.Join(sc, "; "))
		} else {
			fmt.Fprintln(w, "  audit: no shortcut found: no baseline, surface feature, metadata field, file order or sentence pattern predicts the label")
		}
		fmt.Fprintf(w, "  (the card's \"Shortcut audit\" section has the figures; the full report is audit in %s)\n", filepath.Join(dir, split.ManifestFile))
	}
	fmt.Fprintf(w, "  next: read the dataset card %s; the data files are under %s\n", filepath.Join(dir, split.CardFile), filepath.Join(dir, "data")+string(filepath.Separator))
}

// built says what a build's error means: done (and nil) when the
// directory already held the dataset, the error to return (with a hint
// to resume when interrupted), or neither when the build is new.
func (o *splitOptions) built(ctx context.Context, err error, s streams) (bool, error) {
	switch {
	case errors.Is(err, split.ErrAlreadyBuilt):
		o.solver.logf(s)("%s already holds this dataset, checksums intact; nothing to do", o.out)
		return true, nil
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(s.Err, "nlsat: interrupted; run the same command again to resume the build in %s\n", o.out)
		return false, ctx.Err()
	}
	return false, err
}

// defaultOut sets --out, when not given, to nlsat-FRAGMENTS (then -suffix,
// and for a shard -shard-i-of-N).
func (o *splitOptions) defaultOut(fragments, suffix string, sharded bool) {
	if o.out != "" {
		return
	}
	o.out = "nlsat-" + strings.ReplaceAll(fragments, ",", "")
	if suffix != "" {
		o.out += "-" + suffix
	}
	if sharded {
		o.out += fmt.Sprintf("-shard-%d-of-%d", o.shard.slot.Index, o.shard.slot.Count)
	}
}

// fragmentsFlag is split's --fragment: one fragment, several or all.
type fragmentsFlag struct {
	enumFlag
	list []fragments.Fragment
}

func (f *fragmentsFlag) Set(s string) error {
	list, err := split.ParseFragments(s)
	if err != nil {
		return fmt.Errorf("%q is not one of %s, nor a comma-separated list of them", s, strings.Join(f.allowed, ", "))
	}
	f.value, f.list = s, list
	return nil
}

func runSplitShard(ctx context.Context, p *split.Plan, opt split.Options, o *splitOptions, s streams, start time.Time) error {
	opt.Log("split %s: %s into %s", p.Fragment, o.shard.slot.String(), o.out)
	shard := split.Shard{
		Index:      o.shard.slot.Index,
		Count:      o.shard.slot.Count,
		Oversample: o.shard.oversample,
		KeepPilots: o.keepPilots,
	}
	m, err := split.RunShard(ctx, p, shard, opt)
	if errors.Is(err, split.ErrAlreadyBuilt) {
		opt.Log("%s already holds this shard, checksums intact; nothing to do", o.out)
		return nil
	}
	if errors.Is(err, split.ErrWaiting) {
		logShardFiles(opt, m)
		opt.Log("shard %d of %d has drawn, in %s, all it can before the merge fits the balance models to every shard's pilots; "+
			"merge the shards (nlsat merge --out DIR SHARD_DIR...), then run this shard again: the shards and the merge take turns until the merge writes the dataset",
			m.Index, m.Count, time.Since(start).Round(time.Second))
		return nil
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(s.Err, "nlsat: interrupted; run the same command again to resume the shard in %s\n", o.out)
			return ctx.Err()
		}
		return err
	}
	logShardFiles(opt, m)
	opt.Log("shard %d of %d done in %s; merge all shards with: nlsat merge --out DIR SHARD_DIR...", m.Index, m.Count, time.Since(start).Round(time.Second))
	return nil
}

// logShardFiles says what each of a shard's files holds, or held before
// the shard removed it once the merge had read it.
func logShardFiles(opt split.Options, m *job.Manifest) {
	for _, f := range m.Files {
		if f.Spent {
			opt.Log("  %s: %d candidates, removed: the merge has read them", f.Path, f.Rows)
			continue
		}
		opt.Log("  %s: %d candidates", f.Path, f.Rows)
	}
}
