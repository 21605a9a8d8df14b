package units

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/solver"
)

// Task is what a build needs of a task whose units hold one record per
// class.
type Task interface {
	// Name is the task's name: the plan's task, and the shards' kind.
	Name() string
	// Unit is what the task calls a unit ("triple"), in the manifest's
	// keys and in messages.
	Unit() string
	// Classes names the classes, by label; a unit holds one record of
	// each.
	Classes() []string
	// RecordSchema names the layout of the task's records, and Row is
	// the struct type of their Parquet rows.
	RecordSchema() string
	Row() reflect.Type
	// Streams are xored into the build's seed: for the candidates'
	// draws, the assignment of a stratum's units to the splits, and the
	// order of each split's records.
	Streams() (draw, assign, order uint64)
	// Draw draws a unit at point pt of fragment f with rng and decides
	// it with b: its records, one per class in the order they are kept,
	// and the instance that identifies the unit (two units whose
	// instances are equal up to renaming and order are duplicates). seed
	// is what the records keep of where they were drawn. An error
	// wrapping ErrNoUnit says that the point gave no unit within the
	// task's bounds.
	Draw(ctx context.Context, b solver.Backend, f fragments.Fragment, params fragments.Params, lx *fragments.Lexicon,
		pt phase.Point, rng *rand.Rand, seed string) ([]Record, fragments.Instance, error)
	// NewRecord returns an empty record, to read a stored unit into.
	NewRecord() Record
	// Describe says where record r belongs: its class, its fragment and
	// its stratum's point.
	Describe(r Record) (class int, fragment string, pt phase.Point)
	// Card renders the dataset card of a build.
	Card(m *Manifest) string
}

// Record is a task's record as a build writes it: a struct whose JSON
// form is its line, numbered by the build.
type Record interface {
	SetID(id string)
	Normalize()
}

// ErrNoUnit is wrapped by Task.Draw's error when a point gave no unit.
var ErrNoUnit = errors.New("no unit")
