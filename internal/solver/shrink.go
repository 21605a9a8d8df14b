package solver

import (
	"context"
	"errors"
	"sync"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/ground"
	"github.com/nlsat/nlsat/internal/sat"
)

// MaxGround is the largest domain size Shrink searches exhaustively.
const MaxGround = 4

// satSolvers are the grounding solvers not in use (a free list: a
// sync.Pool would be emptied by nearly every collection in bulk runs).
var satSolvers struct {
	sync.Mutex
	free []*sat.Solver
}

func getSolver() *sat.Solver {
	satSolvers.Lock()
	defer satSolvers.Unlock()
	if n := len(satSolvers.free); n > 0 {
		s := satSolvers.free[n-1]
		satSolvers.free = satSolvers.free[:n-1]
		return s
	}
	return new(sat.Solver)
}

func putSolver(s *sat.Solver) {
	satSolvers.Lock()
	satSolvers.free = append(satSolvers.free, s)
	satSolvers.Unlock()
}

// Shrink returns a model of p at most as large as m, a model of p, and as
// small as it finds:
//
//   - if p has a model of at most MaxGround elements (and fewer than m),
//     one of the least size of any model of p, found by searching sizes
//     exhaustively by grounding (package ground), as far as the search of
//     each size ends within its budget (groundModel; a size whose search
//     does not counts as having no model);
//   - otherwise m with elements removed, one at a time from the last,
//     while what is left stays a model (a substructure keeps the
//     universal sentences true, so only witnesses can be lost): every
//     element of the result is needed by some sentence.
//
// Models of sentences without equality are closed upwards in size (an
// element can be cloned), so the least size is found by searching from a
// start size (3, the most common least size of phase-region instances)
// downwards while there is a model, or upwards until there is one.
//
// The model returned is not checked; Decide checks it. An error means ctx
// ended or the sentences have no signature.
func Shrink(ctx context.Context, p *Problem, m *fol.Structure) (*fol.Structure, error) {
	if m.Size <= 1 {
		return m, nil
	}
	s := getSolver()
	defer putSolver(s)
	s.Options = sat.Options{Stop: func() bool { return ctx.Err() != nil }}
	c, err := ground.Compile(p.Sentences)
	if err != nil {
		return nil, err
	}
	top := min(m.Size-1, MaxGround)
	k := min(shrinkStart, top)
	small, err := groundModel(ctx, c, s, k)
	if err != nil {
		return nil, err
	}
	if small != nil {
		for m = small; k > 1; m = small {
			k--
			if small, err = groundModel(ctx, c, s, k); err != nil || small == nil {
				return m, err
			}
		}
		return m, nil
	}
	for k++; k <= top; k++ {
		if small, err = groundModel(ctx, c, s, k); err != nil || small != nil {
			return small, err
		}
	}
	if m.Size <= MaxGround+1 {
		return m, nil // no smaller model: m is of the least size
	}
	for e := m.Size - 1; e >= 0 && m.Size > MaxGround+1; e-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sub := without(m, e)
		if i, err := fol.EvalAll(p.Sentences, sub); err == nil && i < 0 {
			m = sub
		}
	}
	return m, nil
}

// shrinkStart is the size Shrink searches first.
const shrinkStart = 3

// The budgets of the two searches of one size (groundModel), in
// conflicts. On instances of the default regions the first search stays
// far below its budget (the most measured: 85 conflicts on 400 A
// instances at 4–8 nouns, 3,202 on 150 at 16–24 nouns), so it alone
// decides their sizes. A large instance can take far longer: an A
// instance of 64 nouns and 205 sentences took 610,000 conflicts (100 s)
// to find its model of 4 elements, which the second search finds in
// 60,000–80,000 (its test is TestShrinkPastBudget).
const (
	groundBudget = 20000
	lazyBudget   = 100000
)

// groundModel looks for a model of c with k elements: by grounding every
// sentence (c.Model) within groundBudget conflicts, and, past it, by
// grounding them as they are needed (c.ModelLazily) within lazyBudget.
// The first search is the one that decides the instances of the default
// regions, so their models are what they have always been; the second
// finds in seconds models of large instances that the first takes
// minutes over. It returns nil when there is no such model, or when
// neither search decided within its budget: the size then counts as
// without a model, so Shrink may return a model larger than the least.
// The error is ctx's when ctx has ended.
func groundModel(ctx context.Context, c *ground.Sentences, s *sat.Solver, k int) (*fol.Structure, error) {
	s.Options.MaxConflicts = groundBudget
	m, err := c.Model(s, k)
	if errors.Is(err, ground.ErrStopped) && ctx.Err() == nil {
		s.Options.MaxConflicts = 0
		m, err = c.ModelLazily(s, k, lazyBudget)
		if errors.Is(err, ground.ErrStopped) && ctx.Err() == nil {
			return nil, nil
		}
	}
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return m, err
}

// without returns m without element e.
func without(m *fol.Structure, e int) *fol.Structure {
	keep := func(row []bool) []bool {
		out := make([]bool, 0, m.Size-1)
		out = append(out, row[:e]...)
		return append(out, row[e+1:]...)
	}
	sub := &fol.Structure{Size: m.Size - 1, Unary: make(map[string][]bool, len(m.Unary)), Binary: make(map[string][][]bool, len(m.Binary))}
	for p, ext := range m.Unary {
		sub.Unary[p] = keep(ext)
	}
	for r, rel := range m.Binary {
		rows := make([][]bool, 0, m.Size-1)
		for a, row := range rel {
			if a != e {
				rows = append(rows, keep(row))
			}
		}
		sub.Binary[r] = rows
	}
	return sub
}
