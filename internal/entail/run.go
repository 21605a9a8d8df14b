package entail

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"reflect"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/solver"
)

// Stream is xored into the master seed for the randomness of triple t
// beyond its first premise set (hypotheses, further premise sets), so
// that the first premise set is generate's instance t.
const Stream = 0x656e7461696c // "entail"

// Triples is the entailment task as generate's run draws it: unit t is
// triple t, three records on one premise set, one per label. It starts
// from the plan's instance t and draws with (seed ⊕ Stream, t) alone, so
// the output is the same for any number of workers or shards, and a run
// interrupted and started again resumes where it stopped. Within a
// triple the three labels come in a seeded order. Ids carry the digest of
// the plan and this task. The plan's Count must be a multiple of 3.
var Triples generate.Task = triples{}

type triples struct{}

func (triples) Check(p *generate.Plan, out dataset.Output) error {
	switch {
	case p.Count%3 != 0:
		return inputerr.Errorf("--count %d: entailment records come in triples, one per label; give a multiple of 3", p.Count)
	case p.Solver == "none":
		return inputerr.Errorf("the entailment task needs a solver; drop --solver none")
	case out.Minimal:
		return inputerr.Errorf("the entailment task has no minimal layout; drop --fields minimal")
	case p.Distractors > 0 || p.Proofs:
		return inputerr.Errorf("the entailment task adds no distractors and writes no proofs")
	}
	return nil
}

func (triples) Digest(p *generate.Plan) string { return runDigest(p) }

func (triples) Units(p *generate.Plan) int { return p.Count / 3 }

func (triples) Row(*generate.Plan) reflect.Type { return entailrec.Row }

func (triples) Unit(ctx context.Context, p *generate.Plan, b solver.Backend, t int) (generate.Unit, error) {
	tr, err := triple(ctx, p, b, t)
	if err != nil {
		return generate.Unit{}, err
	}
	// Status is that of the premises, which are satisfiable.
	u := generate.Unit{Point: [3]int{tr.Records[0].M, tr.Records[0].N1, tr.Records[0].N2}, Status: solver.Sat}
	for _, r := range tr.Records {
		u.Records = append(u.Records, r)
	}
	return u, nil
}

func (triples) Class(r generate.Record) int { return r.(*Record).Label }

func (triples) NewRecord() generate.Record { return new(Record) }

// Triple is one triple's three records, ids not yet set.
type Triple struct {
	Records [3]*Record `json:"records"`
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
