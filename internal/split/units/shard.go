package units

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/split"
)

// Sharding. A build can be split into N shards run anywhere, as an
// instance build can (package split): shard j draws the candidates
// i ≡ j (mod N) of the build's one stream, up to a budget per stratum
// (Plan.budgets), and writes every one, unit or not. Merge then hands the
// shards' candidates to the collector in index order exactly as a single
// build draws them, so the merged dataset has the bytes of an unsharded
// build. Only when a stratum needs more candidates than its budget does
// the merge fail, naming it (ShortError).

// Kind is the kind of job in the manifest of a shard of task t.
func Kind(t Task) string { return KindOf(t.Name()) }

// KindOf is Kind of the task named name.
func KindOf(name string) string { return "split-" + name }

// shardYield is the share of a stratum's candidates that a shard's budget
// counts on becoming units. A candidate draws until it gives a unit, so
// nearly all do; the rest are duplicates.
const shardYield = 0.95

// budgets returns the candidates the shards of a build draw per stratum:
// what the stratum's units need at shardYield, plus four standard
// deviations, times oversample, plus two; never more than the draw limit
// lets a build look at.
func (p *Plan) budgets(oversample float64) []int {
	out := make([]int, len(p.Strata))
	for s := range out {
		q := float64(p.quota(s))
		if q == 0 {
			continue
		}
		n := int(math.Ceil(oversample*(q/shardYield+4*math.Sqrt(q*(1-shardYield))/shardYield))) + 2
		out[s] = min(n, p.DrawLimit*p.quota(s))
	}
	return out
}

// ShortError is a merge's failure when a stratum needed more candidates
// than its shards drew: they are to be run again with a larger
// oversample.
type ShortError struct {
	Stratum string
	// Drawn is the stratum's candidates the shards drew, which gave
	// Units of its Quota.
	Drawn, Units, Quota int
	noun                string
}

func (e *ShortError) Error() string {
	return fmt.Sprintf("stratum %s needs more candidates than the shards drew: their %d gave %d of its %d %ss",
		e.Stratum, e.Drawn, e.Units, e.Quota, e.noun)
}

// RunShard draws shard sh's candidates of task t's plan p into o.Dir,
// resuming an unfinished run of the same shard found there. A directory
// that already holds the shard, intact, gives split.ErrAlreadyBuilt.
func RunShard(ctx context.Context, t Task, p *Plan, sh split.Shard, o Options) (*job.Manifest, error) {
	if o.NewBackend == nil {
		return nil, inputerr.Errorf("the %s task needs a solver; drop --solver none", t.Name())
	}
	if sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return nil, fmt.Errorf("shard %d of %d: expected 0 ≤ index < count", sh.Index, sh.Count)
	}
	if sh.Oversample <= 0 {
		sh.Oversample = 1.2
	}
	// A shard accepts nothing: no stratum is ever full, and every
	// candidate of its share is drawn, by the task fitted to the pilot
	// (every shard fits the same model).
	c := &collector{task: t, plan: p, full: make([]bool, len(p.Strata)), drawer: drawer{task: t, plan: p, opt: o}}
	cfg := job.Config[solver.Backend, candidate]{
		Streams: []job.Stream{{Name: candidateStream, Limit: -1}},
		Workers: o.Workers, New: o.NewBackend, Close: solver.Close,
		Do:    func(ctx context.Context, b solver.Backend, _, i int) (candidate, error) { return c.draw(ctx, b, i) },
		Every: o.CheckpointEvery,
		Progress: func(_, done, total int, _ candidate) {
			if o.Progress != nil {
				o.Progress(done, total)
			}
		},
	}
	cfg.Streams[0].Stratify(p.budgets(sh.Oversample))
	plan, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	m := job.Manifest{Kind: Kind(t), Task: t.Name(), Toolkit: o.Toolkit, Command: o.Command, License: o.License, Digest: p.Digest(), Plan: plan,
		Index: sh.Index, Count: sh.Count, Oversample: sh.Oversample}
	got, err := job.RunShard(ctx, cfg, o.Dir, m, o.Force)
	if errors.Is(err, job.ErrDone) {
		return got, split.ErrAlreadyBuilt
	}
	return got, err
}

// candidateStream names the build's one stream, and its file in a shard.
const candidateStream = "candidates"

// missing says, in a merge, what a candidate no shard drew is: nothing,
// if its stratum is full; otherwise one past the shards' budget (emit
// fails on it), or, within the budget, a shard that lacks it.
func (c *collector) missing(st job.Stream, src *job.Shards) func(k, i int) (candidate, error) {
	return func(_, i int) (candidate, error) {
		s := i % len(c.plan.Strata)
		cd := candidate{I: i, Stratum: s}
		switch {
		case c.isFull(s):
			cd.Skipped = true
		case i < st.ShardLimit && st.Drawn(i):
			return cd, fmt.Errorf("candidate %d is missing from shard %s", i, src.Dirs[i%len(src.Dirs)])
		default:
			cd.Beyond = true
		}
		return cd, nil
	}
}

// Merge builds into o.Dir the dataset of task t whose shards src holds:
// the same bytes as an unsharded build of their plan in o.Output's
// format.
func Merge(ctx context.Context, t Task, src *job.Shards, o Options) (*Manifest, error) {
	first := src.Manifest
	var p Plan
	if err := json.Unmarshal(first.Plan, &p); err != nil || p.Task != t.Name() || p.Digest() != first.Digest {
		return nil, inputerr.Errorf("%s: its plan does not match its digest", filepath.Join(src.Dirs[0], job.ManifestFile))
	}
	o.Command, o.License = first.Command, first.License
	if o.Toolkit == (job.Toolkit{}) {
		o.Toolkit = first.Toolkit
	}
	return build(ctx, t, &p, o, src)
}
