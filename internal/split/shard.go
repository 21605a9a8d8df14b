package split

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/job"
)

// Sharding. A build can be split into N shards run anywhere (array jobs,
// several machines). Shard j draws and labels the candidates i ≡ j (mod N)
// of every set: every one of them in both pilots, and its own candidates
// up to a budget per stratum (Plan.budget). Merge then accepts the candidates of all shards
// in index order exactly as a single build does, so the merged dataset has
// the bytes of an unsharded build. Only when a stratum needs more
// candidates than the budget does the merge fail, naming it.

// ShardFile is the manifest's name in a shard directory.
const ShardFile = job.ManifestFile

// Kind is the kind of job in a split shard's manifest.
const Kind = "split"

// Shard holds the sharding of a build.
type Shard struct {
	Index, Count int
	// Oversample is the margin of the per-stratum budget (default 1.2).
	Oversample float64
}

// candLine is a candidate as a shard writes it.
type candLine struct {
	Exact   string          `json:"exact"`
	Renamed string          `json:"renamed"`
	Capped  bool            `json:"capped"`
	Hard    bool            `json:"hard,omitempty"`
	Reason  string          `json:"reason"`
	Record  *dataset.Record `json:"record"`
}

// MarshalJSON writes the candidate with its keys in hex and its record
// normalised.
func (c candidate) MarshalJSON() ([]byte, error) {
	l := candLine{Exact: hex.EncodeToString(c.exact[:]), Capped: c.capped, Hard: c.hard, Reason: c.reason, Record: c.rec}
	if c.renamed != ([32]byte{}) {
		l.Renamed = hex.EncodeToString(c.renamed[:])
	}
	if l.Record != nil {
		l.Record.Normalize()
	}
	return json.Marshal(l)
}

// UnmarshalJSON reads a candidate as MarshalJSON writes it.
func (c *candidate) UnmarshalJSON(data []byte) error {
	var l candLine
	if err := json.Unmarshal(data, &l); err != nil {
		return err
	}
	*c = candidate{capped: l.Capped, hard: l.Hard, rec: l.Record, reason: l.Reason}
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
// that already holds the shard, intact, gives ErrAlreadyBuilt.
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
	b, err := newBuilder(p, o, newState(p))
	if err != nil {
		return nil, err
	}
	c := b.config(ctx)
	for k := range p.Pools {
		b.shardStreams(c.Streams, k, sh.Oversample)
	}
	c.Progress = func(s, done, total int, cand candidate) {
		if o.Progress != nil && cand.rec != nil {
			o.Progress(b.streamName(s), done, total, cand.rec.Label)
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
func (b *builder) missing(oversample float64) func(s, i int) (candidate, error) {
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
		return candidate{}, fmt.Errorf("set %s: stratum %s needs more candidates than the shards drew (%d, oversample %g); run the shards again with a higher --oversample",
			pl.Name, pl.Strata[st].Key, b.plan.budget(k, st, oversample), oversample)
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
	return run(ctx, &p, o, src)
}
