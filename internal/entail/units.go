package entail

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"

	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/split/units"
)

// TaskName is the entailment task's name.
const TaskName = "entailment"

// Streams xored into the master seed of a build, beside Stream: the
// candidates' draws, the assignment of a stratum's triples to splits, and
// the order of each split's records.
const (
	BuildStream  = 0x656e7462756964 // "entbuid"
	assignStream = 0x656e7461736e67 // "entasng"
	orderStream  = 0x656e746f726472 // "entordr"
)

// Split is the entailment task as the balanced build of package units
// runs it: a unit is a triple, three records on one consistent premise
// set, one per label, identified by its premises.
var Split units.Task = unitTask{}

// unitTask draws triples, by the balance of each fragment once Fit has
// fitted its model to the pilot and Refine its residual stage to the
// residual pilot (see balance.go).
type unitTask struct {
	balance map[string]*balancer
}

func (unitTask) PilotUnits(n int) int { return pilotUnits(n) }

func (unitTask) Fit(pilot [][]units.Record) (units.Task, error) {
	t := unitTask{balance: map[string]*balancer{}}
	for f, m := range fitBalance(pilot) {
		t.balance[f] = &balancer{first: m}
	}
	return t, nil
}

// Refine fits each fragment's residual stage to the residual pilot,
// which t drew. A fragment with too few triples in it keeps the first
// model alone.
func (t unitTask) Refine(residual [][]units.Record) (units.Task, error) {
	stage := fitBalance(residual)
	out := unitTask{balance: map[string]*balancer{}}
	for f, b := range t.balance {
		out.balance[f] = &balancer{first: b.first, residual: stage[f]}
	}
	return out, nil
}

func (unitTask) Name() string                          { return TaskName }
func (unitTask) Unit() string                          { return "triple" }
func (unitTask) Classes() []string                     { return entailrec.LabelNames[:] }
func (unitTask) RecordSchema() string                  { return SchemaVersion }
func (unitTask) Row() reflect.Type                     { return entailrec.Row }
func (unitTask) Streams() (draw, assign, order uint64) { return BuildStream, assignStream, orderStream }
func (unitTask) NewRecord() units.Record               { return new(Record) }
func (unitTask) Card(m *units.Manifest) string         { return Card(m) }

// Draw draws a premise set at pt and hypotheses for it (Drawer.Triple),
// and returns the triple's records in a seeded order and its premises.
func (t unitTask) Draw(ctx context.Context, b solver.Backend, f fragments.Fragment, params fragments.Params, lx *fragments.Lexicon,
	pt phase.Point, rng *rand.Rand, seed string) ([]units.Record, fragments.Instance, error) {
	d := NewDrawer(f, params)
	if b := t.balance[f.String()]; b != nil {
		d.Bin = b.bin
	}
	first, err := fragments.Sample(rng, d.Fragment, d.Params, pt.M, pt.N1, pt.N2)
	if err != nil {
		return nil, fragments.Instance{}, err
	}
	ps, err := d.Triple(ctx, b, rng, first)
	switch {
	case errors.Is(err, ErrNoTriple):
		return nil, fragments.Instance{}, fmt.Errorf("%w: %w", units.ErrNoUnit, err)
	case err != nil:
		return nil, fragments.Instance{}, err
	}
	recs := make([]units.Record, 3)
	for k, j := range rng.Perm(3) {
		recs[k] = NewRecord(lx, ps[j], b.Name(), seed)
	}
	return recs, ps[0].Premises, nil
}

func (unitTask) Describe(r units.Record) (int, string, phase.Point) {
	e := r.(*Record)
	return e.Label, e.Fragment, phase.Point{M: e.M, N1: e.N1, N2: e.N2}
}
