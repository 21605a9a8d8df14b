package solver

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Both decides with two backends and answers only where they agree. If
// either is Unknown the result is Unknown, with that backend's reason and
// both answers in Detail; if they contradict each other Solve returns a
// *Disagreement.
type Both struct {
	First, Second Backend
}

var _ Backend = (*Both)(nil)

// Name joins the two backends' names with "+".
func (b *Both) Name() string { return b.First.Name() + "+" + b.Second.Name() }

// Reset resets both backends (those that are Resetters).
func (b *Both) Reset() error {
	if err := Reset(b.First); err != nil {
		return err
	}
	return Reset(b.Second)
}

// Close releases both backends' resources.
func (b *Both) Close() error {
	Close(b.First)
	Close(b.Second)
	return nil
}

// Solve runs both backends on p, the first one first.
func (b *Both) Solve(ctx context.Context, p *Problem) (Result, error) {
	start := time.Now()
	r1, err := b.First.Solve(ctx, p)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", b.First.Name(), err)
	}
	r2, err := b.Second.Solve(ctx, p)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", b.Second.Name(), err)
	}
	switch {
	case r1.Status == Unknown || r2.Status == Unknown:
		// The reason is the first undecided backend's.
		reason := r1.Reason
		if r1.Status != Unknown {
			reason = r2.Reason
		}
		return Result{Reason: reason, Detail: unknownDetail(b, r1, r2), Elapsed: time.Since(start)}, nil
	case r1.Status != r2.Status:
		return Result{}, &Disagreement{Problem: p, Names: [2]string{b.First.Name(), b.Second.Name()}, Results: [2]Result{r1, r2}}
	}
	r1.Elapsed = time.Since(start)
	if r1.Status == Unsat && len(r2.Core) < len(r1.Core) {
		r1.Core = r2.Core
	}
	return r1, nil
}

func unknownDetail(b *Both, r1, r2 Result) string {
	var parts []string
	for i, r := range []Result{r1, r2} {
		name := b.First.Name()
		if i == 1 {
			name = b.Second.Name()
		}
		s := name + ": " + r.Status.String()
		if r.Status == Unknown {
			s += " (" + r.Reason.String()
			if r.Detail != "" {
				s += ": " + r.Detail
			}
			s += ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// Disagreement is the error Both returns when its backends contradict
// each other: a bug in one of them, reported with everything needed to
// reproduce it.
type Disagreement struct {
	Problem *Problem
	Names   [2]string
	Results [2]Result
}

// Error gives both answers and their certificates.
func (d *Disagreement) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "backends disagree: %s says %s, %s says %s", d.Names[0], d.Results[0].Status, d.Names[1], d.Results[1].Status)
	for i, r := range d.Results {
		switch r.Status {
		case Sat:
			fmt.Fprintf(&b, "; %s model has %d elements", d.Names[i], r.Model.Size)
		case Unsat:
			fmt.Fprintf(&b, "; %s core %v", d.Names[i], r.Core)
		}
	}
	return b.String()
}
