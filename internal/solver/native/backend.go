package native

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/sat"
	"github.com/nlsat/nlsat/internal/solver"
)

// Options configures the native decider. The zero value gives defaults.
type Options struct {
	// Explicit selects the explicit type search: bitsets over all 2^nouns
	// noun patterns with the greatest fixpoint of viability computed on
	// them, pair questions from the lifted closure. Its memory grows with
	// 2^nouns, so it takes at most ExplicitNouns nouns (GaveUp above); it
	// is a second opinion for cross-checks. The default is the lazy
	// search (see the package doc). Ground or MaxClosure imply Explicit.
	Explicit bool
	// ExplicitNouns caps the nouns of the explicit search; default 16.
	ExplicitNouns int
	// MaxNodes bounds the clique-repair search; default 20000.
	MaxNodes int
	// MaxClosure caps the explicit search's lifted resolution closure;
	// above it pair questions fall back to ground 2-SAT per pattern class
	// (exact, slower). Default 2000.
	MaxClosure int
	// Ground forces the explicit search's ground fallback.
	Ground bool
	// MaxMemory bounds, in bytes, the memory one Solve may hold in its
	// search and its model (estimated as it grows); a problem that needs
	// more is an error wrapping ErrMemory that names the budget, never an
	// answer and never an out-of-memory kill. Default DefaultMaxMemory.
	MaxMemory int64

	// rebuild makes every BUILD of the lazy search start from nothing,
	// as it did before it went on from the last one; tests compare.
	rebuild bool
	// regionsFirst makes every lazy search the region loop from its
	// start, with or without a node budget, so that tests can compare it
	// with the other searches on problems of any size.
	regionsFirst bool
}

// Backend is the native decision procedure. It is safe for concurrent use:
// each Solve call works in its own pooled workspace (see the package doc).
type Backend struct {
	opts Options
}

var _ solver.Backend = (*Backend)(nil)

// New returns a native backend with options o (zero fields get defaults).
func New(o Options) *Backend {
	o.Explicit = o.Explicit || o.Ground || o.MaxClosure > 0
	if o.ExplicitNouns <= 0 {
		o.ExplicitNouns = 16
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = 20000
	}
	if o.MaxClosure <= 0 {
		o.MaxClosure = 2000
	}
	if o.MaxMemory <= 0 {
		o.MaxMemory = DefaultMaxMemory
	}
	return &Backend{opts: o}
}

// Complete reports true: an Unknown answer from the native decider
// (a search past its budget, or a canceled context) is never a label, and
// callers that draw instances must not skip it silently.
func (b *Backend) Complete() bool { return true }

// Name returns the backend's name and version.
func (b *Backend) Name() string { return "nlsat-native-1" }

// Solve decides p. It returns an error when a sentence has an unsupported
// shape or when a model fails its check (a bug, never a label).
func (b *Backend) Solve(ctx context.Context, p *solver.Problem) (solver.Result, error) {
	start := time.Now()
	if p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.Timeout)
		defer cancel()
	}
	res, err := b.solve(ctx, p)
	if res.Status == solver.Unsat && res.Core == nil {
		res.Core = make([]int, len(p.Sentences))
		for i := range res.Core {
			res.Core[i] = i
		}
	}
	res.Elapsed = time.Since(start)
	return res, err
}

func (b *Backend) solve(ctx context.Context, p *solver.Problem) (solver.Result, error) {
	ws := workspaces.get()
	defer workspaces.put(ws)
	ws.sat.Options = sat.Options{Stop: func() bool { return ctx.Err() != nil }}
	n, err := normalizeIn(&ws.norm, p.Sentences, &ws.slab, &ws.shapes)
	if errors.Is(err, errWide) {
		if res, ok, err := wideMonadic(ctx, &ws.sat, p); ok {
			return res, err
		}
		return b.solveWide(ctx, p, len(ws.norm.nouns))
	}
	if err != nil {
		return solver.Result{}, err
	}
	return decide(b, ctx, ws, n, p)
}

// solveWide decides p, of nn nouns (more than 64), with the narrowest
// noun patterns that hold them, in a workspace of that width.
func (b *Backend) solveWide(ctx context.Context, p *solver.Problem, nn int) (solver.Result, error) {
	switch {
	case nn <= 128:
		return solveWidth[[2]uint64](b, ctx, p)
	case nn <= 256:
		return solveWidth[[4]uint64](b, ctx, p)
	case nn <= 512:
		return solveWidth[[8]uint64](b, ctx, p)
	case nn <= 1024:
		return solveWidth[[16]uint64](b, ctx, p)
	case nn <= 2048:
		return solveWidth[[32]uint64](b, ctx, p)
	case nn <= 4096:
		return solveWidth[[64]uint64](b, ctx, p)
	case nn <= maxPatternNouns:
		return solveWidth[[128]uint64](b, ctx, p)
	}
	return solver.Result{}, fmt.Errorf("%w: %d nouns in a problem with verbs, more than the %d its noun patterns hold (%w)",
		ErrUnsupported, nn, maxPatternNouns, errWide)
}

// solveWidth decides p with noun patterns of type P, in a workspace of
// its own.
func solveWidth[P pat](b *Backend, ctx context.Context, p *solver.Problem) (solver.Result, error) {
	ws := new(workspace[P])
	ws.sat.Options = sat.Options{Stop: func() bool { return ctx.Err() != nil }}
	n, err := normalizeIn(&ws.norm, p.Sentences, &ws.slab, &ws.shapes)
	if err != nil {
		return solver.Result{}, err
	}
	return decide(b, ctx, ws, n, p)
}

// decide decides p, normalized to n in ws: by the monadic path or the
// type search.
func decide[P pat](b *Backend, ctx context.Context, ws *workspace[P], n *normal[P], p *solver.Problem) (solver.Result, error) {
	var err error
	stats := make(map[string]float64, 10)
	stats["nouns"], stats["verbs"] = float64(len(n.nouns)), float64(len(n.verbs))
	stats["clauses"], stats["requirements"] = float64(len(n.cs)), float64(len(n.qs))
	var m *model[P]
	if len(n.cs) == 0 && len(n.qs) == 0 {
		elems, ok, core := monadic(n, nil)
		if !ok {
			res := unsat(stats)
			res.Core = core
			return res, nil
		}
		m = &model[P]{unary: elems}
	} else {
		var res solver.Result
		if m, res, err = types(b, ctx, ws, n, len(p.Sentences), stats); m == nil || err != nil {
			return res, err
		}
	}
	st, err := toStructure(p, n, m)
	if err != nil {
		return solver.Result{}, err
	}
	stats["model_size"] = float64(st.Size)
	return solver.Result{Status: solver.Sat, Model: st, Stats: stats}, nil
}

// types runs the type search on n, from m sentences; a nil model comes
// with the final result. The search runs in ws, whose buffers are reused.
func types[P pat](b *Backend, ctx context.Context, ws *workspace[P], n *normal[P], m int, stats map[string]float64) (*model[P], solver.Result, error) {
	t := &ws.t
	var ts *typeSet[P]
	var core []int
	var err error
	t.budget = b.opts.MaxMemory
	switch {
	case !b.opts.Explicit && !oneShotFits(b, n):
		// The node budget only says when to try the one-shot encoding;
		// where it cannot apply, a search stopped at the budget would
		// start over unbounded and repeat its first MaxNodes nodes.
		ts, core, err = lazySearch(b, ctx, ws, n, m, math.MaxInt)
		searchStats(t, stats)
		if t.nodes+t.rounds > b.opts.MaxNodes {
			stats["unbounded"] = 1
		}
	case !b.opts.Explicit:
		ts, core, err = lazySearch(b, ctx, ws, n, m, b.opts.MaxNodes)
		searchStats(t, stats)
		if errors.Is(err, errGaveUp) {
			nodes := t.nodes
			ts, err = fallback(b, ctx, ws, n, stats)
			if oneShotFailed(err) {
				ts, core, err = unbounded(b, ctx, ws, n, m, stats)
				nodes += t.nodes
			}
			t.nodes = nodes
		}
	case len(n.nouns) > b.opts.ExplicitNouns:
		return nil, solver.Result{Status: solver.Unknown, Reason: solver.GaveUp, Stats: stats,
			Detail: fmt.Sprintf("%d nouns in a problem with verbs; the explicit type search is limited to %d", len(n.nouns), b.opts.ExplicitNouns)}, nil
	case explicitBytes(n) > b.opts.MaxMemory:
		return nil, solver.Result{}, memoryError("the explicit type search", explicitBytes(n), b.opts.MaxMemory)
	default:
		initExplicit(b, ctx, t, n, stats)
		ts, err = t.search(nil, t.mono0)
		if errors.Is(err, errGaveUp) {
			stats["one_shot"] = 1
			nodes := t.nodes
			if ts, err = t.oneShot(&ws.sat); oneShotFailed(err) {
				ts, core, err = unbounded(b, ctx, ws, n, m, stats)
				t.nodes += nodes
			}
		} else if ts == nil && err == nil {
			// The explicit search does not track its refutation; the lazy
			// one does, and must agree.
			nodes := t.nodes
			if core, err = refutation(b, ctx, ws, n, m); err != nil {
				return nil, solver.Result{}, err
			}
			t.nodes = nodes
		}
	}
	stats["nodes"] = float64(t.nodes + t.rounds) // a round of the region loop counts as a node
	switch {
	case errors.Is(err, errMemory):
		return nil, solver.Result{}, memoryError("the type search", ws.lz.bytes(), b.opts.MaxMemory)
	case errors.Is(err, errGaveUp) || errors.Is(err, errTooBig):
		return nil, solver.Result{}, fmt.Errorf("internal error: the search gave up past its node budget (%d) and past the unbounded lazy search", b.opts.MaxNodes)
	case errors.Is(err, errCanceled):
		r := solver.Canceled
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r = solver.Timeout
		}
		return nil, solver.Result{Status: solver.Unknown, Reason: r, Stats: stats}, nil
	case ts == nil:
		res := unsat(stats)
		res.Core = core
		return nil, res, nil
	}
	stats["types"] = float64(len(ts.members))
	mod, err := t.buildModel(ts)
	if err != nil && !errors.Is(err, ErrMemory) {
		stats["three_copies"] = 1
		mod, err = t.threeCopies(ts)
	}
	return mod, solver.Result{}, err
}

// initExplicit prepares the explicit search in t.
func initExplicit[P pat](b *Backend, ctx context.Context, t *typer[P], n *normal[P], stats map[string]float64) {
	limit := b.opts.MaxClosure
	if b.opts.Ground {
		limit = 0
	}
	budget := t.budget
	initTyper(t, ctx, n, b.opts.MaxNodes, limit)
	t.budget = budget
	if t.lifted {
		stats["closure"] = float64(len(t.cl))
	}
}

// fallback decides n by the one-shot encoding over the explicit pattern
// space, after the lazy search exceeded its node budget.
func fallback[P pat](b *Backend, ctx context.Context, ws *workspace[P], n *normal[P], stats map[string]float64) (*typeSet[P], error) {
	t := &ws.t
	initExplicit(b, ctx, t, n, stats)
	t.budget = b.opts.MaxMemory // the lazy search's typer did not keep it
	stats["one_shot"] = 1
	return t.oneShot(&ws.sat)
}

// oneShotFits reports whether the one-shot encoding may decide n: it needs
// the explicit pattern space.
func oneShotFits[P pat](b *Backend, n *normal[P]) bool {
	return len(n.nouns) <= b.opts.ExplicitNouns && explicitBytes(n) <= b.opts.MaxMemory
}

// oneShotFailed reports whether the one-shot encoding could not decide:
// the search it follows gave up, it does not fit (too many class pairs),
// or it would outgrow the memory budget. The lazy search without a node
// budget then decides.
func oneShotFailed(err error) bool {
	return errors.Is(err, errGaveUp) || errors.Is(err, errTooBig) || errors.Is(err, errMemory)
}

// unbounded is the exact path behind the one-shot encoding: the lazy
// search with no node budget, under the context and the memory budget.
func unbounded[P pat](b *Backend, ctx context.Context, ws *workspace[P], n *normal[P], m int, stats map[string]float64) (*typeSet[P], []int, error) {
	stats["unbounded"] = 1
	ts, core, err := lazySearch(b, ctx, ws, n, m, math.MaxInt)
	searchStats(&ws.t, stats)
	return ts, core, err
}

// searchStats records what the lazy search did in stats.
func searchStats[P pat](t *typer[P], stats map[string]float64) {
	stats["nogoods"], stats["processed"] = float64(t.learnt), float64(t.processed)
	if t.rounds > 0 {
		stats["region_rounds"] = float64(t.rounds)
	}
}

// lazySearch runs the lazy type search on n, from m sentences, within
// maxNodes nodes; an unsat answer comes with the sentences of its
// refutation.
func lazySearch[P pat](b *Backend, ctx context.Context, ws *workspace[P], n *normal[P], m, maxNodes int) (*typeSet[P], []int, error) {
	t := &ws.t
	initLazyTyper(t, ctx, n, maxNodes)
	l := ws.lz.init(t, &ws.sat, m)
	l.budget, l.rebuild = b.opts.MaxMemory, b.opts.rebuild
	var ts *typeSet[P]
	var sup sset
	var err error
	switch {
	case b.opts.regionsFirst:
		ts, sup, err = l.regionSearch()
	case maxNodes == math.MaxInt:
		// Without a node budget, the depth-first search settles most
		// problems in a few nodes; the rest go to the region loop, which
		// goes on from the nogoods it learnt at the root.
		t.maxNodes = regionNodes
		ts, sup, _, err = l.search()
		if errors.Is(err, errGaveUp) {
			t.maxNodes = maxNodes
			ts, sup, err = l.regionSearch()
		}
	default:
		ts, sup, _, err = l.search()
	}
	if ts != nil || err != nil {
		return ts, nil, err
	}
	return nil, sup.indices(), nil
}

// refutation returns the unsat core of n, which the explicit search found
// unsatisfiable, from the lazy search; nil (every sentence) if that search
// is stopped. A sat answer there is an internal error.
func refutation[P pat](b *Backend, ctx context.Context, ws *workspace[P], n *normal[P], m int) ([]int, error) {
	ts, core, err := lazySearch(b, ctx, ws, n, m, b.opts.MaxNodes)
	switch {
	case ts != nil:
		return nil, errors.New("internal error: the explicit type search says unsat, the lazy one sat")
	case err != nil:
		return nil, nil
	}
	return core, nil
}

// FindCore implements solver.CoreFinder: for a problem without binary atoms
// (the monadic path, whose Solve reports every sentence binding the failing
// existential) it returns the sentences of core that one SAT call with an
// activation literal per sentence needs to refute it; other cores, which
// the type search already took from its refutation, come back unchanged.
// It is not in Solve because it would cost every monadic refutation a
// SAT call that only MUS computations need.
func (b *Backend) FindCore(ctx context.Context, p *solver.Problem, core []int) ([]int, error) {
	ws := workspaces.get()
	defer workspaces.put(ws)
	ws.sat.Options = sat.Options{Stop: func() bool { return ctx.Err() != nil }}
	fs := make([]fol.Formula, len(core))
	for i, j := range core {
		fs[i] = p.Sentences[j]
	}
	n, err := normalizeIn(&ws.norm, fs, &ws.slab, &ws.shapes)
	if errors.Is(err, errWide) {
		return core, nil // Solve took the core from its SAT calls
	}
	if err != nil || len(n.cs) > 0 || len(n.qs) > 0 {
		return core, err
	}
	_, ok, sub := monadic(n, &ws.sat)
	if ok {
		return nil, errors.New("internal error: FindCore on a satisfiable subset")
	}
	out := make([]int, len(sub))
	for i, j := range sub {
		out[i] = core[j]
	}
	return out, nil
}

var _ solver.CoreFinder = (*Backend)(nil)

// unsat is an Unsat result; unless the caller sets a core, Solve sets it
// to every sentence (the explicit type search does not track its
// refutation).
func unsat(stats map[string]float64) solver.Result {
	return solver.Result{Status: solver.Unsat, Stats: stats}
}
