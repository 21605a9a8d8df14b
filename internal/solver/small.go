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
// model that CheckModel accepted (for a subset of one or two sentences, a
// model of a subset of its shape, which renamed is one of it). A false
// answer means a subset of at most k sentences was answered Unsat; it is
// returned in core.
//
// Models are shared between subsets: the sentences of p that a checked
// model makes true form a satisfiable set, and every subset inside it is
// settled without solving. So the backend is called only for subsets that
// no model found so far covers. Nor is it called for a subset whose
// sentences fall into groups that share no predicate: such a subset is
// satisfiable when each group is (fol has no equality, so the product of
// the groups' models, each predicate read through its group's projection,
// is a model of all), and each group is a smaller subset that is checked
// in its turn. Subsets of one or two sentences whose shape (the
// sentences up to the names of their predicates) was decided before, in
// this call or an earlier one, take that answer (shapeMemo): a model of
// one renamed is a model of the other. Unknown is an error, as in
// MinimalCore.
func NoCoreUpTo(ctx context.Context, b Backend, p *Problem, k int) (ok bool, core []int, err error) {
	n := len(p.Sentences)
	k = min(k, n)
	preds := predicateSets(p.Sentences)
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
	shapes := make([]*sentenceShape, n)
	backend, memoOK := memoBackend(b.Name())
	// decideSubset returns the status of the sentences idx, with the
	// checked model of a Sat answer that was solved (nil when the
	// answer came from shapeMemo).
	decideSubset := func(idx []int) (Status, *fol.Structure, error) {
		var key shapeKey
		memo := false
		if len(idx) <= 2 && memoOK {
			for _, i := range idx {
				if shapes[i] == nil {
					shapes[i] = shapeOf(p.Sentences[i])
				}
			}
			if key, memo = subsetKey(backend, shapes, idx); memo {
				if st, ok := memoStatus(key); ok {
					return st, nil, nil
				}
			}
		}
		res, err := solveSubset(ctx, b, p, idx)
		if err != nil {
			return Unknown, nil, err
		}
		if memo {
			memoRecord(key, res.Status)
		}
		return res.Status, res.Model, nil
	}
	idx := make([]int, 0, k)
	var walk func(from int) (bool, error)
	walk = func(from int) (bool, error) {
		if len(idx) > 0 && connected(preds, idx) && !covered(idx) {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			st, model, err := decideSubset(idx)
			if err != nil {
				return false, err
			}
			if st == Unsat {
				core = append([]int(nil), idx...)
				return false, nil
			}
			if model != nil {
				c, err := fol.EvalEach(p.Sentences, model)
				if err != nil {
					return false, fmt.Errorf("no core up to %d: %w", k, err)
				}
				covers = append(covers, c)
			}
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

// predicateSets returns, per sentence, the set of its predicates as a
// bitset over the predicates of all of them.
func predicateSets(fs []fol.Formula) [][]uint64 {
	index := map[string]int{}
	names := make([][]string, len(fs))
	for i, f := range fs {
		sig, _ := fol.SignatureOf(f)
		for name := range sig {
			if _, ok := index[name]; !ok {
				index[name] = len(index)
			}
			names[i] = append(names[i], name)
		}
	}
	words := (len(index) + 63) / 64
	out := make([][]uint64, len(fs))
	for i := range fs {
		out[i] = make([]uint64, words)
		for _, name := range names[i] {
			j := index[name]
			out[i][j/64] |= 1 << (j % 64)
		}
	}
	return out
}

// connected reports whether the sentences idx are linked by shared
// predicates: the graph whose edges join sentences with a common
// predicate is connected on them.
func connected(preds [][]uint64, idx []int) bool {
	if len(idx) <= 1 {
		return true
	}
	reached := append([]uint64(nil), preds[idx[0]]...)
	in := make([]bool, len(idx))
	in[0] = true
	for grew := true; grew; {
		grew = false
		for j, i := range idx {
			if in[j] || !meets(reached, preds[i]) {
				continue
			}
			in[j], grew = true, true
			for w := range reached {
				reached[w] |= preds[i][w]
			}
		}
	}
	for _, ok := range in {
		if !ok {
			return false
		}
	}
	return true
}

// meets reports whether two bitsets share a bit.
func meets(a, b []uint64) bool {
	for w := range a {
		if a[w]&b[w] != 0 {
			return true
		}
	}
	return false
}
