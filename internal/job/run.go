package job

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nlsat/nlsat/internal/pipeline"
)

// Stream is one indexed sequence of items of a job.
type Stream struct {
	// Name names the stream's file in a shard directory (NAME.jsonl.gz).
	Name string
	// Start is the stream's first index.
	Start int
	// Limit ends the stream before index Limit; with a negative Limit the
	// stream runs until Emit stops it.
	Limit int
	// ShardLimit bounds the indices a shard computes: those below it
	// (and at least Start) that Drawn allows (nil allows all). A merge
	// finds no item at or above it.
	ShardLimit int
	Drawn      func(i int) bool
	// Restart says that the stream cannot resume in its middle (its
	// consumer keeps what it has seen in memory): an interrupted run
	// starts it again from Start.
	Restart bool
}

// Config is a job: its streams, how a worker computes an item, and what
// is done with each. W is a worker's private state (a solver); R is an
// item, which must marshal to JSON for shards.
type Config[W, R any] struct {
	Streams []Stream
	// Workers is the number of parallel workers (0 or less: all cores).
	Workers int
	// New creates one worker's state; Close (optional) releases it.
	New   func() (W, error)
	Close func(W)
	// Do computes item i of stream k.
	Do func(ctx context.Context, w W, k, i int) (R, error)
	// Emit consumes item i of stream k, in index order; it returns stop
	// to end the stream.
	Emit func(k, i int, r R) (stop bool, err error)
	// Missing, in a merge, gives the item that no shard holds (i at or
	// above ShardLimit, or not Drawn); nil makes that an error.
	Missing func(k, i int) (R, error)
	// End (optional) is called once stream k has ended and every call
	// of Do for it has returned, before the checkpoint moves past it.
	End func(k int) error
	// Store, if set, is saved every Every (0: DefaultEvery; negative:
	// after every item), after each stream and when the run fails; a run
	// resumes from its position.
	Store *Store
	Every time.Duration
	// State (optional) returns the job's state for the checkpoint.
	State func() any
	// Source, if set, supplies the items from the shards of a run
	// (a merge) instead of computing them.
	Source *Shards
	// Progress (optional) is called after every item a shard computes,
	// with the stream, the items done and the stream's total.
	Progress func(k, done, total int, r R)
	// Ready (optional), in a shard, is asked before stream k begins
	// whether its items can be computed yet: a stream whose items need
	// what a merge learns from the streams before it (a model fitted to
	// them) is not ready until the merge has handed that over. A shard
	// stops at the first stream that is not ready and waits (ErrWaiting).
	Ready func(k int) (bool, error)
	// Take (optional), in a shard, is handed every item the shard
	// computes, in index order, and says whether to write it: a shard
	// that has enough of some kind of item (a stratum's) stops writing
	// them, and its Do may then skip computing them. Whatever Take
	// decides from must be in State, which a shard saves with its
	// checkpoint and gives back to Load when it resumes.
	Take func(k, i int, r R) bool
	// Load (optional), in a shard that resumes, reads the state State
	// saved into the job.
	Load func(state func(v any) error) error
	// Spent (optional), in a shard, says whether the merge is done with
	// stream k: it has read the stream and checkpointed what it made of
	// it (a model fitted to it), so that no merge of this run reads it
	// again. Before each stream it draws, a shard removes the file of
	// every spent stream it has drawn, and its manifest marks the stream
	// spent (FileReport.Spent). It is asked after Ready.
	Spent func(k int) bool
}

// ErrWaiting is returned by RunShard when the shard stops at a stream
// that is not ready (Config.Ready), and by a merge's Run when it reaches
// a stream that not every shard has drawn yet. Neither is a failure:
// the shard has published the streams before it, and the merge has
// checkpointed everything up to it; after the merge has run over them,
// the shards go on from where they stopped, and then the merge.
var ErrWaiting = errors.New("waiting: the shards and the merge take turns")

// DefaultEvery is the time between checkpoints unless Config.Every says.
const DefaultEvery = 2 * time.Second

// Run runs the job: stream after stream, from the Store's position, every
// item computed by Do (or read from Source) and handed to Emit in index
// order. It returns the first error of Do, Emit, End, the Store, or ctx.
func Run[W, R any](ctx context.Context, c Config[W, R]) error {
	r := &runner[W, R]{Config: c}
	if c.Store != nil {
		r.pos = c.Store.Position()
	}
	if r.Every == 0 {
		r.Every = DefaultEvery
	}
	r.last = time.Now()
	for k := r.pos.Stream; k < len(c.Streams); k++ {
		st := c.Streams[k]
		start := st.Start
		if k == r.pos.Stream && !st.Restart {
			start = max(start, r.pos.Next)
		}
		r.pos = Position{Stream: k, Next: start}
		if r.Source != nil && k >= r.Source.Through && (st.Limit < 0 || start < st.Limit) {
			// The shards have not drawn this stream yet.
			r.pos.Next = st.Start
			return withSave(ErrWaiting, r.save())
		}
		err := r.stream(ctx, k, start)
		if err == nil {
			err = ctx.Err()
		}
		if err == nil && c.End != nil {
			err = c.End(k)
		}
		if err != nil {
			if st.Restart {
				r.pos.Next = st.Start
			}
			return withSave(err, r.save())
		}
		r.pos = Position{Stream: k + 1}
		if err := r.save(); err != nil {
			return err
		}
	}
	return nil
}

// runner is a Run in progress.
type runner[W, R any] struct {
	Config[W, R]
	pos  Position
	last time.Time
}

func (r *runner[W, R]) save() error {
	if r.Store == nil {
		return nil
	}
	var state any
	if r.State != nil {
		state = r.State()
	}
	r.last = time.Now()
	return r.Store.Save(r.pos, state)
}

// emit hands item i on and checkpoints when it is time.
func (r *runner[W, R]) emit(k, i int, item R) (bool, error) {
	stop, err := r.Emit(k, i, item)
	if err != nil {
		return true, err
	}
	r.pos.Next = i + 1
	if !r.Streams[k].Restart && time.Since(r.last) >= r.Every {
		return stop, r.save()
	}
	return stop, nil
}

// stream runs stream k from index start.
func (r *runner[W, R]) stream(ctx context.Context, k, start int) error {
	st := r.Streams[k]
	if r.Source != nil {
		return r.read(ctx, k, start)
	}
	limit := -1
	if st.Limit >= 0 {
		limit = max(0, st.Limit-start)
	}
	return pipeline.Run(ctx, pipeline.Config[W, R]{
		Workers: r.Workers, Limit: limit, New: r.New, Close: r.Close,
		Do:   func(ctx context.Context, w W, j int) (R, error) { return r.Do(ctx, w, k, start+j) },
		Emit: func(j int, item R) (bool, error) { return r.emit(k, start+j, item) },
	})
}

// read feeds stream k from index start with the items of the shards.
func (r *runner[W, R]) read(ctx context.Context, k, start int) error {
	st := r.Streams[k]
	if err := r.Source.open(st.Name); err != nil {
		return err
	}
	defer r.Source.close()
	for i := start; st.Limit < 0 || i < st.Limit; i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var item R
		found := false
		if i < st.ShardLimit && (st.Drawn == nil || st.Drawn(i)) {
			var err error
			if found, err = r.Source.take(i, &item); err != nil {
				return err
			}
		}
		if !found {
			if r.Missing == nil {
				return fmt.Errorf("stream %s: no shard holds item %d", st.Name, i)
			}
			var err error
			if item, err = r.Missing(k, i); err != nil {
				return err
			}
		}
		if stop, err := r.emit(k, i, item); stop || err != nil {
			return err
		}
	}
	return nil
}
