package build

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/pipeline"
)

// Sharding. A build can be split into N shards run anywhere (array jobs,
// several machines). Shard j draws and labels the candidates i ≡ j (mod N)
// of every set, up to a budget per stratum (Plan.budget), and writes them
// in index order with their keys. Merge then accepts the candidates of all
// shards in index order exactly as a single build does, so the merged
// dataset has the bytes of an unsharded build. Only when a stratum needs
// more candidates than the budget does the merge fail, naming it.

// ShardFile is the manifest's name in a shard directory.
const (
	ShardFile = job.ManifestFile
	shardWork = ".nlsat-shard"
)

// candLine is one candidate as a shard writes it.
type candLine struct {
	I       int             `json:"i"`
	Exact   string          `json:"exact"`
	Renamed string          `json:"renamed"`
	Capped  bool            `json:"capped"`
	Hard    bool            `json:"hard,omitempty"`
	Reason  string          `json:"reason"`
	Record  *dataset.Record `json:"record"`
}

// shardState is a shard's checkpoint: per set, the next slot and the valid
// length of its candidate file.
type shardState struct {
	Plan  string      `json:"plan"`
	Next  []int       `json:"next"`
	Files []fileState `json:"files"`
}

// Shard holds the sharding of a build.
type Shard struct {
	Index, Count int
	// Oversample is the margin of the per-stratum budget (default 1.2).
	Oversample float64
}

func candFile(set string) string { return "candidates-" + set + ".jsonl" }

// RunShard draws and labels shard sh's candidates of plan p into o.Dir,
// resuming an unfinished run of the same shard found there.
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
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = defaultCheckpoint
	}
	planJSON, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	m := &job.Manifest{Schema: job.ManifestSchema, Kind: "split", Toolkit: o.Toolkit, Command: o.Command, License: o.License,
		Digest: p.Digest(), Plan: planJSON, Index: sh.Index, Count: sh.Count, Oversample: sh.Oversample}
	digest := fmt.Sprintf("%s/%d/%d/%g", m.Digest, sh.Index, sh.Count, sh.Oversample)
	if old, err := job.Read(o.Dir); err == nil {
		if old.Kind == m.Kind && old.Digest == m.Digest && old.Index == sh.Index && old.Count == sh.Count && old.Oversample == sh.Oversample {
			if err := job.Verify(o.Dir, old); err == nil {
				return old, ErrAlreadyBuilt
			}
		}
		if !o.Force {
			return nil, fmt.Errorf("%s already holds a shard; choose another --out or pass --force", o.Dir)
		}
	}
	work := filepath.Join(o.Dir, shardWork)
	st := &shardState{Plan: digest, Next: make([]int, len(p.Pools)), Files: make([]fileState, len(p.Pools))}
	data, err := os.ReadFile(filepath.Join(work, stateFile))
	switch {
	case err == nil:
		var old shardState
		if err := json.Unmarshal(data, &old); err != nil || old.Plan != digest {
			return nil, fmt.Errorf("%s holds an unfinished shard of another configuration or a corrupt checkpoint; run the same command as before, or remove %s", o.Dir, work)
		}
		st = &old
		if o.Log != nil {
			o.Log("resuming the unfinished shard in %s", o.Dir)
		}
	case errors.Is(err, fs.ErrNotExist):
		if err := checkEmpty(p, o); err != nil && !errors.Is(err, ErrAlreadyBuilt) {
			return nil, err
		}
		if err := os.MkdirAll(work, 0o755); err != nil {
			return nil, fmt.Errorf("cannot write %s: %w", o.Dir, err)
		}
	default:
		return nil, err
	}
	b := &builder{plan: p, opt: o}
	if err := b.initParams(); err != nil {
		return nil, err
	}
	files := make([]*partFile, len(p.Pools))
	defer func() {
		for _, f := range files {
			if f != nil {
				f.f.Close()
			}
		}
	}()
	for k, pl := range p.Pools {
		if files[k], err = openPart(filepath.Join(work, candFile(pl.Name)), st.Files[k]); err != nil {
			return nil, err
		}
	}
	save := func() error {
		for k, f := range files {
			fs, err := f.flush()
			if err != nil {
				return err
			}
			st.Files[k] = fs
		}
		data, _ := json.Marshal(st)
		return writeFileAtomic(filepath.Join(work, stateFile), data)
	}
	for k, pl := range p.Pools {
		nS := len(pl.Strata)
		budgets := make([]int, nS)
		// The pilot's candidates come first, all of them; then each
		// stratum's budget of the set's own candidates.
		pilot := p.PilotFor(k)
		limit := pilot // slots of this set: i < limit
		for s := range budgets {
			budgets[s] = p.budget(k, s, sh.Oversample)
			limit = max(limit, pilot+(budgets[s]-1)*nS+s+1)
		}
		slots := 0 // this shard's slots: i = Index + Count·j < limit
		if limit > sh.Index {
			slots = (limit - sh.Index + sh.Count - 1) / sh.Count
		}
		start := st.Next[k]
		last := b.last
		f := files[k]
		err := pipeline.Run(ctx, pipeline.Config[Worker, candidate]{
			Workers: o.Workers,
			Limit:   max(0, slots-start),
			New:     o.NewWorker,
			Close:   func(w Worker) { w.Close() },
			Do: func(ctx context.Context, w Worker, j int) (candidate, error) {
				i := sh.Index + sh.Count*(start+j)
				if i >= pilot && (i-pilot)/nS >= budgets[i%nS] {
					return candidate{skipped: true}, nil
				}
				return b.draw(ctx, w, k, i)
			},
			Emit: func(j int, c candidate) (bool, error) {
				st.Next[k] = start + j + 1
				if c.skipped {
					return false, nil
				}
				i := sh.Index + sh.Count*(start+j)
				data, err := json.Marshal(b.lineOf(i, c))
				if err != nil {
					return true, err
				}
				if _, err := f.w.Write(append(data, '\n')); err != nil {
					return true, fmt.Errorf("%s: %w", f.name, err)
				}
				f.rows++
				if o.Progress != nil && c.lab.Record != nil {
					o.Progress(pl.Name, start+j+1, slots, c.lab.Record.Label)
				}
				if time.Since(last) >= o.CheckpointEvery {
					last = time.Now()
					return false, save()
				}
				return false, nil
			},
		})
		if err != nil {
			if serr := save(); serr != nil {
				return nil, errors.Join(err, serr)
			}
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			save()
			return nil, err
		}
		st.Next[k] = slots
		if err := save(); err != nil {
			return nil, err
		}
	}
	for k, pl := range p.Pools {
		files[k].f.Close()
		files[k] = nil
		dst := filepath.Join(o.Dir, candFile(pl.Name))
		if err := os.Rename(filepath.Join(work, candFile(pl.Name)), dst); err != nil {
			return nil, err
		}
		fr, err := job.Report(o.Dir, candFile(pl.Name), st.Files[k].Rows)
		if err != nil {
			return nil, err
		}
		fr.Set = pl.Name
		m.Files = append(m.Files, fr)
	}
	data, err = json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(o.Dir, ShardFile), append(data, '\n')); err != nil {
		return nil, err
	}
	return m, os.RemoveAll(work)
}

// readShard reads a shard's manifest and the plan in it.
func readShard(dir string) (*job.Manifest, *Plan, error) {
	m, err := job.Read(dir)
	if err != nil {
		return nil, nil, err
	}
	var p Plan
	if err := json.Unmarshal(m.Plan, &p); err != nil || p.Digest() != m.Digest {
		return nil, nil, fmt.Errorf("%s: its plan does not match its digest", filepath.Join(dir, ShardFile))
	}
	return m, &p, nil
}

// shardSource feeds a merge with the candidates of all shards, in index
// order.
type shardSource struct {
	dirs   []string // by shard index
	count  int
	over   float64
	plan   *Plan
	files  []*os.File
	cursor []*bufio.Reader
	peeked []*candLine
}

// openShards reads and checks the shards of a split.
func openShards(dirs []string) (*shardSource, *job.Manifest, error) {
	byIndex, ms, err := job.Open(dirs, "split")
	if err != nil {
		return nil, nil, err
	}
	_, p, err := readShard(byIndex[0])
	if err != nil {
		return nil, nil, err
	}
	return &shardSource{dirs: byIndex, count: ms[0].Count, over: ms[0].Oversample, plan: p}, ms[0], nil
}

// each feeds the acceptor the candidates of set k from index start on.
func (src *shardSource) each(ctx context.Context, k, start int, a *acceptor) error {
	if err := src.open(k); err != nil {
		return err
	}
	defer src.close()
	pl := &src.plan.Pools[k]
	for i := start; ; i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var c candidate
		switch {
		case !a.wanted(i):
			c.skipped = true
		default:
			line, err := src.take(k, i)
			if err != nil {
				return err
			}
			if line == nil {
				s := i % len(pl.Strata)
				return fmt.Errorf("set %s: stratum %s needs more candidates than the shards drew (%d, oversample %g); run the shards again with a higher --oversample",
					pl.Name, pl.Strata[s].Key, src.plan.budget(k, s, src.over), src.over)
			}
			if c, err = line.candidate(); err != nil {
				return fmt.Errorf("%s: candidate %d: %w", filepath.Join(src.dirs[i%src.count], candFile(pl.Name)), i, err)
			}
		}
		stop, err := a.consider(i, c)
		if stop || err != nil {
			return err
		}
	}
}

// open opens every shard's candidate file of set k.
func (src *shardSource) open(k int) error {
	src.close()
	pl := &src.plan.Pools[k]
	for _, dir := range src.dirs {
		f, err := os.Open(filepath.Join(dir, candFile(pl.Name)))
		if err != nil {
			src.close()
			return err
		}
		src.files = append(src.files, f)
		src.cursor = append(src.cursor, bufio.NewReaderSize(f, 1<<16))
		src.peeked = append(src.peeked, nil)
	}
	return nil
}

// pilot passes candidates 0 to n−1 of set k to add, in order; every shard
// draws them whatever its budget.
func (src *shardSource) pilot(ctx context.Context, k, n int, add func(int, candidate)) error {
	if err := src.open(k); err != nil {
		return err
	}
	defer src.close()
	name := src.plan.Pools[k].Name
	for i := range n {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		line, err := src.take(k, i)
		if err != nil {
			return err
		}
		if line == nil {
			return fmt.Errorf("set %s: pilot candidate %d is missing from shard %d", name, i, i%src.count)
		}
		c, err := line.candidate()
		if err != nil {
			return fmt.Errorf("%s: candidate %d: %w", filepath.Join(src.dirs[i%src.count], candFile(name)), i, err)
		}
		add(i, c)
	}
	return nil
}

// take returns candidate i of set k from its shard, or nil if the shard
// did not draw it.
func (src *shardSource) take(k, i int) (*candLine, error) {
	j := i % src.count
	for {
		if src.peeked[j] == nil {
			b, err := src.cursor[j].ReadBytes('\n')
			if errors.Is(err, io.EOF) && len(b) == 0 {
				return nil, nil
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			var line candLine
			if err := json.Unmarshal(b, &line); err != nil {
				return nil, fmt.Errorf("%s: not a candidate line: %w", src.files[j].Name(), err)
			}
			src.peeked[j] = &line
		}
		line := src.peeked[j]
		switch {
		case line.I < i:
			src.peeked[j] = nil // drawn for a stratum that filled before it
		case line.I == i:
			src.peeked[j] = nil
			return line, nil
		default:
			return nil, nil
		}
	}
}

// lineOf returns candidate i as a line of a candidate file; its record is
// normalised.
func (b *builder) lineOf(i int, c candidate) candLine {
	line := candLine{I: i, Exact: hex.EncodeToString(c.exact[:]), Capped: c.capped, Hard: c.hard, Reason: c.lab.Reason, Record: c.lab.Record}
	if b.plan.Dedup == DedupRenaming && c.lab.Record != nil {
		line.Renamed = hex.EncodeToString(c.renamed[:])
	}
	if line.Record != nil {
		line.Record.Normalize()
	}
	return line
}

func (l *candLine) candidate() (candidate, error) {
	c := candidate{capped: l.Capped, hard: l.Hard, lab: Labelled{Record: l.Record, Reason: l.Reason}}
	for _, h := range []struct {
		s   string
		dst *[32]byte
	}{{l.Exact, &c.exact}, {l.Renamed, &c.renamed}} {
		if h.s == "" {
			continue
		}
		b, err := hex.DecodeString(h.s)
		if err != nil || len(b) != 32 {
			return c, fmt.Errorf("key %q is not a hex SHA-256", h.s)
		}
		copy(h.dst[:], b)
	}
	if l.Record == nil && l.Reason == "" {
		return c, errors.New("neither a record nor a reason")
	}
	return c, nil
}

func (src *shardSource) close() {
	for _, f := range src.files {
		f.Close()
	}
	src.files, src.cursor, src.peeked = nil, nil, nil
}

// Merge builds into o.Dir the dataset whose shards are in dirs: the same
// bytes as an unsharded build of their plan.
func Merge(ctx context.Context, dirs []string, o Options) (*Manifest, error) {
	src, first, err := openShards(slices.Clone(dirs))
	if err != nil {
		return nil, err
	}
	o.Command, o.License = first.Command, first.License
	if o.Toolkit == (Toolkit{}) {
		o.Toolkit = first.Toolkit
	}
	return run(ctx, src.plan, o, src)
}
