package generate

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/distract"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/proof"
	"github.com/nlsat/nlsat/internal/solver"
)

// RunOptions are the run-time settings of a run; they do not change its
// output.
type RunOptions struct {
	// Out is the output file ("-" or "" for Stdout).
	Out    string
	Stdout io.Writer
	// Output is the format (if unset, from Out's extension) and fields of
	// the records written. A file in another format than plain JSONL is
	// written as JSONL beside its name, as always, and encoded once
	// complete.
	Output dataset.Output
	// Workers is the number of parallel solvers (0: all cores).
	Workers int
	// NewBackend makes one worker's solver; nil writes unlabelled
	// records.
	NewBackend func() (solver.Backend, error)
	// Every is the time between checkpoints (0: job.DefaultEvery).
	Every time.Duration
	// Progress (optional) is told of every record written, by its class
	// (Task.Class), and of every unit left undecided, as solver.Unknown
	// not counting towards the records written.
	Progress func(class int, advance bool)
	// Log (optional) receives messages about the run (resuming).
	Log func(format string, a ...any)
	// Started (optional) is told how many records an earlier run wrote
	// before this one resumed it (0 for a fresh run).
	Started func(written int)
}

// Summary is what a run did.
type Summary struct {
	// Written is the number of records written (for a shard: decided).
	Written int
	// Stats counts the units drawn, by point and status.
	Stats *Stats
}

// Item is one drawn instance of the sat/unsat task (Instances): its
// point, and its record (seed set, id not yet) or why it stayed
// undecided.
type Item struct {
	Point  [3]int          `json:"point"`
	Reason string          `json:"reason"`
	Record *dataset.Record `json:"record"`
}

// status is the item's answer: Unknown when undecided or unlabelled.
func (it Item) status() solver.Status {
	if it.Record == nil {
		return solver.Unknown
	}
	return dataset.StatusOf(it.Record.Label)
}

// Item draws instance i, adds its distractors if the plan asks for them,
// and decides it with b (nil: leaves it unlabelled).
func (p *Plan) Item(ctx context.Context, b solver.Backend, i int) (Item, error) {
	inst, err := p.Draw(i)
	if err != nil {
		return Item{}, err
	}
	it := Item{Point: pointOf(inst)}
	var v solver.Verdict
	var added []int
	name := ""
	if b != nil {
		name = b.Name()
		if p.Distractors > 0 {
			// The distractors' randomness is a stream of its own, so the
			// instance itself is the one drawn without them.
			rng := rand.New(rand.NewPCG(p.Seed^distract.Stream, uint64(i)))
			mode, _ := distract.ParseMode(p.DistractMode)
			res, err := distract.Add(ctx, rng, b, inst, p.Distractors, mode, p.Params())
			switch {
			case errors.Is(err, solver.ErrUndecided) && solver.IsComplete(b):
				return Item{}, fmt.Errorf("instance %s: distractors: %w", dataset.SeedString(p.Seed, i), err)
			case errors.Is(err, distract.ErrNoDistractor) || errors.Is(err, solver.ErrUndecided):
				it.Reason = solver.GaveUp.String()
				return it, nil
			case err != nil:
				return Item{}, fmt.Errorf("instance %s: distractors: %w", dataset.SeedString(p.Seed, i), err)
			}
			inst, added = res.Instance, res.Added
			it.Point = pointOf(inst)
		}
		if v, err = solver.Decide(ctx, b, inst.Formulas(), solver.DecideOptions{MUS: true}); err != nil {
			return Item{}, fmt.Errorf("instance %s: %w", dataset.SeedString(p.Seed, i), err)
		}
		if v.Status == solver.Unknown {
			if solver.IsComplete(b) {
				// Skipping it would bias the sample (the undecided are not
				// a random part of it): the run fails, naming it.
				return Item{}, fmt.Errorf("instance %s: %s left it undecided (%v: %s)", dataset.SeedString(p.Seed, i), name, v.Reason, v.Detail)
			}
			it.Reason = v.Reason.String()
			return it, nil
		}
	}
	r := dataset.NewRecord(inst, v, name)
	r.Seed = dataset.SeedString(p.Seed, i)
	if p.Distractors > 0 {
		r.Distractors, r.DistractorMode = added, p.DistractMode
	}
	if p.Proofs {
		var pr *proof.Proof
		if r.Label == dataset.LabelUnsat {
			if pr, err = proof.FindWithin(ctx, b, p.Lexicon(), inst.Sentences, r.Certificate.MUS); err != nil {
				return Item{}, fmt.Errorf("instance %s: proof: %w", dataset.SeedString(p.Seed, i), err)
			}
		}
		r.SetProof(pr)
	}
	r.Normalize()
	it.Record = r
	return it, nil
}

// pointOf is the (m, n1, n2) of an instance.
func pointOf(inst fragments.Instance) [3]int {
	return [3]int{len(inst.Sentences), len(inst.Nouns), len(inst.Verbs)}
}

// state is a run's checkpoint.
type state struct {
	Written int         `json:"written"`
	Points  []PointStat `json:"points"`
}

// run is a run or a merge in progress: the task, the plan, the output and
// the counts.
type run struct {
	task    Task
	plan    *Plan
	opt     RunOptions
	enc     *dataset.Encoder
	stdout  *bufio.Writer
	out     io.WriteCloser // the records' encoder on stdout
	store   *job.Store
	stats   *Stats
	written int
	digest  string // the task's of the plan, which every id carries
}

// emit writes unit i's records, numbered in the order written, and stops
// at the plan's count.
func (g *run) emit(_, _ int, u Unit) (bool, error) {
	g.stats.Add(u.Point, u.Status, u.Reason)
	recs, err := u.records(g.task)
	if err != nil {
		return true, err
	}
	if len(recs) == 0 && g.opt.Progress != nil {
		g.opt.Progress(int(solver.Unknown), false)
	}
	for _, r := range recs {
		r.SetID(dataset.FormatID(g.plan.Fragment, g.digest, g.written))
		r.Normalize()
		if err := g.enc.EncodeValue(r); err != nil {
			return true, err
		}
		g.written++
		if g.opt.Progress != nil {
			g.opt.Progress(g.task.Class(r), true)
		}
	}
	return g.written >= g.plan.Count, nil
}

// open prepares the output: stdout, or a file that a later run resumes
// (.NAME.partial, with its checkpoint .NAME.checkpoint.json).
func (g *run) open(digest string) error {
	g.digest = g.task.Digest(g.plan)
	var err error
	if g.opt.Output, err = g.opt.Output.For(g.opt.Out); err != nil {
		return err
	}
	if err := g.task.Check(g.plan, g.opt.Output); err != nil {
		return err
	}
	g.opt.Output.Row = g.task.Row(g.plan)
	if g.opt.Out == "-" || g.opt.Out == "" {
		g.stdout = bufio.NewWriter(g.opt.Stdout)
		g.out, err = dataset.NewWriter(g.stdout, g.opt.Output)
		g.enc = dataset.NewEncoder(g.out)
		return err
	}
	store, err := job.OpenFile(g.opt.Out, digest)
	if err != nil {
		return err
	}
	var st state
	if err := store.State(&st); err != nil {
		store.Close()
		return err
	}
	g.store, g.written = store, st.Written
	g.stats.load(st.Points)
	g.enc = dataset.NewEncoder(store.Part(0))
	if store.Resumed() && g.opt.Log != nil {
		g.opt.Log("resuming %s at instance %d (%d of %d written)", g.opt.Out, store.Position().Next, st.Written, g.plan.Count)
	}
	if g.opt.Started != nil {
		g.opt.Started(st.Written)
	}
	return nil
}

// config is the run's job: one stream of units, until Count records are
// written.
func (g *run) config(shardLimit int) job.Config[solver.Backend, Unit] {
	limit := g.task.Units(g.plan)
	if limit >= 0 {
		shardLimit = limit
	}
	return job.Config[solver.Backend, Unit]{
		Streams: []job.Stream{{Name: "units", Limit: limit, ShardLimit: shardLimit}},
		Workers: g.opt.Workers,
		New: func() (solver.Backend, error) {
			if g.opt.NewBackend == nil {
				return nil, nil
			}
			return g.opt.NewBackend()
		},
		Close: solver.Close,
		Do: func(ctx context.Context, b solver.Backend, _, i int) (Unit, error) {
			return g.task.Unit(ctx, g.plan, b, i)
		},
		Emit:  g.emit,
		Store: g.store,
		Every: g.opt.Every,
		State: func() any { return state{Written: g.written, Points: g.stats.export()} },
	}
}

// finish commits the output.
func (g *run) finish() error {
	if g.store == nil {
		if err := g.out.Close(); err != nil {
			return err
		}
		return g.stdout.Flush()
	}
	return g.store.CommitFile(g.opt.Out, g.opt.Output)
}

// Run writes the plan's Count records of task t to o.Out, resuming an
// unfinished run of the same task and plan found there. A file that a
// finished run of the same task, plan and output format wrote, intact, is
// left as it is: Run returns job.ErrDone.
func Run(ctx context.Context, t Task, p *Plan, o RunOptions) (Summary, error) {
	toFile := o.Out != "-" && o.Out != ""
	var done string
	if toFile {
		out, err := o.Output.For(o.Out)
		if err != nil {
			return Summary{}, err
		}
		done = t.Digest(p) + out.Args()
		if job.IsDone(job.DoneFile(o.Out), done) {
			return Summary{Written: p.Count}, job.ErrDone
		}
	}
	g := &run{task: t, plan: p, opt: o, stats: NewStats()}
	if err := g.open(t.Digest(p)); err != nil {
		return Summary{}, err
	}
	defer g.close()
	var err error
	if g.written < p.Count {
		err = job.Run(ctx, g.config(0))
	}
	if err == nil {
		err = g.finish()
	}
	if err == nil && toFile {
		err = job.WriteDone(job.DoneFile(o.Out), done, []string{filepath.Base(o.Out)})
	}
	return Summary{Written: g.written, Stats: g.stats}, err
}

// close releases the output; what went to stdout is flushed whatever
// happened, a file's checkpoint is kept for the next run.
func (g *run) close() {
	if g.store != nil {
		g.store.Close()
	}
	if g.stdout != nil {
		g.stdout.Flush()
	}
}

// Kind is the kind of job in a generate shard's manifest.
const Kind = "generate"

// ShardOptions say which shard to run, and where.
type ShardOptions struct {
	Slot job.Slot
	// Oversample sizes the shards' work for a task that stops at Count
	// records: they decide the units below Count × Oversample.
	Oversample float64
	Dir        string
	Force      bool
	Manifest   job.Manifest // toolkit and command for the manifest
	// Task is the task's name, for the manifest: merge runs the task
	// it names.
	Task string
}

// RunShard decides shard s.Slot's units of task t, i ≡ index (mod count)
// below the task's number of units or, for a task that stops at Count
// records, Count × Oversample, into s.Dir. It returns job.ErrDone if the
// shard is there already.
func RunShard(ctx context.Context, t Task, p *Plan, s ShardOptions, o RunOptions) (Summary, error) {
	g := &run{task: t, plan: p, opt: o, stats: NewStats()}
	if err := t.Check(p, dataset.Output{}); err != nil {
		return Summary{}, err
	}
	c := g.config(shardLimit(p.Count, s.Oversample))
	c.Progress = func(_, _, _ int, u Unit) {
		g.stats.Add(u.Point, u.Status, u.Reason)
		g.written += len(u.Records)
		if o.Progress == nil {
			return
		}
		if len(u.Records) == 0 {
			o.Progress(int(solver.Unknown), true)
		}
		for _, r := range u.Records {
			o.Progress(t.Class(r), true)
		}
	}
	plan, _ := json.Marshal(p)
	m := s.Manifest
	m.Kind, m.Task, m.Digest, m.Plan, m.Index, m.Count, m.Oversample = Kind, s.Task, t.Digest(p), plan, s.Slot.Index, s.Slot.Count, s.Oversample
	_, err := job.RunShard(ctx, c, s.Dir, m, s.Force)
	return Summary{Written: g.written, Stats: g.stats}, err
}

// shardLimit is the number of units the shards of a run decide, for a
// task that stops at Count records.
func shardLimit(count int, oversample float64) int {
	return int(math.Ceil(float64(count) * oversample))
}

// Merge writes to o.Out the first Count records of the shards of task t,
// in index order and numbered as one run numbers them: the bytes of an
// unsharded run of their plan.
func Merge(ctx context.Context, t Task, src *job.Shards, o RunOptions) (Summary, error) {
	var p Plan
	if err := json.Unmarshal(src.Manifest.Plan, &p); err != nil || t.Digest(&p) != src.Manifest.Digest {
		return Summary{}, fmt.Errorf("%s: its plan does not match its digest", filepath.Join(src.Dirs[0], job.ManifestFile))
	}
	// The shards decided the units; the merge only writes them.
	o.NewBackend = nil
	g := &run{task: t, plan: &p, opt: o, stats: NewStats()}
	if err := g.open(t.Digest(&p) + "/merge"); err != nil {
		return Summary{}, err
	}
	defer g.close()
	limit := shardLimit(p.Count, src.Manifest.Oversample)
	if n := t.Units(&p); n >= 0 {
		limit = n
	}
	c := g.config(limit)
	c.Source = src
	c.Missing = func(_, i int) (Unit, error) {
		if i < limit {
			return Unit{}, fmt.Errorf("unit %d is missing from shard %s: it is not a generate shard's", i, src.Dirs[i%len(src.Dirs)])
		}
		return Unit{}, fmt.Errorf("the shards decided only %d of the %d records asked for (%d undecided among the first %d units); run them again with a higher --oversample",
			g.written, p.Count, g.stats.Undecided(), limit)
	}
	var err error
	if g.written < p.Count {
		err = job.Run(ctx, c)
	}
	if err == nil {
		err = g.finish()
	}
	return Summary{Written: g.written, Stats: g.stats}, err
}
