package generate

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/solver"
)

// Task is what the run of this package needs of a task: how it draws and
// decides the unit at an index of a plan's stream, and how its records
// are written. The run itself (workers in index order, checkpoints and
// resume, shards and their merge, numbering and writing records) is the
// same for every task. Instances is the sat/unsat task's; a task's own
// package provides another.
type Task interface {
	// Check refuses a plan (its Solver "none" when nothing decides the
	// units) or a format and layout of the records that the task cannot
	// run. Its errors are the user's (inputerr).
	Check(p *Plan, out dataset.Output) error
	// Digest identifies a run of p: every id carries it and a
	// checkpoint is kept under it.
	Digest(p *Plan) string
	// Units is the number of units the stream holds, or -1 when the run
	// stops once p.Count records are written.
	Units(p *Plan) int
	// Row is the struct type of the Parquet rows of p's records.
	Row(p *Plan) reflect.Type
	// Unit draws unit i of p and decides it with b (nil: unlabelled). A
	// unit that cannot be decided has no records, and says why.
	Unit(ctx context.Context, p *Plan, b solver.Backend, i int) (Unit, error)
	// Class is what the progress counts r as: an index of the task's
	// class names, or a solver.Status for a task that has none.
	Class(r Record) int
	// NewRecord returns an empty record, to read a shard's lines into.
	NewRecord() Record
}

// Record is a task's record as a run writes it: a struct whose JSON form
// is its line, numbered by the run.
type Record interface {
	SetID(id string)
	Normalize()
}

// Unit is what one index of a run's stream yields: where it was drawn
// (its m, n1, n2), how it was decided (Unknown, with Reason, when it
// was not), and the records it adds, in the order they are written.
type Unit struct {
	Point   [3]int
	Status  solver.Status
	Reason  string
	Records []Record
	// raw holds the records of a unit read back from a shard, until the
	// run decodes them with its task's NewRecord.
	raw []json.RawMessage
}

// unitLine is a unit as a shard writes it.
type unitLine struct {
	Point   [3]int            `json:"point"`
	Status  solver.Status     `json:"status"`
	Reason  string            `json:"reason"`
	Records []json.RawMessage `json:"records"`
}

// MarshalJSON writes the unit with its records normalised, HTML left
// alone as in the output files.
func (u Unit) MarshalJSON() ([]byte, error) {
	l := unitLine{Point: u.Point, Status: u.Status, Reason: u.Reason, Records: []json.RawMessage{}}
	for _, r := range u.Records {
		r.Normalize()
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			return nil, err
		}
		l.Records = append(l.Records, bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	}
	return json.Marshal(l)
}

// UnmarshalJSON reads a unit as MarshalJSON writes it; its records stay
// undecoded until records is called.
func (u *Unit) UnmarshalJSON(data []byte) error {
	var l unitLine
	if err := json.Unmarshal(data, &l); err != nil {
		return err
	}
	*u = Unit{Point: l.Point, Status: l.Status, Reason: l.Reason, raw: l.Records}
	return nil
}

// records returns the unit's records, decoding those read from a shard
// with t.
func (u *Unit) records(t Task) ([]Record, error) {
	if u.raw == nil {
		return u.Records, nil
	}
	u.Records = make([]Record, len(u.raw))
	for k, b := range u.raw {
		r := t.NewRecord()
		if err := json.Unmarshal(b, r); err != nil {
			return nil, err
		}
		u.Records[k] = r
	}
	u.raw = nil
	return u.Records, nil
}

// Instances is the sat/unsat task: unit i is the plan's instance i (with
// its distractors and proof if the plan asks for them), one record when
// decided or unlabelled, none when undecided.
var Instances Task = instances{}

type instances struct{}

func (instances) Check(*Plan, dataset.Output) error { return nil }

func (instances) Digest(p *Plan) string { return p.Digest() }

func (instances) Units(*Plan) int { return -1 }

func (instances) Row(p *Plan) reflect.Type {
	if p.Proofs {
		return dataset.ProofRow
	}
	return nil
}

func (instances) Unit(ctx context.Context, p *Plan, b solver.Backend, i int) (Unit, error) {
	it, err := p.Item(ctx, b, i)
	if err != nil {
		return Unit{}, err
	}
	u := Unit{Point: it.Point, Status: it.status(), Reason: it.Reason}
	if it.Record != nil {
		u.Records = []Record{it.Record}
	}
	return u, nil
}

func (instances) Class(r Record) int { return int(dataset.StatusOf(r.(*dataset.Record).Label)) }

func (instances) NewRecord() Record { return new(dataset.Record) }
