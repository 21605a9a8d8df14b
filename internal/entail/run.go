package entail

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/solver"
)

// Stream is xored into the master seed for the randomness of triple t
// beyond its first premise set (hypotheses, further premise sets), so
// that the first premise set is generate's instance t.
const Stream = 0x656e7461696c // "entail"

// RunOptions are the run-time settings of Run; they do not change its
// output.
type RunOptions struct {
	// Out is the output file ("-" or "" for Stdout), written atomically.
	Out    string
	Stdout io.Writer
	// Output is the format (if unset, from Out's extension); its Row is
	// set to Row.
	Output     dataset.Output
	Workers    int
	NewBackend func() (solver.Backend, error)
	// Progress (optional) is told of every record written.
	Progress func(st solver.Status, advance bool)
}

// Run writes plan.Count entailment records, plan.Count/3 triples (Count
// must be a multiple of 3): triple t starts from the plan's instance t
// and draws with (seed ⊕ Stream, t) alone, so the output is the same for
// any number of workers. Within a triple the three labels come in a
// seeded order. Ids are the fragment, the digest of the plan and this
// task, and the record's number. Errors about the options are
// dataset.InputErrors.
func Run(ctx context.Context, plan *generate.Plan, o RunOptions) error {
	switch {
	case plan.Count%3 != 0:
		return dataset.InputErrorf("--count %d: entailment records come in triples, one per label; give a multiple of 3", plan.Count)
	case o.NewBackend == nil:
		return dataset.InputErrorf("the entailment task needs a solver; drop --solver none")
	case o.Output.Minimal:
		return dataset.InputErrorf("the entailment task has no minimal layout; drop --fields minimal")
	}
	o.Output.Row = Row
	f, err := dataset.CreateRecords(o.Out, o.Stdout, o.Output)
	if err != nil {
		return err
	}
	defer f.Abort()
	sum := sha256.Sum256([]byte(plan.Digest() + "\x00task=entailment"))
	digest := hex.EncodeToString(sum[:])
	enc, n := NewEncoder(f), 0
	err = pipeline.Run(ctx, pipeline.Config[solver.Backend, [3]*Record]{
		Workers: o.Workers, Limit: plan.Count / 3, New: o.NewBackend, Close: solver.Close,
		Do: func(ctx context.Context, b solver.Backend, t int) ([3]*Record, error) {
			return triple(ctx, plan, b, t)
		},
		Emit: func(_ int, rs [3]*Record) (bool, error) {
			for _, r := range rs {
				r.ID = dataset.FormatID(plan.Fragment, digest, n)
				n++
				if err := enc.Encode(r); err != nil {
					return true, err
				}
				if o.Progress != nil {
					o.Progress(solver.Sat, true)
				}
			}
			return false, nil
		},
	})
	if err = cmp.Or(err, ctx.Err()); err != nil {
		return err
	}
	return f.Commit()
}

// triple draws and labels triple t of plan with b.
func triple(ctx context.Context, plan *generate.Plan, b solver.Backend, t int) ([3]*Record, error) {
	first, err := plan.Draw(t)
	if err != nil {
		return [3]*Record{}, err
	}
	rng := rand.New(rand.NewPCG(plan.Seed^Stream, uint64(t)))
	ps, err := NewDrawer(plan.Frag(), plan.Params()).Triple(ctx, b, rng, first)
	if err != nil {
		return [3]*Record{}, fmt.Errorf("triple %s: %w", dataset.SeedString(plan.Seed, t), err)
	}
	var out [3]*Record
	for i, k := range rng.Perm(3) {
		out[i] = NewRecord(plan.Lexicon(), ps[k], b.Name(), dataset.SeedString(plan.Seed, t))
	}
	return out, nil
}
