package split

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/nlsat/nlsat/internal/canon"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/proof"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// Options are the run-time settings of a build; they do not change its
// output.
type Options struct {
	Dir     string // output directory
	Workers int    // 0 = all cores
	// NewBackend makes one worker's solver.
	NewBackend func() (solver.Backend, error)
	// Progress, if set, is called after every collected candidate with
	// the set's name, how much of the set its collected candidates could
	// fill (it reaches total when the set is full) and total, and the
	// candidate's label (in a shard: after every candidate drawn, with
	// the candidates done and to do).
	Progress func(set string, ready, total, label int)
	// Phase, if set, is called when the build begins a step that Progress
	// and Pilot do not count (fitting a model, writing a file, the
	// audit), with what it does and how many steps it takes (-1: one it
	// cannot count); the function it returns, if not nil, is called after
	// each step.
	Phase func(what string, total int) func()
	// Pilot, if set, is called after every pilot candidate with the
	// set's name, the pilot's size and the candidate's label (-1 when
	// undecided).
	Pilot func(set string, total, label int)
	// Log, if set, receives messages about the build (resuming).
	Log func(format string, a ...any)
	// CheckpointEvery is the time between checkpoints (0: 2 s).
	CheckpointEvery time.Duration
	Toolkit         Toolkit
	// Command is the command line that reproduces the build, for the
	// manifest and the card; it must depend only on the plan.
	Command string
	// License is the SPDX-style license id the card declares.
	License string
	// Force allows writing into a directory that already holds files.
	Force bool
	// Output is the split files' format and fields (see output.go).
	Output dataset.Output
	// Audit audits the finished data for the manifest when the plan asks
	// for it (Plan.Audit). A build runs no analysis of its own: the
	// command passes the audit's ForManifest.
	Audit AuditFunc
}

// AuditFunc audits the dataset in dir (its data/ files, named in the
// report by their path relative to dir passed through rename, or as they
// are when rename is nil) and returns the report as JSON and its summary.
type AuditFunc func(ctx context.Context, dir string, rename func(string) string) (json.RawMessage, string, error)

// errNoAudit is returned when a plan asks for an audit and the options
// give none.
var errNoAudit = errors.New("the plan asks for a shortcut audit, but no audit was given")

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

// run builds p, drawing the candidates, or with src reading them from
// the shards of a sharded build.
func run(ctx context.Context, p *Plan, o Options, src *job.Shards) (*Manifest, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	var err error
	if o.Output, err = o.Output.For(""); err != nil {
		return nil, err
	}
	if p.Proofs {
		o.Output.Row = dataset.ProofRow
	}
	b, err := open(p, o, src != nil)
	if err != nil {
		return nil, err
	}
	defer b.store.Close()
	b.surfaces = src == nil
	c := b.config(ctx)
	c.Store, c.Source = b.store, src
	if src != nil {
		for k := range p.Pools {
			b.shardStreams(c.Streams, k, src.Manifest.Oversample)
		}
		c.Missing = b.missing(len(src.Dirs), src.Manifest.Oversample)
	}
	if err := job.Run(ctx, c); err != nil {
		if errors.Is(err, job.ErrWaiting) {
			return nil, b.handOver(src)
		}
		return nil, err
	}
	return b.finish(ctx)
}

// builder is a build in progress.
type builder struct {
	plan      *Plan
	opt       Options
	store     *job.Store
	st        *state
	exact     map[dedupKey]struct{}
	renamed   map[dedupKey]struct{}
	params    []fragments.Params // per pool
	acceptors []*acceptor        // per pool
	files     []dataFile         // the split files, which are the store's first parts
	fileOf    [][]int            // per pool and split, its file
	line      bytes.Buffer       // the record being written
	// surfaces is set when the workers compute the surfaces of the
	// records they draw, so that the serial, in-order side of the build
	// (pilotAdd, the acceptor) does not: a shard, which does not store
	// them, leaves it unset.
	surfaces bool
	// The pilot of the set in progress: surfaces, labels and indices of
	// its decided candidates, their pair patterns numbered by table.
	x     []surface
	y     []int8
	idx   []int
	table *textfeat.PatternTable
	// member is, per residual pilot candidate kept for the fit, the
	// number of its pool in a pooled group (0 otherwise).
	member []int
	// refs are the job's streams (layout) and groups the plan's pooled
	// residual groups (Plan.ResidualGroups).
	refs   []streamRef
	groups [][]int
}

// newBuilder prepares the build of p from state st.
func newBuilder(p *Plan, o Options, st *state, sharded bool) (*builder, error) {
	b := &builder{plan: p, opt: o, st: st, exact: map[dedupKey]struct{}{}, renamed: map[dedupKey]struct{}{}}
	b.refs, b.groups = layout(p, sharded), p.ResidualGroups()
	b.params = make([]fragments.Params, len(p.Pools))
	b.files = p.dataFiles()
	b.fileOf = make([][]int, len(p.Pools))
	for f, df := range b.files {
		for _, mb := range df.members {
			b.fileOf[mb[0]] = append(b.fileOf[mb[0]], f)
		}
	}
	for k := range p.Pools {
		var err error
		if b.params[k], err = p.PoolParams(k); err != nil {
			return nil, err
		}
	}
	for k := range p.Pools {
		b.acceptors = append(b.acceptors, b.newAcceptor(k))
	}
	return b, nil
}

// candidate is one drawn and labelled instance with its keys, or a
// skipped slot of a stratum that was already full.
type candidate struct {
	skipped bool
	rec     *dataset.Record // nil when undecided
	reason  string          // why it is undecided
	exact   [32]byte
	renamed [32]byte
	capped  bool // the renaming key fell back to the exact key
	// hard is set, under the difficulty hold-out, for an unsat candidate
	// with no unsatisfiable subset of at most MaxTrainMUS sentences.
	hard bool
	// easy is set, under Plan.MinCore, for an unsat candidate with an
	// unsatisfiable subset of fewer than MinCore sentences.
	easy bool
	// surf is the record's surface, which the surface balance reads,
	// when the worker that drew it computed it (builder.surfaces); the
	// shards do not store it.
	surf *surface
	// A shard that holds the balance models decides what the merge
	// would (builder.thin): kept says that the balance keeps the
	// candidate (or, in a residual pilot, fits its residual stage to
	// it); thinned that it does not, and then the candidate is only its
	// label (dataset.LabelAbsent where the merge would count none).
	kept, thinned bool
	label         int
	// resample says that the record holds none of the instance's fields
	// but its fragment and sizes: a shard writes a candidate of the set
	// so, and the merge draws the instance again from the plan and the
	// index (builder.resample) for those it judges, about as many as it
	// accepts.
	resample bool
}

// keysPart is the index of the keys among the store's parts (the split
// files in plan order, then the keys).
func (b *builder) keysPart() int { return len(b.files) }

// draw samples candidate i of pool k and labels it with backend w. A
// pilot candidate (pilot) serves only the balance's fit, which reads its
// label, its sentences and whether two of them contradict each other: a
// complete backend's answer needs no certificate there, and it gets no
// least model, MUS, proof or keys (unless the plan's MinCore, whose
// test reads the MUS, asks for them). Its label and pair are those the
// full certification would give, so the fit is the same. A candidate of
// the set, once the pool's balance models are fitted, is first decided
// the same way, and only one the balance keeps is certified (most are
// thinned: on the default A build about seven in ten).
func (b *builder) draw(ctx context.Context, w solver.Backend, k, i int, pilot bool) (candidate, error) {
	idx := k*PoolStride + i
	inst, err := b.sample(k, i)
	if err != nil {
		return candidate{}, err
	}
	light := solver.IsComplete(w) && b.plan.MinCore == 0
	models := b.st.Pools[k].Models
	if light && (pilot || models != nil) {
		v, err := solver.Decide(ctx, w, inst.Formulas(), solver.DecideOptions{MUS: true, LabelOnly: true})
		if err != nil {
			return candidate{}, err
		}
		if v.Status != solver.Unknown {
			rec := dataset.NewRecord(inst, v, w.Name())
			if pilot {
				return b.surfaced(k, candidate{rec: rec}), nil
			}
			// A candidate of the set that the balance thins is counted
			// by its label alone, and its surface and label are those of
			// the uncertified answer: it is not certified for nothing.
			// One it keeps is decided again below, with its certificate,
			// as if this had not been.
			if !models.keep(b.plan.Seed, idx, surfaceOf(b.plan.PoolFrag(k), rec), rec.Label) {
				return candidate{thinned: true, label: rec.Label}, nil
			}
			c, err := b.certified(ctx, w, k, i, inst, false)
			c.kept = c.rec != nil
			return c, err
		}
	}
	return b.certified(ctx, w, k, i, inst, true)
}

// sample draws the instance of candidate i of pool k: a function of the
// plan and the index alone.
func (b *builder) sample(k, i int) (fragments.Instance, error) {
	pl := &b.plan.Pools[k]
	idx := k*PoolStride + i
	rng := rand.New(rand.NewPCG(b.plan.Seed, uint64(idx)))
	st := &pl.Strata[i%len(pl.Strata)]
	pt := st.Points[rng.IntN(len(st.Points))]
	params := b.params[k]
	if pl.Templates == "train" {
		params.Exclude = b.plan.excluded(idx)
	}
	inst, err := fragments.Sample(rng, b.plan.PoolFrag(k), params, pt.M, pt.N1, pt.N2)
	if err != nil {
		return fragments.Instance{}, fmt.Errorf("instance %s: %w", dataset.SeedString(b.plan.Seed, idx), err)
	}
	return inst, nil
}

// resample gives rec, the record of candidate i of pool k as a shard
// wrote it (without its instance: candidate.resample), its instance
// again, drawn as the shard drew it.
func (b *builder) resample(k, i int, rec *dataset.Record) error {
	inst, err := b.sample(k, i)
	if err != nil {
		return err
	}
	if f := inst.Fragment.String(); f != rec.Fragment || len(inst.Nouns) != rec.N1 || len(inst.Verbs) != rec.N2 {
		return fmt.Errorf("instance %s: a shard's record of fragment %s with %d nouns and %d verbs, where the plan draws %s with %d and %d",
			dataset.SeedString(b.plan.Seed, k*PoolStride+i), rec.Fragment, rec.N1, rec.N2, f, len(inst.Nouns), len(inst.Verbs))
	}
	rec.SetInstance(inst)
	return nil
}

// certified decides inst, candidate i of pool k, with backend w, and
// certifies the answer: the candidate as the dataset would take it, and
// with surface, as the balance sees it (builder.surfaced).
func (b *builder) certified(ctx context.Context, w solver.Backend, k, i int, inst fragments.Instance, surface bool) (candidate, error) {
	idx := k*PoolStride + i
	v, err := solver.Decide(ctx, w, inst.Formulas(), solver.DecideOptions{MUS: true})
	if err != nil {
		return candidate{}, err
	}
	keyed := inst
	if b.plan.Joint() {
		// The same sentences drawn for two fragments are one problem.
		keyed.Fragment = fragments.A
	}
	c := candidate{exact: sha256.Sum256([]byte(canon.ExactKey(keyed)))}
	if v.Status == solver.Unknown {
		if solver.IsComplete(w) {
			// Skipping it would bias the set (the undecided are not a
			// random part of it): the build fails, naming it.
			return candidate{}, fmt.Errorf("instance %s: %s left it undecided (%v: %s)", dataset.SeedString(b.plan.Seed, idx), w.Name(), v.Reason, v.Detail)
		}
		c.reason = v.Reason.String()
		return c, nil
	}
	c.rec = dataset.NewRecord(inst, v, w.Name())
	if b.plan.Proofs {
		var p *proof.Proof
		if c.rec.Label == dataset.LabelUnsat {
			var err error
			if p, err = proof.FindWithin(ctx, w, b.plan.Lexicon(), inst.Sentences, c.rec.Certificate.MUS); err != nil {
				return candidate{}, fmt.Errorf("instance %s: proof: %w", dataset.SeedString(b.plan.Seed, idx), err)
			}
		}
		c.rec.SetProof(p)
	}
	if b.difficultyPool(k) && v.Status == solver.Unsat && len(v.MUS) > b.plan.Holdout.MaxTrainMUS {
		ok, _, err := solver.NoCoreUpTo(ctx, w, &solver.Problem{Sentences: inst.Formulas()}, b.plan.Holdout.MaxTrainMUS)
		if err != nil {
			return candidate{}, fmt.Errorf("instance %s: %w", dataset.SeedString(b.plan.Seed, idx), err)
		}
		c.hard = ok
	}
	if c.easy, err = b.easy(ctx, w, inst, v); err != nil {
		return candidate{}, fmt.Errorf("instance %s: %w", dataset.SeedString(b.plan.Seed, idx), err)
	}
	if b.plan.Dedup == DedupRenaming {
		form := canon.Canonical(keyed)
		c.renamed, c.capped = sha256.Sum256([]byte(form.Key)), form.Capped
	}
	if !surface {
		return c, nil
	}
	return b.surfaced(k, c), nil
}

// surfaced returns c, a decided candidate of pool k, with its surface
// when the workers compute it (builder.surfaces) and the pool's balance
// reads it.
func (b *builder) surfaced(k int, c candidate) candidate {
	if b.surfaces && b.plan.PilotFor(k) > 0 {
		sf := surfaceOf(b.plan.PoolFrag(k), c.rec)
		c.surf = &sf
	}
	return c
}

// surface returns candidate c's surface: the one its worker computed, or
// else computed now.
func (c candidate) surface(f fragments.Fragment) surface {
	if c.surf != nil {
		return *c.surf
	}
	return surfaceOf(f, c.rec)
}

// easy reports, under Plan.MinCore, whether an unsat instance has an
// unsatisfiable subset of fewer than MinCore sentences: its MUS is that
// small, or its certified unsatisfiable pair is, or (for MinCore above 3)
// NoCoreUpTo finds one; no is certified by checked models.
func (b *builder) easy(ctx context.Context, w solver.Backend, inst fragments.Instance, v solver.Verdict) (bool, error) {
	k := b.plan.MinCore
	switch {
	case k == 0 || v.Status != solver.Unsat:
		return false, nil
	case len(v.MUS) < k || len(v.Pair) > 0 && len(v.Pair) < k:
		return true, nil
	case k <= 3:
		return false, nil // the pair search covered every subset below k
	}
	ok, _, err := solver.NoCoreUpTo(ctx, w, &solver.Problem{Sentences: inst.Formulas()}, k-1)
	return !ok, err
}

// streamKind names the three streams of a pool: its pilot and its
// residual pilot (drawn when the surface balance asks for them) and its
// candidates (from the pilots' end).
type streamKind int

const (
	pilotKind streamKind = iota
	residualKind
	candidateKind
	kindsPerPool
)

// streamRef is what one of the job's streams draws: the stream of kind
// kind of pool k, or, with k = -1, the residual pilots of the pools of
// group g of Plan.ResidualGroups together.
type streamRef struct {
	kind streamKind
	k, g int
}

// layout lists the job's streams. Each pool has its pilot, its residual
// pilot and its candidates, in that order, pool after pool. Where the
// plan pools the residual stages, every pool's pilot comes first, then
// one residual pilot per group, then every pool's candidates: a group's
// stage is fitted to all of its pools' residual pilots before any of
// them keeps a candidate. A sharded build (sharded) lays every plan out
// in those three phases, so that its shards and its merge take three
// turns at most, however many pools (shard.go).
//
// Both layouts give the same bytes: a pilot touches nothing but its own
// pool's models, and the candidates, which alone are deduplicated
// against each other, come pool after pool in both.
func layout(p *Plan, sharded bool) []streamRef {
	var out []streamRef
	groups := p.ResidualGroups()
	if groups == nil && !sharded {
		for k := range p.Pools {
			for kind := range kindsPerPool {
				out = append(out, streamRef{kind: kind, k: k})
			}
		}
		return out
	}
	for k := range p.Pools {
		out = append(out, streamRef{kind: pilotKind, k: k})
	}
	for g := range groups {
		out = append(out, streamRef{kind: residualKind, k: -1, g: g})
	}
	if groups == nil {
		for k := range p.Pools {
			out = append(out, streamRef{kind: residualKind, k: k})
		}
	}
	for k := range p.Pools {
		out = append(out, streamRef{kind: candidateKind, k: k})
	}
	return out
}

// groupItem returns the pool, its member number in group g and the
// index in the pool's residual pilot of item j of the group's residual
// pilot: the group's pools take turns, so each draws the candidates of
// its own residual pilot, as it would alone.
func (b *builder) groupItem(g, j int) (k, member, i int) {
	group := b.groups[g]
	member = j % len(group)
	k = group[member]
	return k, member, b.plan.PilotFor(k) + j/len(group)
}

// streamIndex returns the index of pool k's stream of kind kind (not a
// pooled residual pilot's).
func (b *builder) streamIndex(kind streamKind, k int) int {
	for s, ref := range b.refs {
		if ref.kind == kind && ref.k == k {
			return s
		}
	}
	return -1
}

// streamName names stream s in messages: its pool's or group's name.
func (b *builder) streamName(s int) string {
	if ref := b.refs[s]; ref.k >= 0 {
		return b.plan.Pools[ref.k].Name
	}
	return b.plan.groupName(b.refs[s].g)
}

// config returns the build's job, which ctx stops.
func (b *builder) config(ctx context.Context) job.Config[solver.Backend, candidate] {
	return job.Config[solver.Backend, candidate]{
		Streams: b.streams(),
		Workers: b.opt.Workers,
		New:     b.opt.NewBackend,
		Close:   solver.Close,
		Do: func(ctx context.Context, w solver.Backend, s, i int) (candidate, error) {
			ref := b.refs[s]
			k := ref.k
			if k < 0 {
				k, _, i = b.groupItem(ref.g, i)
			}
			if ref.kind == candidateKind && !b.acceptors[k].wanted(i) {
				return candidate{skipped: true}, nil
			}
			return b.draw(ctx, w, k, i, ref.kind != candidateKind)
		},
		Emit: func(s, i int, c candidate) (bool, error) {
			switch ref := b.refs[s]; ref.kind {
			case pilotKind:
				b.pilotAdd(ref.k, i, c)
				return false, nil
			case residualKind:
				b.residualAdd(s, i, c)
				return false, nil
			default:
				return b.acceptors[ref.k].consider(i, c)
			}
		},
		End: func(s int) error {
			switch ref := b.refs[s]; ref.kind {
			case pilotKind:
				return b.fitPilot(ctx, ref.k)
			case residualKind:
				if ref.k < 0 {
					return b.fitPooled(ctx, ref.g)
				}
				return b.fitResidual(ctx, ref.k)
			}
			k := b.refs[s].k
			a := b.acceptors[k]
			if a.open > 0 {
				return fmt.Errorf("set %s stopped with %d strata not full", a.pl.Name, a.open)
			}
			// The set's candidates are all scored: the stream's workers
			// have ended (job.Run calls End after them), and no later
			// stream draws for pool k. Its models' indices of their
			// patterns (38 MB for train's in make run's build) go before
			// the next pool's pilot is fitted.
			b.st.Pools[k].Models.release()
			return a.write()
		},
		Every: b.opt.CheckpointEvery,
		State: func() any { return b.st },
	}
}

// streams lists the pilots and candidates of every pool (layout). A
// pilot whose models are fitted, and the pilots and candidates of a pool
// that is full, are empty; so is a group's residual pilot when each of
// its pools has its stage or is full.
func (b *builder) streams() []job.Stream {
	var out []job.Stream
	for _, ref := range b.refs {
		if ref.k < 0 {
			group := b.groups[ref.g]
			r := len(group) * b.plan.ResidualFor(group[0])
			s := job.Stream{Name: b.plan.groupName(ref.g) + "-residual-pilot", Limit: r, ShardLimit: r, Restart: true}
			if b.groupDone(ref.g) {
				s.Limit = 0
			}
			out = append(out, s)
			continue
		}
		k, pl := ref.k, b.plan.Pools[ref.k]
		n, r := b.plan.PilotFor(k), b.plan.ResidualFor(k)
		full := b.acceptors[k].open == 0
		ps := &b.st.Pools[k]
		var s job.Stream
		switch ref.kind {
		case pilotKind:
			s = job.Stream{Name: pl.Name + "-pilot", Limit: n, ShardLimit: n, Restart: true}
			if ps.Models != nil || full {
				s.Limit = 0
			}
		case residualKind:
			s = job.Stream{Name: pl.Name + "-residual-pilot", Start: n, Limit: n + r, ShardLimit: n + r, Restart: true}
			if ps.ResidualFile != "" || full {
				s.Limit = n
			}
		default:
			s = job.Stream{Name: pl.Name, Start: n + r, Limit: -1}
			if full {
				s.Limit = n + r
			}
		}
		out = append(out, s)
	}
	return out
}

// residualAdd keeps item i of stream si, a residual pilot candidate, when
// the balance's first stages keep it and it has no contradictory pair
// (Residual's candidates).
func (b *builder) residualAdd(si, i int, c candidate) {
	ref, member := b.refs[si], 0
	k, first, total := ref.k, false, 0
	if k < 0 {
		group := b.groups[ref.g]
		first, total = i == 0, len(group)*b.plan.ResidualFor(group[0])
		k, member, i = b.groupItem(ref.g, i)
	} else {
		first, total = i == b.plan.PilotFor(k), b.plan.ResidualFor(k)
	}
	name := b.streamName(si)
	if first && b.opt.Log != nil {
		b.opt.Log("set %s: labelling %d more pilot candidates to fit the balance's residual stage", name, total)
	}
	label := dataset.LabelAbsent
	switch r := c.rec; {
	case c.thinned:
		label = c.label
	case r != nil && !c.easy:
		label = r.Label
		s := c.surface(b.plan.PoolFrag(k))
		if m := b.st.Pools[k].Models; m != nil && (c.kept || b.residualKeeps(m, k, i, s, r.Label)) {
			b.fitOn(i, s, r.Label)
			b.member = append(b.member, member)
		}
	}
	if b.opt.Pilot != nil {
		b.opt.Pilot(name+" residual", total, label)
	}
}

// residualKeeps reports whether the residual stage of pool k, whose
// first stages are m, is fitted to candidate i of its residual pilot,
// decided, of surface s and the given label: the first stages keep it
// and it has no contradictory pair.
func (b *builder) residualKeeps(m *balanceModels, k, i int, s surface, label int) bool {
	return (label == dataset.LabelSat || !s.core) && m.keep(b.plan.Seed, k*PoolStride+i, s, label)
}

// pilotAdd keeps the features of pilot candidate i of pool k.
func (b *builder) pilotAdd(k, i int, c candidate) {
	pl := &b.plan.Pools[k]
	if i == 0 && b.opt.Log != nil {
		b.opt.Log("set %s: labelling %d pilot candidates to fit the surface-balance model", pl.Name, b.plan.PilotFor(k))
	}
	label := dataset.LabelAbsent
	if r := c.rec; r != nil && !c.easy {
		if b.x == nil {
			// Room for every pilot candidate: grown by appends, the
			// surfaces of 100,000 would be copied again and again, and
			// at the end held in room for up to a quarter more.
			b.x = make([]surface, 0, b.plan.PilotFor(k))
		}
		b.fitOn(i, c.surface(b.plan.PoolFrag(k)), r.Label)
		label = r.Label
	}
	if b.opt.Pilot != nil {
		b.opt.Pilot(pl.Name, b.plan.PilotFor(k), label)
	}
}

// fitOn keeps the surface s and label of pilot candidate i for the fit
// at the end of its pilot, its pair patterns numbered by the pilot's
// table.
func (b *builder) fitOn(i int, s surface, label int) {
	if b.table == nil {
		b.table = textfeat.NewPatternTable()
	}
	compact(&s, b.table)
	b.x = append(b.x, s)
	b.y = append(b.y, int8(label))
	b.idx = append(b.idx, i)
}

// testHookFitPilot, when a test sets it, sees the builder as pool k's
// models are about to be fitted to its pilot.
var testHookFitPilot func(b *builder, k int)

// fitModelsFunc is fitModels, which a test replaces.
var fitModelsFunc = fitModels

// phase reports the beginning of a step of the build (Options.Phase);
// the function it returns is called after each of its total steps.
func (b *builder) phase(what string, total int) func() {
	if b.opt.Phase != nil {
		if step := b.opt.Phase(what, total); step != nil {
			return step
		}
	}
	return func() {}
}

// fitPilot fits the surface-balance models of pool k to its pilot, if
// the pool has one and it ran. The pilot's candidates serve the fit
// alone. The fit, which can take a minute and does not look at ctx, runs
// apart, so that an interrupt stops the build at once.
func (b *builder) fitPilot(ctx context.Context, k int) error {
	x, y, idx := b.x, b.y, b.idx
	b.x, b.y, b.idx, b.table, b.member = nil, nil, nil, nil, nil
	if b.plan.PilotFor(k) == 0 || b.st.Pools[k].Models != nil || b.acceptors[k].open == 0 {
		return nil
	}
	b.phase(b.plan.Pools[k].Name+": fitting the surface-balance model to the pilot", -1)
	sat := 0
	for _, l := range y {
		sat += int(l)
	}
	if sat < 10 || len(y)-sat < 10 {
		return fmt.Errorf("set %s: the pilot decided %d of its %d candidates, %d sat and %d unsat: too few of one label to fit the surface balance; use --balance strata, or a region nearer the phase change",
			b.plan.Pools[k].Name, len(y), b.plan.PilotFor(k), sat, len(y)-sat)
	}
	// The fit is the build's largest step, and no decision runs beside
	// it (End is called after the stream's workers): the solver's memo
	// of decided shapes (some 50 MB at its cap) goes, and the decisions
	// after the fit fill it again.
	solver.ForgetShapes()
	if testHookFitPilot != nil {
		testHookFitPilot(b, k)
	}
	fit := fitModelsFunc
	models, err := pipeline.Apart(ctx, func() *balanceModels {
		return fit(x, y, idx, func(i int) float64 { return keepDraw(b.plan.Seed, pilotSeed, k*PoolStride+i) })
	})
	if err != nil {
		return err
	}
	b.st.Pools[k].Models = models
	return b.saveModels(k)
}

// fitPooled fits the residual stages of the pools of group g together to
// the candidates of their residual pilots that their first stages keep,
// unless each of them has its stage or is full; see residual.go.
func (b *builder) fitPooled(ctx context.Context, g int) error {
	x, y, idx, member := b.x, b.y, b.idx, b.member
	b.x, b.y, b.idx, b.table, b.member = nil, nil, nil, nil, nil
	group := b.groups[g]
	if b.plan.ResidualFor(group[0]) == 0 || b.groupDone(g) {
		return nil
	}
	b.phase(b.plan.groupName(g)+": fitting the balance's residual stage of every fragment together", -1)
	rs, err := pipeline.Apart(ctx, func() []*residual { return fitResidualStages(x, y, idx, member, len(group)) })
	if err != nil {
		return err
	}
	for m, k := range group {
		if b.st.Pools[k].Models == nil {
			continue
		}
		b.st.Pools[k].Models.Residual = rs[m]
		if err := b.saveResidual(k); err != nil {
			return err
		}
	}
	return nil
}

// groupDone reports whether each pool of group g has its residual stage
// or is full.
func (b *builder) groupDone(g int) bool {
	for _, k := range b.groups[g] {
		if b.st.Pools[k].ResidualFile == "" && b.acceptors[k].open > 0 {
			return false
		}
	}
	return true
}

// fitResidual fits pool k's residual stage to the candidates of its
// residual pilot that the first stages keep, if the pool has one and it
// ran; see residual.go.
func (b *builder) fitResidual(ctx context.Context, k int) error {
	x, y, idx := b.x, b.y, b.idx
	b.x, b.y, b.idx, b.table, b.member = nil, nil, nil, nil, nil
	ps := &b.st.Pools[k]
	if b.plan.ResidualFor(k) == 0 || ps.ResidualFile != "" || b.acceptors[k].open == 0 {
		return nil
	}
	b.phase(b.plan.Pools[k].Name+": fitting the balance's residual stage", -1)
	r, err := pipeline.Apart(ctx, func() *residual { return fitResidualStage(x, y, idx) })
	if err != nil {
		return err
	}
	ps.Models.Residual = r
	return b.saveResidual(k)
}
