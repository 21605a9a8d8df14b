package entail

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/solver"
)

// Stream is xored into the master seed for the randomness of triple t
// beyond its first premise set (hypotheses, further premise sets), so
// that the first premise set is generate's instance t.
const Stream = 0x656e7461696c // "entail"

// RunOptions are the run-time settings of Run; they do not change its
// output.
type RunOptions struct {
	// Out is the output file ("-" or "" for Stdout), written atomically;
	// an interrupted run of the same plan there is resumed.
	Out    string
	Stdout io.Writer
	// Output is the format (if unset, from Out's extension); its Row is
	// set to entailrec.Row.
	Output     dataset.Output
	Workers    int
	NewBackend func() (solver.Backend, error)
	// Every is the time between checkpoints (0: job.DefaultEvery).
	Every time.Duration
	// Progress (optional) is told of every record written, by its
	// label.
	Progress func(label int)
	// Log (optional) receives messages about the run (resuming), and
	// Started how many records an earlier run wrote before this one
	// resumed it.
	Log     func(format string, a ...any)
	Started func(written int)
}

// Triple is one item of a run: a triple's three records, ids not yet
// set.
type Triple struct {
	Records [3]*Record `json:"records"`
}

// runState is a run's checkpoint.
type runState struct {
	Written int `json:"written"`
}

// Run writes plan.Count entailment records, plan.Count/3 triples (Count
// must be a multiple of 3), as a job of package job: triple t is item t
// of its one stream, starts from the plan's instance t and draws with
// (seed ⊕ Stream, t) alone, so the output is the same for any number of
// workers, and a run interrupted and started again resumes where it
// stopped. Within a triple the three labels come in a seeded order. Ids
// are the fragment, the digest of the plan and this task, and the
// record's number. Errors about the options are inputerr.Errors.
func Run(ctx context.Context, plan *generate.Plan, o RunOptions) error {
	switch {
	case plan.Count%3 != 0:
		return inputerr.Errorf("--count %d: entailment records come in triples, one per label; give a multiple of 3", plan.Count)
	case o.NewBackend == nil:
		return inputerr.Errorf("the entailment task needs a solver; drop --solver none")
	case o.Output.Minimal:
		return inputerr.Errorf("the entailment task has no minimal layout; drop --fields minimal")
	}
	var err error
	if o.Output, err = o.Output.For(o.Out); err != nil {
		return err
	}
	o.Output.Row = entailrec.Row
	digest := runDigest(plan)
	written := 0
	var w io.Writer
	var store *job.Store
	closeOut := func() error { return nil }
	if o.Out == "" || o.Out == "-" {
		bw := bufio.NewWriter(o.Stdout)
		defer bw.Flush()
		rw, err := dataset.NewWriter(bw, o.Output)
		if err != nil {
			return err
		}
		closeOut = rw.Close
		w = rw
	} else {
		if store, err = job.OpenFile(o.Out, digest); err != nil {
			return err
		}
		defer store.Close()
		var st runState
		if err := store.State(&st); err != nil {
			return err
		}
		written, w = st.Written, store.Part(0)
		if store.Resumed() && o.Log != nil {
			o.Log("resuming %s at triple %d (%d of %d written)", o.Out, store.Position().Next, written, plan.Count)
		}
	}
	if o.Started != nil {
		o.Started(written)
	}
	enc := entailrec.NewEncoder(w)
	err = job.Run(ctx, job.Config[solver.Backend, Triple]{
		Streams: []job.Stream{{Name: "triples", Limit: plan.Count / 3, ShardLimit: plan.Count / 3}},
		Workers: o.Workers, New: o.NewBackend, Close: solver.Close,
		Do: func(ctx context.Context, b solver.Backend, _, t int) (Triple, error) {
			return triple(ctx, plan, b, t)
		},
		Emit: func(_, _ int, tr Triple) (bool, error) {
			for _, r := range tr.Records {
				r.ID = dataset.FormatID(plan.Fragment, digest, written)
				written++
				if err := enc.Encode(r); err != nil {
					return true, err
				}
				if o.Progress != nil {
					o.Progress(r.Label)
				}
			}
			return false, nil
		},
		Store: store, Every: o.Every,
		State: func() any { return runState{Written: written} },
	})
	switch {
	case err != nil:
		return err
	case store != nil:
		return store.CommitFile(o.Out, o.Output)
	}
	return closeOut()
}

// runDigest is the digest of a run of plan: the plan's and the task's,
// which every id carries.
func runDigest(plan *generate.Plan) string {
	sum := sha256.Sum256([]byte(plan.Digest() + "\x00task=entailment"))
	return hex.EncodeToString(sum[:])
}

// triple draws and labels triple t of plan with b.
func triple(ctx context.Context, plan *generate.Plan, b solver.Backend, t int) (Triple, error) {
	first, err := plan.Draw(t)
	if err != nil {
		return Triple{}, err
	}
	rng := rand.New(rand.NewPCG(plan.Seed^Stream, uint64(t)))
	ps, err := NewDrawer(plan.Frag(), plan.Params()).Triple(ctx, b, rng, first)
	if err != nil {
		return Triple{}, fmt.Errorf("triple %s: %w", dataset.SeedString(plan.Seed, t), err)
	}
	var out Triple
	for i, k := range rng.Perm(3) {
		out.Records[i] = NewRecord(plan.Lexicon(), ps[k], b.Name(), dataset.SeedString(plan.Seed, t))
	}
	return out, nil
}
