package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/distract"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/solver"
)

type generateOptions struct {
	fragment  *enumFlag
	count     int
	m, n1, n2 intRange
	seed      uint64
	out       string
	ownShare  float64
	negProb   float64
	repeats   bool
	region    string
	fragSet   bool
	solver    *solverOptions
	// generate only (not crosscheck, which shares these options)
	shard        shardOptions
	checkpoint   time.Duration
	distractors  int
	distractMode *enumFlag
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
	f.Float64Var(&o.ownShare, "own-share", 0.5, "probability of drawing one of the fragment's own three templates rather than an inherited one")
	f.Float64Var(&o.negProb, "neg-prob", 0.5, "probability of each optional negation (non-, not, does not)")
	f.BoolVar(&o.repeats, "allow-repeats", false, "allow the same noun or verb twice in one sentence")
	f.StringVar(&o.region, "region", "", "region.json from nlsat phase-sweep: draw (m, n1, n2) uniformly from its points instead of --m, --n1, --n2")
	o.solver.addFlags(cmd)
}

func newGenerateCmd(s streams) *cobra.Command {
	o := &generateOptions{fragment: newEnum("A", "S", "W", "V", "Z", "A"), solver: newSolverOptions("native", true),
		distractMode: newEnum("fresh", "fresh", "implied")}
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Sample and label random instances of one fragment",
		Long: `Generate samples instances of one fragment with the paper's Algorithm 1 and
labels each with a decision procedure. Each record carries the sentences,
their templates and formulas, the label with its certificate (the size of a
checked model, or a certified minimal unsatisfiable subset), and the seed it
came from. The same flags and seed give the same bytes for any -j.

An instance the solver cannot decide (z3 only) is never written: generate
draws further instances until --count are decided and reports the unknowns
per (m, n1, n2) point on stderr.

Distractors. --distractors K adds K sentences to every instance at seeded
positions, chosen so that they provably keep its label (--distractor-mode
fresh: over nouns and verbs the instance does not use, satisfiable on their
own; implied: over its own words, entailed by its sentences, or by a
maximal consistent subset of them if they are unsat). The label is decided
before and after, then the whole instance is labelled and certified as
usual; the record lists the added sentences in distractors. An instance
for which K distractors cannot be found is counted and replaced.

An output file is written beside its name (.NAME.partial, with a
checkpoint .NAME.checkpoint.json) and moved into place when complete; if
the run is interrupted or killed, the same command resumes it and ends in
the same bytes.

` + shardHelp + ` A generate shard decides the instances
i ≡ shard (mod N) below count × --oversample into a directory (--out,
default generate-FRAGMENT-shard-i-of-N); nlsat merge --out FILE SHARD...
writes the first --count decided instances in index order.

` + exitCodesHelp,
		Example: `  nlsat generate --fragment A --count 1000 --m 16 --n1 5 --n2 5 --seed 7 --out a.jsonl
  nlsat generate --fragment S --n1 10 --m 12-16 --solver none`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.fragSet = cmd.Flags().Changed("fragment")
			return runGenerate(cmd.Context(), cmd, o, s)
		},
	}
	o.addFlags(cmd)
	o.shard.addFlags(cmd, true)
	cmd.Flags().Lookup("oversample").Usage = "with shards: draw instances 0 .. count×oversample−1 in all (above 1 where a solver may leave instances undecided)"
	cmd.Flags().Lookup("oversample").DefValue = "1"
	o.shard.oversample = 1
	cmd.Flags().DurationVar(&o.checkpoint, "checkpoint-every", 2*time.Second, "time between checkpoints of an unfinished output file")
	cmd.Flags().IntVar(&o.distractors, "distractors", 0, "add this many sentences to each instance that provably do not change its label (recorded in the record's distractors)")
	cmd.Flags().Var(o.distractMode, "distractor-mode", "fresh: over words the instance does not use; implied: over its own words, entailed by its (consistent) sentences")
	return cmd
}

// drawPlan is the resolved sampling configuration of a generate run.
type drawPlan struct {
	frag      fragments.Fragment
	params    fragments.Params
	m, n1, n2 intRange
	autoM     bool
	seed      uint64
	region    []phase.Point // when set, (m, n1, n2) are drawn from these
	// distractors added to each instance, and how they are chosen
	distractors  int
	distractMode distract.Mode
}

func (o *generateOptions) plan() (drawPlan, error) {
	frag, err := fragments.ParseFragment(o.fragment.value)
	if err != nil {
		return drawPlan{}, usageError{err}
	}
	p := drawPlan{frag: frag, m: o.m, n1: o.n1, n2: o.n2, autoM: !o.m.set, seed: o.seed}
	p.params = fragments.SamplerParams{OwnShare: o.ownShare, NegProb: o.negProb, Distinct: !o.repeats}.Params()
	if o.ownShare < 0 || o.ownShare > 1 || o.negProb < 0 || o.negProb > 1 {
		return p, usagef("--own-share and --neg-prob must lie in [0, 1]")
	}
	monadic := frag == fragments.S || frag == fragments.W
	if !p.n1.set {
		p.n1 = intRange{Lo: 3, Hi: 8, set: true}
		if monadic {
			p.n1 = intRange{Lo: 6, Hi: 16, set: true}
		}
	}
	if !p.n2.set {
		p.n2 = intRange{Lo: 3, Hi: 8, set: true}
		if monadic {
			p.n2 = intRange{set: true}
		}
	}
	if o.count < 1 {
		return p, usagef("--count must be at least 1, got %d", o.count)
	}
	if o.distractors < 0 {
		return p, usagef("--distractors must be at least 0, got %d", o.distractors)
	}
	if o.distractors > 0 {
		if o.solver != nil && o.solver.solver.value == "none" {
			return p, usagef("--distractors needs a solver to prove the label unchanged; drop --solver none")
		}
		p.distractors = o.distractors
		if o.distractMode != nil {
			p.distractMode, _ = distract.ParseMode(o.distractMode.value)
		}
	}
	if o.region != "" {
		p.region, err = o.loadRegion(&p)
		return p, err
	}
	// Every corner of the ranges must be drawable.
	for _, n1 := range []int{p.n1.Lo, p.n1.Hi} {
		for _, n2 := range []int{p.n2.Lo, p.n2.Hi} {
			for _, m := range p.mRange(n1, n2) {
				if err := fragments.Validate(frag, p.params, m, n1, n2); err != nil {
					return p, usageError{err}
				}
			}
		}
	}
	return p, nil
}

// mRange returns the smallest and largest m drawn at (n1, n2).
func (p drawPlan) mRange(n1, n2 int) []int {
	if p.autoM {
		return []int{phase.HardM(p.frag, n1, n2)}
	}
	return []int{p.m.Lo, p.m.Hi}
}

func uniform(rng *rand.Rand, r intRange) int { return r.Lo + rng.IntN(r.Hi-r.Lo+1) }

// draw samples instance i: its parameters and sentences depend only on
// the seed and i.
func (p drawPlan) draw(i int) (fragments.Instance, error) {
	rng := rand.New(rand.NewPCG(p.seed, uint64(i)))
	if len(p.region) > 0 {
		pt := p.region[rng.IntN(len(p.region))]
		return fragments.Sample(rng, p.frag, p.params, pt.M, pt.N1, pt.N2)
	}
	n1, n2 := uniform(rng, p.n1), uniform(rng, p.n2)
	m := phase.HardM(p.frag, n1, n2)
	if !p.autoM {
		m = uniform(rng, p.m)
	}
	return fragments.Sample(rng, p.frag, p.params, m, n1, n2)
}

type generated struct {
	inst        fragments.Instance
	v           solver.Verdict
	solver      string // the name of the backend that decided it; "" for none
	distractors []int  // indices of the added sentences
}

// genState is generate's checkpoint: the next index to draw, the records
// written and the draws counted so far.
type genState struct {
	Next    int         `json:"next"`
	Written int         `json:"written"`
	Points  []pointStat `json:"points"`
}

// digest identifies everything that decides generate's output.
func (o *generateOptions) digest(p drawPlan, solverName string) (string, json.RawMessage) {
	cfg := struct {
		Fragment  string
		Params    fragments.SamplerParams
		M, N1, N2 [2]int
		AutoM     bool
		Seed      uint64
		Region    []phase.Point
		Count     int
		Solver    string
		Timeout   string
		Distract  string
	}{p.frag.String(), p.params.SamplerParams,
		[2]int{p.m.Lo, p.m.Hi}, [2]int{p.n1.Lo, p.n1.Hi}, [2]int{p.n2.Lo, p.n2.Hi}, p.autoM, p.seed, p.region, o.count, solverName, "", ""}
	if p.distractors > 0 {
		cfg.Distract = fmt.Sprintf("%d %s", p.distractors, p.distractMode)
	}
	if o.solver.solver.value == "z3" || o.solver.solver.value == "both" {
		cfg.Timeout = o.solver.timeout.String()
	}
	data, _ := json.Marshal(cfg)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), data
}

// solverNameOf returns the name records will carry for the factory's
// backends ("none" without a solver).
func solverNameOf(newBackend func() (solver.Backend, error)) (string, error) {
	if newBackend == nil {
		return "none", nil
	}
	b, err := newBackend()
	if err != nil {
		return "", err
	}
	defer closeBackend(b)
	return b.Name(), nil
}

func runGenerate(ctx context.Context, cmd *cobra.Command, o *generateOptions, s streams) error {
	plan, err := o.plan()
	if err != nil {
		return err
	}
	newBackend, err := o.solver.backendFactory()
	if err != nil {
		return err
	}
	solverName, err := solverNameOf(newBackend)
	if err != nil {
		return err
	}
	digest, config := o.digest(plan, solverName)
	sharded, err := o.shard.resolve(cmd, nil)
	if err != nil {
		return err
	}
	if sharded {
		return runGenerateShard(ctx, o, plan, newBackend, solverName, digest, config, s)
	}
	if newBackend == nil && !o.solver.quiet {
		fmt.Fprintln(s.Err, "nlsat: --solver none: records are written without labels (label -1)")
	}

	// The output: stdout, or a file that a later run resumes.
	var st genState
	var w io.Writer
	var rf *dataset.ResumableFile
	if o.out == "-" || o.out == "" {
		w = bufio.NewWriter(s.Out)
		defer w.(*bufio.Writer).Flush()
	} else {
		var resumed bool
		rf, resumed, err = dataset.OpenResumable(o.out, digest, &st)
		if err != nil {
			return usageError{err}
		}
		defer rf.Close()
		if resumed && !o.solver.quiet {
			fmt.Fprintf(s.Err, "nlsat: resuming %s at instance %d (%d of %d written)\n", o.out, st.Next, st.Written, o.count)
		}
		w = rf
	}
	enc := dataset.NewEncoder(w)
	stats := newUnknownStats()
	stats.load(st.Points)
	prog := newProgress(s.Err, "generate "+plan.frag.String(), o.count, o.solver.quiet)
	prog.done = st.Written
	start, last := st.Next, time.Now()
	save := func() error {
		if rf == nil {
			return nil
		}
		st.Points = stats.export()
		return rf.Checkpoint(st)
	}
	if st.Written >= o.count {
		return finishGenerate(rf, stats, st.Written, o, s)
	}
	limit := -1
	if newBackend == nil {
		limit = o.count - st.Written
	}
	err = pipeline.Run(ctx, pipeline.Config[solver.Backend, generated]{
		Workers: o.solver.jobs, Limit: limit,
		New: func() (solver.Backend, error) {
			if newBackend == nil {
				return nil, nil
			}
			return newBackend()
		},
		Close: closeBackend,
		Do: func(ctx context.Context, b solver.Backend, j int) (generated, error) {
			return generateOne(ctx, plan, b, start+j)
		},
		Emit: func(j int, g generated) (bool, error) {
			i := start + j
			st.Next = i + 1
			status := g.v.Status
			stats.add(g.inst, status, g.v.Reason)
			prog.add(status, newBackend == nil || status != solver.Unknown)
			if newBackend != nil && status == solver.Unknown {
				return false, nil
			}
			r := g.record(plan)
			r.ID, r.Seed = fmt.Sprintf("%s-%06d", plan.frag, st.Written), dataset.SeedString(plan.seed, i)
			st.Written++
			if err := enc.Encode(r); err != nil {
				return true, err
			}
			if time.Since(last) >= o.checkpoint {
				last = time.Now()
				if err := save(); err != nil {
					return true, err
				}
			}
			return st.Written == o.count, nil
		},
	})
	prog.finish()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		if rf != nil {
			if serr := save(); serr != nil {
				return errors.Join(err, serr)
			}
			if ctx.Err() != nil && !o.solver.quiet {
				fmt.Fprintf(s.Err, "nlsat: %d of %d instances are saved; run the same command again to resume\n", st.Written, o.count)
			}
		}
		return err
	}
	return finishGenerate(rf, stats, st.Written, o, s)
}

// finishGenerate moves a finished output into place and reports.
func finishGenerate(rf *dataset.ResumableFile, stats *unknownStats, written int, o *generateOptions, s streams) error {
	if rf != nil {
		if err := rf.Commit(); err != nil {
			return err
		}
	}
	if !o.solver.quiet && o.solver.solver.value != "none" {
		stats.report(s.Err, written)
	}
	return nil
}

// generateOne draws instance i, adds its distractors if asked, and
// decides it with b (if any).
func generateOne(ctx context.Context, plan drawPlan, b solver.Backend, i int) (generated, error) {
	inst, err := plan.draw(i)
	if err != nil || b == nil {
		return generated{inst: inst}, err
	}
	var added []int
	if plan.distractors > 0 {
		// The distractors' randomness is a stream of its own, so the
		// instance itself is the one drawn without them.
		rng := rand.New(rand.NewPCG(plan.seed^distractStream, uint64(i)))
		res, err := distract.Add(ctx, rng, b, inst, plan.distractors, plan.distractMode, plan.params)
		switch {
		case errors.Is(err, distract.ErrNoDistractor) || errors.Is(err, solver.ErrUndecided):
			return generated{inst: inst, v: solver.Verdict{Reason: solver.GaveUp, Detail: err.Error()}}, nil
		case err != nil:
			return generated{}, fmt.Errorf("instance %s: distractors: %w", dataset.SeedString(plan.seed, i), err)
		}
		inst, added = res.Instance, res.Added
	}
	v, err := solver.Decide(ctx, b, inst.Formulas(), solver.DecideOptions{MUS: true})
	if err != nil {
		return generated{}, fmt.Errorf("instance %s: %w", dataset.SeedString(plan.seed, i), err)
	}
	return generated{inst: inst, v: v, solver: b.Name(), distractors: added}, nil
}

// distractStream separates the distractors' random stream from the
// instances' ("distract").
const distractStream = 0x6469737472616374

// unknownStats counts draws and undecided instances per (m, n1, n2) point.
type unknownStats struct {
	drawn    int
	points   map[[3]int]*pointCount
	statuses [3]int
}

type pointCount struct {
	drawn, unknown int
	reasons        map[string]int
	statuses       [3]int
}

func newUnknownStats() *unknownStats { return &unknownStats{points: map[[3]int]*pointCount{}} }

// pointStat is one point's counts in a checkpoint.
type pointStat struct {
	Point   [3]int         `json:"point"`
	Drawn   int            `json:"drawn"`
	Unknown int            `json:"unknown"`
	Reasons map[string]int `json:"reasons"`
	Status  [3]int         `json:"status"`
}

// export lists the counts in a stable order, for checkpoints.
func (u *unknownStats) export() []pointStat {
	out := []pointStat{}
	for k, pc := range u.points {
		out = append(out, pointStat{Point: k, Drawn: pc.drawn, Unknown: pc.unknown, Reasons: pc.reasons, Status: pc.statuses})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Point, out[j].Point
		return a[0] < b[0] || a[0] == b[0] && (a[1] < b[1] || a[1] == b[1] && a[2] < b[2])
	})
	return out
}

// load adds counts exported by an earlier run.
func (u *unknownStats) load(ps []pointStat) {
	for _, p := range ps {
		pc := &pointCount{drawn: p.Drawn, unknown: p.Unknown, reasons: p.Reasons, statuses: p.Status}
		if pc.reasons == nil {
			pc.reasons = map[string]int{}
		}
		u.points[p.Point] = pc
		u.drawn += p.Drawn
		for st, n := range p.Status {
			u.statuses[st] += n
		}
	}
}

func (u *unknownStats) add(inst fragments.Instance, st solver.Status, why solver.Reason) {
	u.drawn++
	u.statuses[st]++
	k := [3]int{len(inst.Sentences), len(inst.Nouns), len(inst.Verbs)}
	pc := u.points[k]
	if pc == nil {
		pc = &pointCount{reasons: map[string]int{}}
		u.points[k] = pc
	}
	pc.drawn++
	pc.statuses[st]++
	if st == solver.Unknown {
		pc.unknown++
		pc.reasons[why.String()]++
	}
}

func (u *unknownStats) report(w io.Writer, written int) {
	fmt.Fprintf(w, "nlsat: wrote %d instances (%d sat, %d unsat) from %d drawn; %d undecided and dropped\n",
		written, u.statuses[solver.Sat], u.statuses[solver.Unsat], u.drawn, u.statuses[solver.Unknown])
	if u.statuses[solver.Unknown] == 0 {
		return
	}
	keys := make([][3]int, 0, len(u.points))
	for k, pc := range u.points {
		if pc.unknown > 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		return a[1] < b[1] || a[1] == b[1] && (a[2] < b[2] || a[2] == b[2] && a[0] < b[0])
	})
	fmt.Fprintln(w, "nlsat: undecided per point (m, n1, n2): drawn, unknown, reasons")
	for _, k := range keys {
		pc := u.points[k]
		var rs []string
		for r, n := range pc.reasons {
			rs = append(rs, fmt.Sprintf("%s %d", r, n))
		}
		sort.Strings(rs)
		fmt.Fprintf(w, "  m=%d n1=%d n2=%d: %d drawn, %d unknown (%s)\n", k[0], k[1], k[2], pc.drawn, pc.unknown, strings.Join(rs, ", "))
	}
}

// record returns the record of g with its distractors; the id and seed
// are the caller's.
func (g generated) record(plan drawPlan) *dataset.Record {
	r := dataset.NewRecord(g.inst, g.v, g.solver)
	if plan.distractors > 0 {
		r.Distractors, r.DistractorMode = g.distractors, plan.distractMode.String()
	}
	return r
}
