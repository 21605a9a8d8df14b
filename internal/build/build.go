package build

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nlsat/nlsat/internal/canon"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/solver"
)

// Labelled is a worker's answer for one instance: a record with its label,
// certificate and solver filled in, or the reason it stayed undecided.
type Labelled struct {
	Record *dataset.Record
	Reason string
}

// Worker labels instances; each pipeline worker owns one.
type Worker interface {
	Label(ctx context.Context, inst fragments.Instance) (Labelled, error)
	// Solver is the backend the worker labels with; the difficulty
	// hold-out uses it to look for small unsatisfiable subsets.
	Solver() solver.Backend
	Close()
}

// Options are the run-time settings of a build; they do not change its
// output.
type Options struct {
	Dir       string // output directory
	Workers   int    // 0 = all cores
	NewWorker func() (Worker, error)
	// Progress, if set, is called after every accepted instance with the
	// set's name, its accepted and total counts and the instance's label.
	Progress func(set string, accepted, total, label int)
	// Pilot, if set, is called after every pilot candidate with the
	// set's name, the pilot's size and the candidate's label (-1 when
	// undecided).
	Pilot func(set string, total, label int)
	// Log, if set, receives messages about the build (resuming).
	Log func(format string, a ...any)
	// CheckpointEvery is the time between checkpoints (default 2 s).
	CheckpointEvery time.Duration
	Toolkit         Toolkit
	// Command is the command line that reproduces the build, for the
	// manifest and the card; it must depend only on the plan.
	Command string
	// License is the SPDX-style license id the card declares.
	License string
	// Audit, if set, is run on the finished data files before the
	// manifest is written; its report goes into the manifest and its
	// summary into the card. It must be deterministic.
	Audit func(ctx context.Context, dir string) (report json.RawMessage, summary string, err error)
	// AuditFor, if set and Audit is not, chooses the audit from the plan
	// (Merge reads the plan from the shards).
	AuditFor func(*Plan) func(ctx context.Context, dir string) (json.RawMessage, string, error)
	// Force allows writing into a directory that already holds files.
	Force bool
}

// Toolkit names the program that built a dataset, for the manifest.
type Toolkit = job.Toolkit

// ErrAlreadyBuilt is returned when Dir already holds the dataset of the
// same plan, complete and intact.
var ErrAlreadyBuilt = errors.New("already built")

// workDir is the directory, inside the output directory, that holds an
// unfinished build: the accepted records so far and the checkpoint.
const workDir = ".nlsat-build"

// Run builds the dataset of plan p into o.Dir, resuming an unfinished build
// of the same plan found there.
func Run(ctx context.Context, p *Plan, o Options) (*Manifest, error) {
	return run(ctx, p, o, nil)
}

// defaultCheckpoint is the time between checkpoints unless set.
const defaultCheckpoint = 2 * time.Second

func run(ctx context.Context, p *Plan, o Options, src *shardSource) (*Manifest, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = defaultCheckpoint
	}
	if o.Audit == nil && o.AuditFor != nil {
		o.Audit = o.AuditFor(p)
	}
	b, err := open(p, o)
	if err != nil {
		return nil, err
	}
	b.source = src
	defer b.close()
	if err := b.initParams(); err != nil {
		return nil, err
	}
	for b.st.Pool < len(p.Pools) {
		if err := b.runPool(ctx); err != nil {
			if cerr := b.checkpoint(); cerr != nil {
				return nil, errors.Join(err, cerr)
			}
			return nil, err
		}
	}
	return b.finish(ctx)
}

// builder is a build in progress.
type builder struct {
	plan    *Plan
	opt     Options
	work    string
	st      *state
	files   []*partFile // one per split, in plan order across pools
	keys    *partFile
	exact   map[[32]byte]struct{}
	renamed map[[32]byte]struct{}
	last    time.Time
	// source, when set, supplies the candidates (from shards) instead of
	// drawing them.
	source *shardSource
	params []fragments.Params // per pool
}

// initParams resolves every pool's sampler parameters once.
func (b *builder) initParams() error {
	b.params = make([]fragments.Params, len(b.plan.Pools))
	for k := range b.plan.Pools {
		var err error
		if b.params[k], err = b.plan.PoolParams(k); err != nil {
			return err
		}
	}
	return nil
}

// candidate is one drawn and labelled instance with its keys, or a
// skipped slot of a stratum that was already full.
type candidate struct {
	skipped bool
	lab     Labelled
	exact   [32]byte
	renamed [32]byte
	capped  bool // the renaming key fell back to the exact key
	// hard is set, under the difficulty hold-out, for an unsat candidate
	// with no unsatisfiable subset of at most MaxTrainMUS sentences.
	hard bool
}

// splitBase returns the index into b.files of pool k's first split.
func (b *builder) splitBase(k int) int {
	n := 0
	for _, pl := range b.plan.Pools[:k] {
		n += len(pl.Splits)
	}
	return n
}

// draw samples and labels candidate i of pool k with worker w.
func (b *builder) draw(ctx context.Context, w Worker, k, i int) (candidate, error) {
	pl := &b.plan.Pools[k]
	idx := k*PoolStride + i
	rng := rand.New(rand.NewPCG(b.plan.Seed, uint64(idx)))
	st := &pl.Strata[i%len(pl.Strata)]
	pt := st.Points[rng.IntN(len(st.Points))]
	params := b.params[k]
	if pl.Templates == "train" {
		params.Exclude = b.plan.excluded(idx)
	}
	inst, err := fragments.Sample(rng, b.plan.Frag(), params, pt.M, pt.N1, pt.N2)
	if err != nil {
		return candidate{}, fmt.Errorf("instance %s: %w", dataset.SeedString(b.plan.Seed, idx), err)
	}
	lab, err := w.Label(ctx, inst)
	if err != nil {
		return candidate{}, err
	}
	c := candidate{lab: lab, exact: sha256.Sum256([]byte(canon.ExactKey(inst)))}
	if r := lab.Record; r != nil && b.difficultyPool(k) && r.Label == dataset.LabelUnsat && len(r.Certificate.MUS) > b.plan.Holdout.MaxTrainMUS {
		ok, _, err := solver.NoCoreUpTo(ctx, w.Solver(), &solver.Problem{Sentences: inst.Formulas()}, b.plan.Holdout.MaxTrainMUS)
		if err != nil {
			return candidate{}, fmt.Errorf("instance %s: %w", dataset.SeedString(b.plan.Seed, idx), err)
		}
		c.hard = ok
	}
	if lab.Record != nil && b.plan.Dedup == DedupRenaming {
		form := canon.Canonical(inst)
		c.renamed, c.capped = sha256.Sum256([]byte(form.Key)), form.Capped
	}
	return c, nil
}

// acceptor decides, in index order, the fate of the candidates of one
// pool.
type acceptor struct {
	b        *builder
	k        int
	pl       *Pool
	ps       *poolState
	base     int
	open     int
	accepted int
	// models are the surface-balance models, nil without them.
	models *balanceModels
	frag   fragments.Fragment
	// full[s] is set once stratum s has every instance it needs. It only
	// ever turns true, and only in consider, so a worker that sees it set
	// agrees with what consider will decide.
	full []atomic.Bool
}

func (b *builder) newAcceptor(k int) *acceptor {
	a := &acceptor{b: b, k: k, pl: &b.plan.Pools[k], ps: &b.st.Pools[k], base: b.splitBase(k), frag: b.plan.Frag()}
	a.models = a.ps.Models
	a.full = make([]atomic.Bool, len(a.pl.Strata))
	for s := range a.pl.Strata {
		if b.stratumFull(k, s) {
			a.full[s].Store(true)
		} else {
			a.open++
		}
	}
	for _, ss := range a.ps.Strata {
		for _, f := range ss.Fill {
			a.accepted += f[0] + f[1]
		}
	}
	return a
}

// wanted reports whether candidate i could still be accepted.
func (a *acceptor) wanted(i int) bool { return !a.full[i%len(a.pl.Strata)].Load() }

// consider decides candidate i; c is ignored when its stratum is full.
// It returns stop once every stratum is full.
func (a *acceptor) consider(i int, c candidate) (stop bool, err error) {
	b, k, pl := a.b, a.k, a.pl
	s := i % len(pl.Strata)
	defer func() { b.st.Next = i + 1 }()
	if a.full[s].Load() {
		return false, nil
	}
	if c.skipped {
		return true, fmt.Errorf("internal error: candidate %d skipped in a stratum that is not full", i)
	}
	ss := &a.ps.Strata[s]
	ss.Drawn++
	if err := b.checkLimit(k, s); err != nil {
		return true, err
	}
	if c.lab.Record == nil {
		if ss.Unknown == nil {
			ss.Unknown = map[string]int{}
		}
		ss.Unknown[c.lab.Reason]++
		return false, nil
	}
	label := c.lab.Record.Label
	if a.models != nil {
		p := a.models.prob(Features(a.frag, c.lab.Record))
		if keepDraw(b.plan.Seed, k*PoolStride+i) >= keepProb(p, label) {
			ss.Thinned++
			return false, nil
		}
	}
	split, open := -1, false
	for t, sp := range pl.Splits {
		if ss.Fill[t][label] < sp.Pairs[s] {
			open = true
			if b.admits(k, t, c) {
				split = t
				break
			}
		}
	}
	switch _, dupExact := b.exact[c.exact]; {
	case split < 0 && open:
		ss.HeldOut++
		return false, nil
	case split < 0:
		ss.LabelFull++
		return false, nil
	case dupExact:
		ss.DupExact++
		return false, nil
	}
	if b.plan.Dedup == DedupRenaming {
		if _, dup := b.renamed[c.renamed]; dup {
			ss.DupRenaming++
			return false, nil
		}
	}
	if err := b.accept(a.base+split, &pl.Splits[split], c, k*PoolStride+i); err != nil {
		return true, err
	}
	ss.Fill[split][label]++
	if c.capped {
		ss.CanonFallbacks++
	}
	a.accepted++
	if b.stratumFull(k, s) {
		a.full[s].Store(true)
		a.open--
	}
	if b.opt.Progress != nil {
		b.opt.Progress(pl.Name, a.accepted, pl.Size(), label)
	}
	if a.open == 0 {
		return true, nil
	}
	if time.Since(b.last) >= b.opt.CheckpointEvery {
		b.st.Next = i + 1
		return false, b.checkpoint()
	}
	return false, nil
}

func (b *builder) runPool(ctx context.Context) error {
	k := b.st.Pool
	if n := b.plan.PilotFor(k); n > 0 {
		if b.st.Pools[k].Models == nil && !b.poolFull(k) {
			if err := b.pilot(ctx, k, n); err != nil {
				return err
			}
		}
		// The pilot's candidates are not the set's.
		b.st.Next = max(b.st.Next, n)
	}
	a := b.newAcceptor(k)
	if a.open == 0 {
		return b.nextPool()
	}
	start := b.st.Next
	var err error
	if b.source != nil {
		err = b.source.each(ctx, k, start, a)
	} else {
		err = pipeline.Run(ctx, pipeline.Config[Worker, candidate]{
			Workers: b.opt.Workers,
			Limit:   -1,
			New:     b.opt.NewWorker,
			Close:   func(w Worker) { w.Close() },
			Do: func(ctx context.Context, w Worker, j int) (candidate, error) {
				if !a.wanted(start + j) {
					return candidate{skipped: true}, nil
				}
				return b.draw(ctx, w, k, start+j)
			},
			Emit: func(j int, c candidate) (bool, error) { return a.consider(start+j, c) },
		})
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if a.open > 0 {
		return fmt.Errorf("set %s stopped with %d strata not full", a.pl.Name, a.open)
	}
	return b.nextPool()
}

// excluded returns the templates candidate idx of a "train" pool draws
// without: one of each held-out pair, by a fair coin from the seed and the
// index alone.
func (p *Plan) excluded(idx int) []fragments.Template {
	rng := rand.New(rand.NewPCG(p.Seed^pairSeed, uint64(idx)))
	var out []fragments.Template
	for _, pair := range p.Holdout.HeldPairs {
		t, _ := fragments.ParseTemplate(pair[rng.IntN(2)])
		out = append(out, t)
	}
	return out
}

// pairSeed separates the stream of template coins from the sampler's.
const pairSeed = 0x7061697273 // "pairs"

// holdsPair reports whether the template ids ids (as records write them,
// "V1.every-some") hold both templates of some held-out pair.
func (p *Plan) holdsPair(ids []string) bool {
	has := map[string]bool{}
	for _, id := range ids {
		t, _, _ := strings.Cut(id, ".")
		has[t] = true
	}
	for _, pair := range p.Holdout.HeldPairs {
		if has[pair[0]] && has[pair[1]] {
			return true
		}
	}
	return false
}

// difficultyPool reports whether pool k is split by difficulty: the
// plan holds out by difficulty and the pool has a test split.
func (b *builder) difficultyPool(k int) bool {
	if b.plan.Holdout.Kind != HoldoutDifficulty {
		return false
	}
	for _, sp := range b.plan.Pools[k].Splits {
		if sp.Name == Test {
			return true
		}
	}
	return false
}

// admits reports whether split t of pool k may take candidate c: under the
// difficulty hold-out, test takes only hard unsat instances, and train and
// validation only unsat instances whose MUS has at most MaxTrainMUS
// sentences. Sat instances go anywhere.
func (b *builder) admits(k, t int, c candidate) bool {
	r := c.lab.Record
	if b.plan.Pools[k].Templates == "test" && !b.plan.holdsPair(r.Templates) {
		return false
	}
	if !b.difficultyPool(k) || r.Label != dataset.LabelUnsat {
		return true
	}
	if b.plan.Pools[k].Splits[t].Name == Test {
		return c.hard
	}
	return len(r.Certificate.MUS) <= b.plan.Holdout.MaxTrainMUS
}

// poolFull reports whether every stratum of pool k is full.
func (b *builder) poolFull(k int) bool {
	for s := range b.plan.Pools[k].Strata {
		if !b.stratumFull(k, s) {
			return false
		}
	}
	return true
}

// pilot draws and labels candidates 0 to n−1 of pool k, fits the
// surface-balance models to the decided ones and checkpoints them. The
// pilot's candidates serve the fit alone; an interrupted pilot is drawn
// again.
func (b *builder) pilot(ctx context.Context, k, n int) error {
	pl := &b.plan.Pools[k]
	frag := b.plan.Frag()
	if b.opt.Log != nil {
		b.opt.Log("set %s: labelling %d pilot candidates to fit the surface-balance model", pl.Name, n)
	}
	var x [][]float64
	var y []int8
	var idx []int
	add := func(i int, c candidate) {
		if r := c.lab.Record; r != nil {
			x = append(x, Features(frag, r))
			y = append(y, int8(r.Label))
			idx = append(idx, i)
		}
	}
	var err error
	if b.source != nil {
		err = b.source.pilot(ctx, k, n, add)
	} else {
		err = pipeline.Run(ctx, pipeline.Config[Worker, candidate]{
			Workers: b.opt.Workers,
			Limit:   n,
			New:     b.opt.NewWorker,
			Close:   func(w Worker) { w.Close() },
			Do:      func(ctx context.Context, w Worker, i int) (candidate, error) { return b.draw(ctx, w, k, i) },
			Emit: func(i int, c candidate) (bool, error) {
				add(i, c)
				if b.opt.Pilot != nil {
					label := dataset.LabelAbsent
					if c.lab.Record != nil {
						label = c.lab.Record.Label
					}
					b.opt.Pilot(pl.Name, n, label)
				}
				return false, nil
			},
		})
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("pilot of set %s: %w", pl.Name, err)
	}
	sat := 0
	for _, l := range y {
		sat += int(l)
	}
	if sat < 10 || len(y)-sat < 10 {
		return fmt.Errorf("set %s: the pilot decided %d of its %d candidates, %d sat and %d unsat: too few of one label to fit the surface balance; use --balance strata, or a region nearer the phase change",
			pl.Name, len(y), n, sat, len(y)-sat)
	}
	b.st.Pools[k].Models = fitModels(x, y, idx)
	return b.checkpoint()
}

// nextPool moves the checkpoint to the start of the next pool.
func (b *builder) nextPool() error {
	b.st.Pool++
	b.st.Next = 0
	return b.checkpoint()
}

// stratumFull reports whether stratum s of pool k holds all its instances.
func (b *builder) stratumFull(k, s int) bool {
	ss := &b.st.Pools[k].Strata[s]
	for t, sp := range b.plan.Pools[k].Splits {
		if ss.Fill[t][0] < sp.Pairs[s] || ss.Fill[t][1] < sp.Pairs[s] {
			return false
		}
	}
	return true
}

// checkLimit fails the build when stratum s of pool k has used up its
// draw limit without filling.
func (b *builder) checkLimit(k, s int) error {
	pl := &b.plan.Pools[k]
	limit := b.plan.DrawLimit*2*pl.stratumPairs(s) + 100
	if b.st.Pools[k].Strata[s].Drawn <= limit {
		return nil
	}
	var lines []string
	for s2, st := range pl.Strata {
		if b.stratumFull(k, s2) {
			continue
		}
		ss := &b.st.Pools[k].Strata[s2]
		var sat, unsat int
		for _, f := range ss.Fill {
			unsat += f[0]
			sat += f[1]
		}
		need := pl.stratumPairs(s2)
		lines = append(lines, fmt.Sprintf("  stratum %s: sat %d/%d, unsat %d/%d after %d candidates (%d undecided, %d duplicates)",
			st.Key, sat, need, unsat, need, ss.Drawn, ss.unknownTotal(), ss.DupExact+ss.DupRenaming))
	}
	return fmt.Errorf("set %s: stratum %s drew %d candidates (--draw-limit %d × its %d instances) without filling; "+
		"its points yield too few distinct instances of one label. Use a region without these points, smaller sizes, or a higher --draw-limit "+
		"(after removing %s). Strata not full:\n%s",
		pl.Name, pl.Strata[s].Key, limit, b.plan.DrawLimit, 2*pl.stratumPairs(s),
		filepath.Join(b.opt.Dir, workDir), strings.Join(lines, "\n"))
}

// accept appends candidate c to split file t and records its keys.
func (b *builder) accept(t int, sp *Split, c candidate, idx int) error {
	f := b.files[t]
	r := c.lab.Record
	r.ID = fmt.Sprintf("%s-%s-%06d", b.plan.Fragment, sp.Name, f.rows)
	r.Seed = dataset.SeedString(b.plan.Seed, idx)
	if err := f.enc.Encode(r); err != nil {
		return fmt.Errorf("%s: %w", f.name, err)
	}
	f.rows++
	b.exact[c.exact] = struct{}{}
	var both [64]byte
	copy(both[:32], c.exact[:])
	if b.plan.Dedup == DedupRenaming {
		b.renamed[c.renamed] = struct{}{}
		copy(both[32:], c.renamed[:])
	}
	if _, err := b.keys.w.Write(both[:]); err != nil {
		return fmt.Errorf("%s: %w", b.keys.name, err)
	}
	b.keys.rows++
	return nil
}

// unknownTotal returns the undecided candidates of a stratum.
func (ss *stratumState) unknownTotal() int {
	n := 0
	for _, c := range ss.Unknown {
		n += c
	}
	return n
}

// sortedReasons returns a map's keys in order, for stable reports.
func sortedReasons(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// removeWork deletes the work directory of a finished build. The
// checkpoint goes last: until it is gone, running the build again finishes
// it again.
func (b *builder) removeWork() error {
	entries, err := os.ReadDir(b.work)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != stateFile {
			if err := os.RemoveAll(filepath.Join(b.work, e.Name())); err != nil {
				return err
			}
		}
	}
	if err := os.Remove(filepath.Join(b.work, stateFile)); err != nil {
		return err
	}
	return os.Remove(b.work)
}
