package split

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
)

// acceptor decides, in index order, the fate of the candidates of one
// pool. Candidates that pass every rule are collected per stratum
// (collect.go); once a stratum's collected candidates can fill its
// quotas, it closes and the instances it accepts are chosen among them
// by a seeded shuffle, so that a candidate's index says nothing of
// whether it was accepted, whatever its label.
type acceptor struct {
	b        *builder
	k        int
	pl       *Pool
	ps       *poolState
	open     int
	accepted int
	frag     fragments.Fragment
	// full[s] is set once stratum s has closed. It only ever turns true,
	// and only in consider, so a worker that sees it set agrees with what
	// consider will decide.
	full []atomic.Bool
	// entries[s] are the candidates stratum s collected, in index order;
	// counts[s] counts them per mask and label.
	entries [][]entry
	counts  []map[uint8]*[2]int
	// stale is set when the pool was full before the build resumed: its
	// entries are in its spill file, not yet in entries.
	stale bool
	// ready[s] is how much of stratum s its collected candidates could
	// fill (readiness), and readyAll their sum: the set's progress.
	ready    []int
	readyAll int
}

func (b *builder) newAcceptor(k int) *acceptor {
	a := &acceptor{b: b, k: k, pl: &b.plan.Pools[k], ps: &b.st.Pools[k], frag: b.plan.PoolFrag(k)}
	a.full = make([]atomic.Bool, len(a.pl.Strata))
	a.entries = make([][]entry, len(a.pl.Strata))
	a.counts = make([]map[uint8]*[2]int, len(a.pl.Strata))
	for s := range a.pl.Strata {
		if b.stratumFull(k, s) {
			a.full[s].Store(true)
			a.ready = append(a.ready, 2*a.pl.stratumPairs(s))
			a.readyAll += 2 * a.pl.stratumPairs(s)
		} else {
			a.ready = append(a.ready, 0)
			a.open++
		}
	}
	for _, ss := range a.ps.Strata {
		for _, f := range ss.Fill {
			a.accepted += f[0] + f[1]
		}
	}
	return a
}

// wanted reports whether candidate i could still be collected.
func (a *acceptor) wanted(i int) bool { return !a.full[i%len(a.pl.Strata)].Load() }

// consider decides candidate i; c is ignored when its stratum is closed.
// It returns stop once every stratum is closed.
func (a *acceptor) consider(i int, c candidate) (stop bool, err error) {
	b, k, pl := a.b, a.k, a.pl
	s := i % len(pl.Strata)
	if a.full[s].Load() {
		return false, nil
	}
	if c.skipped {
		return true, fmt.Errorf("internal error: candidate %d skipped in a stratum that is not full", i)
	}
	ss := &a.ps.Strata[s]
	ss.Drawn++
	if err := b.checkLimit(k, s); err != nil {
		return true, err
	}
	if c.thinned {
		ss.Thinned++
		return false, nil
	}
	if c.rec == nil {
		if ss.Unknown == nil {
			ss.Unknown = map[string]int{}
		}
		ss.Unknown[c.reason]++
		return false, nil
	}
	if models := a.ps.Models; models != nil && !c.kept {
		if !models.keep(b.plan.Seed, k*PoolStride+i, c.surface(a.frag), c.rec.Label) {
			ss.Thinned++
			return false, nil
		}
	}
	if c.resample {
		if err := b.resample(k, i, c.rec); err != nil {
			return true, err
		}
	}
	mask := a.mask(s, c)
	_, dupExact := b.exact[keyOf(c.exact)]
	_, dupRenamed := b.renamed[keyOf(c.renamed)]
	switch {
	case mask == 0:
		ss.HeldOut++
		return false, nil
	case dupExact:
		ss.DupExact++
		return false, nil
	case b.plan.Dedup == DedupRenaming && dupRenamed:
		ss.DupRenaming++
		return false, nil
	}
	if err := a.collect(i, c, mask); err != nil {
		return true, err
	}
	if a.fills(s) {
		a.close(s)
	}
	if b.opt.Progress != nil {
		b.opt.Progress(pl.Name, a.readyAll, pl.Size(), c.rec.Label)
	}
	return a.open == 0, nil
}

// readiness is how many of stratum s's instances its collected
// candidates could fill: per label, as many as it collected up to the
// label's quota over the splits (the stratum's full size once closed).
// It grows with every candidate of a label still short and reaches the
// stratum's size when it closes, so the set's sum moves while the rarer
// label is awaited, where the accepted count would stand still.
func (a *acceptor) readiness(s int) int {
	quota := a.pl.stratumPairs(s)
	if a.full[s].Load() {
		return 2 * quota
	}
	var got [2]int
	for _, c := range a.counts[s] {
		got[0] += c[0]
		got[1] += c[1]
	}
	return min(got[0], quota) + min(got[1], quota)
}

// refresh updates the readiness of stratum s.
func (a *acceptor) refresh(s int) {
	r := a.readiness(s)
	a.readyAll += r - a.ready[s]
	a.ready[s] = r
}

// excluded returns the templates candidate idx of a "train" pool draws
// without: one of each held-out pair, by a fair coin from the seed and the
// index alone.
func (p *Plan) excluded(idx int) []fragments.Template {
	rng := rand.New(rand.NewPCG(p.Seed^pairSeed, uint64(idx)))
	var out []fragments.Template
	for _, pair := range p.Holdout.HeldPairs {
		t, _ := fragments.ParseTemplate(pair[rng.IntN(2)])
		out = append(out, t)
	}
	return out
}

// pairSeed separates the stream of template coins from the sampler's.
const pairSeed = 0x7061697273 // "pairs"

// holdsPair reports whether the template ids ids (as records write them,
// "V1.every-some") hold both templates of some held-out pair.
func (p *Plan) holdsPair(ids []string) bool {
	has := map[string]bool{}
	for _, id := range ids {
		t, _, _ := strings.Cut(id, ".")
		has[t] = true
	}
	for _, pair := range p.Holdout.HeldPairs {
		if has[pair[0]] && has[pair[1]] {
			return true
		}
	}
	return false
}

// difficultyPool reports whether pool k is split by difficulty: the
// plan holds out by difficulty or proof depth and the pool holds train,
// validation or test (train's pool holds out what only test may take;
// the generalisation and zero-shot sets take any).
func (b *builder) difficultyPool(k int) bool {
	if b.plan.Holdout.Kind != HoldoutDifficulty && b.plan.Holdout.Kind != HoldoutDepth {
		return false
	}
	for _, sp := range b.plan.Pools[k].Splits {
		if sp.Name == Train || sp.Name == Validation || sp.Name == Test {
			return true
		}
	}
	return false
}

// admits reports whether split t of pool k may take candidate c: no split
// takes an unsat instance with a core below Plan.MinCore; under the
// difficulty hold-out, test takes only hard unsat instances, and train and
// validation only unsat instances whose MUS has at most MaxTrainMUS
// sentences; under the depth hold-out, test takes only unsat instances
// with a proof deeper than MaxTrainDepth, train and validation only
// those with a proof at most that deep. Sat instances go anywhere.
func (b *builder) admits(k, t int, c candidate) bool {
	r := c.rec
	if c.easy {
		return false
	}
	if b.plan.Pools[k].Templates == "test" && !b.plan.holdsPair(r.Templates) {
		return false
	}
	if !b.difficultyPool(k) || r.Label != dataset.LabelUnsat {
		return true
	}
	test := b.plan.Pools[k].Splits[t].Name == Test
	if d := b.plan.Holdout.MaxTrainDepth; d > 0 {
		depth := *r.Difficulty.ProofDepth
		return depth != dataset.NoProof && (depth > d) == test
	}
	if test {
		return c.hard
	}
	return len(r.Certificate.MUS) <= b.plan.Holdout.MaxTrainMUS
}

// stratumFull reports whether stratum s of pool k holds all its instances.
func (b *builder) stratumFull(k, s int) bool {
	ss := &b.st.Pools[k].Strata[s]
	for t, sp := range b.plan.Pools[k].Splits {
		if ss.Fill[t][0] < sp.Pairs[s] || ss.Fill[t][1] < sp.Pairs[s] {
			return false
		}
	}
	return true
}

// checkLimit fails the build when stratum s of pool k has used up its
// draw limit without filling.
func (b *builder) checkLimit(k, s int) error {
	pl := &b.plan.Pools[k]
	limit := b.plan.DrawLimit*2*pl.stratumPairs(s) + 100
	if b.st.Pools[k].Strata[s].Drawn <= limit {
		return nil
	}
	var lines []string
	for s2, st := range pl.Strata {
		if b.stratumFull(k, s2) {
			continue
		}
		ss := &b.st.Pools[k].Strata[s2]
		var sat, unsat int
		for _, f := range ss.Fill {
			unsat += f[0]
			sat += f[1]
		}
		need := pl.stratumPairs(s2)
		lines = append(lines, fmt.Sprintf("  stratum %s: sat %d/%d, unsat %d/%d after %d candidates (%d undecided, %d duplicates)",
			st.Key, sat, need, unsat, need, ss.Drawn, ss.unknownTotal(), ss.DupExact+ss.DupRenaming))
	}
	return fmt.Errorf("set %s: stratum %s drew %d candidates (--draw-limit %d × its %d instances) without filling; "+
		"its points yield too few distinct instances of one label. Use a region without these points, smaller sizes, or a higher --draw-limit "+
		"(after removing %s). Strata not full:\n%s",
		pl.Name, pl.Strata[s].Key, limit, b.plan.DrawLimit, 2*pl.stratumPairs(s),
		filepath.Join(b.opt.Dir, workDir), strings.Join(lines, "\n"))
}

// unknownTotal returns the undecided candidates of a stratum.
func (ss *stratumState) unknownTotal() int {
	n := 0
	for _, c := range ss.Unknown {
		n += c
	}
	return n
}
