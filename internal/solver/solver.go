package solver

import (
	"context"
	"fmt"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
)

// Status is a three-valued answer. The zero value is Unknown.
type Status int8

// The answers a backend can give.
const (
	Unknown Status = iota
	Sat
	Unsat
)

// String returns "unknown", "sat" or "unsat".
func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	default:
		return "unknown"
	}
}

// Reason says why a result is Unknown.
type Reason int8

// Reasons for an Unknown result.
const (
	NoReason      Reason = iota // the result is Sat or Unsat
	Timeout                     // the wall-clock limit ran out
	ResourceLimit               // the deterministic resource limit ran out
	GaveUp                      // the solver answered unknown for another reason (incompleteness)
	Canceled                    // the context was canceled
)

// String returns a short lower-case name for the reason.
func (r Reason) String() string {
	switch r {
	case Timeout:
		return "timeout"
	case ResourceLimit:
		return "resource-limit"
	case GaveUp:
		return "gave-up"
	case Canceled:
		return "canceled"
	default:
		return ""
	}
}

// Problem is a set of closed first-order sentences to decide.
type Problem struct {
	// Sentences are the formulas, one per sentence of the instance.
	Sentences []fol.Formula
	// Timeout bounds the wall-clock time of one Solve; zero means the
	// backend's default.
	Timeout time.Duration
}

// Result is a backend's answer with its certificate.
type Result struct {
	Status Status
	// Reason is set when Status is Unknown.
	Reason Reason
	// Detail is the solver's own words for an Unknown, if it gave any.
	Detail string
	// Model is a checked model when Status is Sat.
	Model *fol.Structure
	// Core holds indices into Problem.Sentences of an unsatisfiable subset
	// when Status is Unsat, in increasing order.
	Core []int
	// Elapsed is the wall-clock time the backend spent.
	Elapsed time.Duration
	// Stats are solver statistics by name (backend specific).
	Stats map[string]float64
}

// Backend is a decision procedure.
type Backend interface {
	// Name returns the backend's name and version, e.g. "z3-4.8.12".
	Name() string
	// Solve decides p. It returns an error only when p cannot be posed or
	// a certificate fails its check.
	Solve(ctx context.Context, p *Problem) (Result, error)
}

// Resetter is implemented by backends whose answers, models or cores can
// depend on the problems they solved before. Reset forgets that history;
// callers reset before each instance so that output does not depend on
// how instances are spread over workers.
type Resetter interface {
	Reset() error
}

// Reset resets b if it is a Resetter, and does nothing otherwise.
func Reset(b Backend) error {
	if r, ok := b.(Resetter); ok {
		return r.Reset()
	}
	return nil
}

// CheckModel reports an error unless m makes every sentence of p true.
func CheckModel(p *Problem, m *fol.Structure) error {
	if m == nil {
		return fmt.Errorf("no model")
	}
	if m.Size < 1 {
		return fmt.Errorf("model has an empty domain")
	}
	i, err := fol.EvalAll(p.Sentences, m)
	switch {
	case err != nil && i < 0:
		return fmt.Errorf("model: %w", err)
	case err != nil:
		return fmt.Errorf("sentence %d: %w", i+1, err)
	case i >= 0:
		return fmt.Errorf("model does not satisfy sentence %d", i+1)
	}
	return nil
}

// Close releases b's resources if it holds any (a Z3 context).
func Close(b Backend) {
	if c, ok := b.(interface{ Close() error }); ok {
		c.Close()
	}
}
