package solver

import (
	"context"
	"fmt"

	"github.com/nlsat/nlsat/internal/fol"
)

// NoCoreUpTo reports whether every subset of at most k sentences of p is
// satisfiable, that is, whether every unsatisfiable subset of p (every
// MUS, not just one found by deletion) has more than k sentences. A true
// answer is certified: each subset of at most k sentences is made true by a
// model that CheckModel accepted. A false answer means a subset of at most
// k sentences was answered Unsat; it is returned in core.
//
// Models are shared between subsets: the sentences of p that a checked
// model makes true form a satisfiable set, and every subset inside it is
// settled without solving. So the backend is called only for subsets that
// no model found so far covers. Unknown is an error, as in MinimalCore.
func NoCoreUpTo(ctx context.Context, b Backend, p *Problem, k int) (ok bool, core []int, err error) {
	n := len(p.Sentences)
	k = min(k, n)
	var covers [][]bool // per model, which sentences it makes true
	covered := func(idx []int) bool {
		for _, c := range covers {
			all := true
			for _, i := range idx {
				if !c[i] {
					all = false
					break
				}
			}
			if all {
				return true
			}
		}
		return false
	}
	idx := make([]int, 0, k)
	var walk func(from int) (bool, error)
	walk = func(from int) (bool, error) {
		if len(idx) > 0 && !covered(idx) {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			res, err := solveSubset(ctx, b, p, idx)
			if err != nil {
				return false, err
			}
			if res.Status == Unsat {
				core = append([]int(nil), idx...)
				return false, nil
			}
			c := make([]bool, n)
			for i, f := range p.Sentences {
				if c[i], err = fol.Eval(f, res.Model); err != nil {
					return false, fmt.Errorf("no core up to %d: sentence %d: %w", k, i+1, err)
				}
			}
			covers = append(covers, c)
		}
		if len(idx) == k {
			return true, nil
		}
		for i := from; i < n; i++ {
			idx = append(idx, i)
			ok, err := walk(i + 1)
			idx = idx[:len(idx)-1]
			if !ok || err != nil {
				return ok, err
			}
		}
		return true, nil
	}
	ok, err = walk(0)
	return ok, core, err
}
