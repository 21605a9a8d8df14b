package split

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/solver"
)

// Sharding. A build can be split into N shards run anywhere (array jobs,
// several machines). Shard j draws and labels the candidates i ≡ j (mod N)
// of every set: every one of them in both pilots, and its own candidates
// up to a budget per stratum (Plan.budget), or fewer once it holds its
// quota of the stratum (Plan.shardQuota, quotas). Merge then accepts the
// candidates of all shards in index order exactly as a single build does,
// so the merged dataset has the bytes of an unsharded build. Only when a
// stratum needs more candidates than the shards drew does the merge fail,
// naming it.
//
// The shards and the merge take turns, so that every per-candidate step
// runs in the shards and the merge only fits and selects. A sharded
// build lays its streams out in three phases (layout): the pilots, the
// residual pilots, the candidates. A shard draws until it reaches a
// stream that needs balance models it does not hold, publishes what it
// drew and waits (ErrWaiting). The merge reads the shards as far as they
// reach, fits the models at the end of each pilot, checkpoints and hands
// the models to every shard (HandOverFile); run again, the shards go on
// with them. With the models a shard decides itself what the merge would
// of each residual pilot and candidate (thin): whether the balance keeps
// it. A candidate the balance thins is stored as its label alone, one it
// keeps without its instance (candidate.resample), which the merge draws
// again from the plan and the index; the merge takes the shards'
// decisions instead of computing surfaces and scores. A build with both
// balance stages so takes three turns of shards and merge, one without
// the residual stage two, and one with the strata balance one.

// HandOverFile is the name, in a shard directory, of the index of the
// balance models a merge has handed to the shard.
const HandOverFile = "balance.json"

// ErrWaiting is returned by RunShard when the shard has drawn all it can
// before a merge fits the balance models its next stream needs, and by
// Merge when it has fitted what the shards drew so far and handed the
// models over: run the shards again, then the merge.
var ErrWaiting = job.ErrWaiting

// ShardFile is the manifest's name in a shard directory.
const ShardFile = job.ManifestFile

// Kind is the kind of job in a split shard's manifest.
const Kind = "split"

// Shard holds the sharding of a build.
type Shard struct {
	Index, Count int
	// Oversample is the margin of the per-stratum budget (default 1.2).
	Oversample float64
	// KeepPilots keeps the shard's pilots once the merge has fitted the
	// balance to them, which it otherwise removes (builder.spent): kept,
	// the finished shards can be merged again from scratch (into another
	// format, say), at most of their storage.
	KeepPilots bool
}

// candLine is a candidate as a shard writes it.
type candLine struct {
	Exact   string `json:"exact"`
	Renamed string `json:"renamed"`
	Capped  bool   `json:"capped"`
	Hard    bool   `json:"hard,omitempty"`
	Easy    bool   `json:"easy,omitempty"`
	Kept    bool   `json:"kept,omitempty"`
	// Resample: the record holds of its instance only the fragment and
	// sizes (candidate.resample).
	Resample bool            `json:"resample,omitempty"`
	Reason   string          `json:"reason"`
	Record   *dataset.Record `json:"record"`
}

// thinLine is a candidate the balance thins, as a shard writes it.
type thinLine struct {
	Thinned bool `json:"thinned"`
	Label   int  `json:"label"`
}

// MarshalJSON writes the candidate with its keys in hex and its record
// normalised, or a thinned one as its label alone.
func (c candidate) MarshalJSON() ([]byte, error) {
	if c.thinned {
		return json.Marshal(thinLine{Thinned: true, Label: c.label})
	}
	l := candLine{Exact: hex.EncodeToString(c.exact[:]), Capped: c.capped, Hard: c.hard, Easy: c.easy, Kept: c.kept, Reason: c.reason, Record: c.rec}
	if c.renamed != ([32]byte{}) {
		l.Renamed = hex.EncodeToString(c.renamed[:])
	}
	if c.resample && c.rec != nil {
		r := *c.rec
		r.DropInstance()
		l.Record, l.Resample = &r, true
	}
	if l.Record != nil {
		l.Record.Normalize()
	}
	return json.Marshal(l)
}

// UnmarshalJSON reads a candidate as MarshalJSON writes it.
func (c *candidate) UnmarshalJSON(data []byte) error {
	// MarshalJSON writes a thinned candidate's field first; only such a
	// line is read as one.
	if bytes.HasPrefix(data, []byte(`{"thinned":`)) {
		var t thinLine
		if err := json.Unmarshal(data, &t); err != nil {
			return err
		}
		if !t.Thinned || t.Label != dataset.LabelAbsent && t.Label != dataset.LabelUnsat && t.Label != dataset.LabelSat {
			return fmt.Errorf("not a thinned candidate: %s", data)
		}
		*c = candidate{thinned: true, label: t.Label}
		return nil
	}
	var l candLine
	if err := json.Unmarshal(data, &l); err != nil {
		return err
	}
	if l.Resample && l.Record == nil {
		return fmt.Errorf("a candidate to sample again without its record: %s", data)
	}
	*c = candidate{capped: l.Capped, hard: l.Hard, easy: l.Easy, kept: l.Kept, rec: l.Record, reason: l.Reason, resample: l.Resample}
	for _, h := range []struct {
		s   string
		dst *[32]byte
	}{{l.Exact, &c.exact}, {l.Renamed, &c.renamed}} {
		if h.s == "" {
			continue
		}
		b, err := hex.DecodeString(h.s)
		if err != nil || len(b) != 32 {
			return fmt.Errorf("key %q is not a hex SHA-256", h.s)
		}
		copy(h.dst[:], b)
	}
	if l.Record == nil && l.Reason == "" {
		return errors.New("neither a record nor a reason")
	}
	return nil
}

// RunShard draws and labels shard sh's candidates of plan p into o.Dir,
// resuming an unfinished run of the same shard found there. A directory
// that already holds the shard, intact, gives ErrAlreadyBuilt. A shard
// that has drawn what it can before the merge hands it the balance
// models its next stream needs returns its manifest so far with
// ErrWaiting.
func RunShard(ctx context.Context, p *Plan, sh Shard, o Options) (*job.Manifest, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return nil, fmt.Errorf("shard %d of %d: expected 0 ≤ index < count", sh.Index, sh.Count)
	}
	if sh.Oversample <= 0 {
		sh.Oversample = 1.2
	}
	b, err := newBuilder(p, o, newState(p), true)
	if err != nil {
		return nil, err
	}
	c := b.config(ctx)
	for k := range p.Pools {
		b.shardStreams(c.Streams, k, sh.Oversample)
	}
	c.Ready = func(s int) (bool, error) {
		if b.ready(s) {
			return true, nil
		}
		if err := b.takeOver(); err != nil {
			return false, err
		}
		return b.ready(s), nil
	}
	if !sh.KeepPilots {
		c.Spent = b.spent
	}
	q := b.newQuotas(sh)
	do := c.Do
	c.Do = func(ctx context.Context, w solver.Backend, s, i int) (candidate, error) {
		if q.enough(s, i) {
			return candidate{skipped: true}, nil
		}
		cand, err := do(ctx, w, s, i)
		if err != nil || cand.rec == nil {
			return cand, err
		}
		cand = b.thin(s, i, cand)
		switch {
		case cand.rec == nil:
		case b.refs[s].kind != candidateKind:
			// The merge fits the balance to a pilot candidate's surface
			// and label alone.
			cand.rec = surfaceRecord(cand.rec)
		default:
			// The merge draws the instance of a candidate of the set
			// again, for those it judges.
			cand.resample = true
		}
		return cand, nil
	}
	c.Take, c.State = q.take, func() any { return q.Got }
	c.Load = func(state func(v any) error) error {
		if err := state(&q.Got); err != nil {
			return err
		}
		return q.check()
	}
	c.Progress = func(s, done, total int, cand candidate) {
		switch {
		case o.Progress == nil:
		case cand.rec != nil:
			o.Progress(b.streamName(s), done, total, cand.rec.Label)
		case cand.thinned:
			o.Progress(b.streamName(s), done, total, cand.label)
		}
	}
	plan, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	m := job.Manifest{Kind: Kind, Toolkit: o.Toolkit, Command: o.Command, License: o.License, Digest: p.Digest(), Plan: plan,
		Index: sh.Index, Count: sh.Count, Oversample: sh.Oversample}
	got, err := job.RunShard(ctx, c, o.Dir, m, o.Force)
	if errors.Is(err, job.ErrDone) {
		return got, ErrAlreadyBuilt
	}
	return got, err
}

// quotas is what a shard has kept of each stratum of each pool's
// candidates (Plan.shardQuota): it writes a stratum's candidates, in
// index order, until it holds its quota of both labels, and no more.
type quotas struct {
	b     *builder
	quota [][]int         // per pool and stratum; -1: no quota
	Got   [][][2]int      // per pool and stratum, per label (unsat, sat)
	full  [][]atomic.Bool // per pool and stratum: Got reached quota
}

func (b *builder) newQuotas(sh Shard) *quotas {
	q := &quotas{b: b}
	for k, pl := range b.plan.Pools {
		var qs []int
		for s := range pl.Strata {
			qs = append(qs, b.plan.shardQuota(k, s, sh.Count, sh.Oversample))
		}
		q.quota = append(q.quota, qs)
		q.Got = append(q.Got, make([][2]int, len(pl.Strata)))
		q.full = append(q.full, make([]atomic.Bool, len(pl.Strata)))
	}
	return q
}

// check marks the strata whose quotas Got, read back from a checkpoint,
// holds, and refuses a state of another plan.
func (q *quotas) check() error {
	same := len(q.Got) == len(q.quota)
	for k := 0; same && k < len(q.Got); k++ {
		same = len(q.Got[k]) == len(q.quota[k])
	}
	if !same {
		return errors.New("cannot resume: the checkpoint's candidate counts are not this build's")
	}
	for k := range q.Got {
		for s := range q.Got[k] {
			q.mark(k, s)
		}
	}
	return nil
}

// mark sets stratum s of pool k full once Got holds its quota of both
// labels.
func (q *quotas) mark(k, s int) {
	if n := q.quota[k][s]; n >= 0 && q.Got[k][s][0] >= n && q.Got[k][s][1] >= n {
		q.full[k][s].Store(true)
	}
}

// enough reports whether item i of stream s, a candidate, belongs to a
// stratum the shard has its quota of: it need not be drawn.
func (q *quotas) enough(s, i int) bool {
	ref := q.b.refs[s]
	if ref.kind != candidateKind {
		return false
	}
	return q.full[ref.k][i%len(q.b.plan.Pools[ref.k].Strata)].Load()
}

// take reports, for the candidates of stream s in index order, whether
// the shard writes candidate i, and counts it: every candidate until its
// stratum's quota is full, none after. A candidate counts when the
// balance keeps it (not thinned) and a split of its stratum admits it.
func (q *quotas) take(s, i int, c candidate) bool {
	ref := q.b.refs[s]
	if ref.kind != candidateKind {
		return true
	}
	k := ref.k
	st := i % len(q.b.plan.Pools[k].Strata)
	if q.full[k][st].Load() {
		return false
	}
	if c.rec != nil && !c.thinned && q.b.acceptors[k].mask(st, c) != 0 {
		q.Got[k][st][c.rec.Label]++
		q.mark(k, st)
	}
	return true
}

// streamPools returns the pools whose candidates stream s draws: its
// pool's, or those of its group (a pooled residual pilot).
func (b *builder) streamPools(s int) []int {
	ref := b.refs[s]
	if ref.k < 0 {
		return b.groups[ref.g]
	}
	return []int{ref.k}
}

// ready reports whether a shard holds the balance models that stream s
// needs: a residual pilot, the first stages of its pools; candidates,
// every stage of their pool. A pool without a pilot needs none.
func (b *builder) ready(s int) bool {
	ref := b.refs[s]
	for _, k := range b.streamPools(s) {
		ps := &b.st.Pools[k]
		switch {
		case ref.kind == pilotKind || b.plan.PilotFor(k) == 0:
		case ps.Models == nil:
			return false
		case ref.kind == candidateKind && b.plan.ResidualFor(k) > 0 && ps.ResidualFile == "":
			return false
		}
	}
	return true
}

// spent reports, in a shard, whether the merge is done with stream s: a
// pilot once it has handed over the first stages fitted to it, a
// residual pilot once it has handed over the residual stage. A merge
// hands models over only after it has checkpointed them, so no merge of
// the build reads the stream again.
func (b *builder) spent(s int) bool {
	ref := b.refs[s]
	for _, k := range b.streamPools(s) {
		ps := &b.st.Pools[k]
		switch {
		case b.plan.PilotFor(k) == 0:
			return false
		case ref.kind == pilotKind && ps.Models == nil:
			return false
		case ref.kind == residualKind && ps.ResidualFile == "":
			return false
		case ref.kind == candidateKind:
			return false
		}
	}
	return true
}

// thin decides in a shard, from the balance models it holds, what the
// merge would decide of candidate i of stream s, decided: whether the
// balance keeps a candidate, and whether the residual stage is fitted to
// a residual pilot's candidate. The merge reads nothing else of a
// candidate it would not keep, so that is stored as its label alone.
func (b *builder) thin(s, i int, c candidate) candidate {
	ref := b.refs[s]
	k := ref.k
	if k < 0 {
		k, _, i = b.groupItem(ref.g, i)
	}
	m := b.st.Pools[k].Models
	switch ref.kind {
	case residualKind:
		if c.easy {
			return candidate{thinned: true, label: dataset.LabelAbsent}
		}
		if m == nil || !b.residualKeeps(m, k, i, c.surface(b.plan.PoolFrag(k)), c.rec.Label) {
			return candidate{thinned: true, label: c.rec.Label}
		}
		c.kept = true
	case candidateKind:
		if m == nil || c.kept {
			return c
		}
		if !m.keep(b.plan.Seed, k*PoolStride+i, c.surface(b.plan.PoolFrag(k)), c.rec.Label) {
			return candidate{thinned: true, label: c.rec.Label}
		}
		c.kept = true
	}
	return c
}

// handOver is the index of the models a merge hands to a shard
// (HandOverFile): the directory that holds them, relative to the shard's,
// and per pool the files of its models and residual stage there, as a
// build's checkpoint names them.
type handOver struct {
	Digest string       `json:"plan_digest"`
	Dir    string       `json:"dir"`
	Pools  []handedPool `json:"pools"`
}

type handedPool struct {
	ModelsFile   string `json:"models_file,omitempty"`
	ResidualFile string `json:"residual_file,omitempty"`
}

// handOverDir returns the directory, beside shard directory dir, where a
// merge puts the balance models of the build of plan digest digest: one
// copy serves every shard directory of the same parent (SHARDS/shard-i),
// however many shards.
func handOverDir(dir, digest string) string {
	return filepath.Join(filepath.Dir(filepath.Clean(dir)), ".nlsat-balance-"+digest[:16])
}

// handOver gives every shard of src the balance models the merge has
// fitted so far: their files, copied from the merge's work directory
// into handOverDir, then in each shard the index that names them, so
// that a shard never reads an index whose files are not all there.
func (b *builder) handOver(src *job.Shards) error {
	digest := b.plan.Digest()
	var files []string
	pools := make([]handedPool, len(b.st.Pools))
	for k, ps := range b.st.Pools {
		pools[k] = handedPool{ModelsFile: ps.ModelsFile, ResidualFile: ps.ResidualFile}
		for _, f := range []string{ps.ModelsFile, ps.ResidualFile} {
			if f != "" {
				files = append(files, f)
			}
		}
	}
	work := filepath.Join(b.opt.Dir, workDir)
	written := map[string]bool{}
	for _, dir := range src.Dirs {
		to := handOverDir(dir, digest)
		if !written[to] {
			if err := os.MkdirAll(to, 0o755); err != nil {
				return err
			}
			for _, f := range files {
				data, err := os.ReadFile(filepath.Join(work, f))
				if err != nil {
					return err
				}
				if err := writeFileAtomic(filepath.Join(to, f), data); err != nil {
					return err
				}
			}
			written[to] = true
		}
		index, err := json.Marshal(handOver{Digest: digest, Dir: filepath.Join("..", filepath.Base(to)), Pools: pools})
		if err != nil {
			return err
		}
		if err := writeFileAtomic(filepath.Join(dir, HandOverFile), index); err != nil {
			return err
		}
	}
	return ErrWaiting
}

// dropHandOver removes, once the merge has written the dataset, what it
// handed to the shards of src: no shard needs the models any more.
func dropHandOver(src *job.Shards, digest string) {
	for _, dir := range src.Dirs {
		os.Remove(filepath.Join(dir, HandOverFile))
		os.RemoveAll(handOverDir(dir, digest))
	}
}

// takeOver reads, in a shard, the models a merge has handed over, if
// any.
func (b *builder) takeOver() error {
	name := filepath.Join(b.opt.Dir, HandOverFile)
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var idx handOver
	if err == nil {
		err = json.Unmarshal(data, &idx)
	}
	switch {
	case err != nil:
		return inputerr.Errorf("%s: %w", name, err)
	case idx.Digest != b.plan.Digest() || len(idx.Pools) != len(b.st.Pools):
		return inputerr.Errorf("%s holds the balance models of another build; run the merge of this build's shards", name)
	}
	st := newState(b.plan)
	for k, hp := range idx.Pools {
		st.Pools[k].ModelsFile, st.Pools[k].ResidualFile = hp.ModelsFile, hp.ResidualFile
	}
	if err := st.loadModels(filepath.Join(b.opt.Dir, idx.Dir)); err != nil {
		return err
	}
	for k := range st.Pools {
		ps := &b.st.Pools[k]
		ps.Models, ps.ModelsFile, ps.ResidualFile = st.Pools[k].Models, st.Pools[k].ModelsFile, st.Pools[k].ResidualFile
	}
	return nil
}

// shardStreams sets what the shards of pool k draw: their share of both
// pilots in full, then of the candidates of each stratum up to its
// budget.
func (b *builder) shardStreams(streams []job.Stream, k int, oversample float64) {
	budgets := make([]int, len(b.plan.Pools[k].Strata))
	for s := range budgets {
		budgets[s] = b.plan.budget(k, s, oversample)
	}
	streams[b.streamIndex(pilotKind, k)].ShardLimit = b.plan.PilotFor(k)
	if s := b.streamIndex(residualKind, k); s >= 0 {
		streams[s].ShardLimit = b.plan.PilotFor(k) + b.plan.ResidualFor(k)
	}
	streams[b.streamIndex(candidateKind, k)].Stratify(budgets)
}

// missing says, in a merge, what to do with a candidate no shard drew:
// nothing, if its stratum is full; otherwise the shards drew too few.
func (b *builder) missing(count int, oversample float64) func(s, i int) (candidate, error) {
	return func(s, i int) (candidate, error) {
		ref := b.refs[s]
		if ref.kind != candidateKind {
			return candidate{}, fmt.Errorf("set %s: pilot candidate %d is missing from its shard", b.streamName(s), i)
		}
		k := ref.k
		pl := &b.plan.Pools[k]
		if !b.acceptors[k].wanted(i) {
			return candidate{skipped: true}, nil
		}
		st := i % len(pl.Strata)
		return candidate{}, fmt.Errorf("set %s: stratum %s needs more candidates than the shards drew (a budget of %d candidates, and per shard a quota of %d of each label, at oversample %g); run the shards again with a higher --oversample",
			pl.Name, pl.Strata[st].Key, b.plan.budget(k, st, oversample), b.plan.shardQuota(k, st, count, oversample), oversample)
	}
}

// Merge builds into o.Dir the dataset whose shards src holds: the same
// bytes as an unsharded build of their plan.
func Merge(ctx context.Context, src *job.Shards, o Options) (*Manifest, error) {
	first := src.Manifest
	var p Plan
	if err := json.Unmarshal(first.Plan, &p); err != nil || p.Digest() != first.Digest {
		return nil, fmt.Errorf("%s: its plan does not match its digest", filepath.Join(src.Dirs[0], ShardFile))
	}
	o.Command, o.License = first.Command, first.License
	if o.Toolkit == (Toolkit{}) {
		o.Toolkit = first.Toolkit
	}
	m, err := run(ctx, &p, o, src)
	if err == nil {
		dropHandOver(src, p.Digest())
	}
	return m, err
}
