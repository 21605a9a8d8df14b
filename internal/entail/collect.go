package entail

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"

	"github.com/nlsat/nlsat/internal/canon"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/solver"
)

// candidate is item i of a build's stream: a triple drawn for stratum
// i mod len(Strata), or why there is none. Accepted candidates are
// stored as lines of the work directory's part; a shard stores every
// candidate it draws.
type candidate struct {
	I       int  `json:"i"`
	Stratum int  `json:"stratum"`
	Skipped bool `json:"-"` // the stratum was full when a worker took it
	// Beyond marks, in a merge, a candidate past its stratum's shard
	// budget: no shard drew it.
	Beyond  bool   `json:"-"`
	None    bool   `json:"none,omitempty"` // no premise set of the stratum gave a triple
	Exact   []byte `json:"exact"`
	Renamed []byte `json:"renamed"`
	Capped  bool   `json:"capped"`
	Triple
}

// StratumCounts are the fates of a stratum's candidates.
type StratumCounts struct {
	// Fragment is the stratum's fragment in a joint build.
	Fragment   string `json:"fragment,omitempty"`
	Key        string `json:"key"`
	Candidates int    `json:"candidates"`
	Accepted   int    `json:"accepted"`
	// NoTriple counts candidates for which no premise set of the stratum
	// gave one hypothesis per label within the drawer's bounds.
	NoTriple           int `json:"no_triple"`
	DuplicatesExact    int `json:"duplicates_exact"`
	DuplicatesRenaming int `json:"duplicates_renaming"`
	// AfterFull counts the candidates of the stratum's turn that came
	// after it was full: not drawn, or drawn by a worker ahead and
	// dropped.
	AfterFull int `json:"after_full"`
	// CanonFallbacks counts accepted premise sets whose canonical form hit
	// the search cap; only an exact copy of them would have been caught.
	CanonFallbacks int `json:"canon_fallbacks"`
}

// collector accepts candidates in index order until every stratum holds
// its quota of triples.
type collector struct {
	plan    *BuildPlan
	store   *job.Store
	counts  []StratumCounts
	mu      sync.Mutex
	full    []bool // read by workers: a full stratum stays full
	left    int    // strata not yet full
	lines   [][]lineRef
	exact   map[[32]byte]bool
	renamed map[[32]byte]bool
	onAdd   func(accepted, total int)
}

// lineRef is where an accepted triple's line is in the part.
type lineRef struct {
	off int64
	n   int
}

// buildState is a build's checkpoint: the counts per stratum; the
// accepted triples are the part's lines.
type buildState struct {
	Strata []StratumCounts `json:"strata"`
}

func newCollector(p *BuildPlan, store *job.Store) (*collector, error) {
	c := &collector{plan: p, store: store, full: make([]bool, len(p.Strata)), lines: make([][]lineRef, len(p.Strata)),
		exact: map[[32]byte]bool{}, renamed: map[[32]byte]bool{}}
	var st buildState
	if err := store.State(&st); err != nil {
		return nil, err
	}
	c.counts = st.Strata
	if c.counts == nil {
		for _, s := range p.Strata {
			c.counts = append(c.counts, StratumCounts{Key: s.Key, Fragment: s.Fragment})
		}
	}
	if err := c.reload(); err != nil {
		return nil, err
	}
	for s := range p.Strata {
		c.full[s] = len(c.lines[s]) >= p.quota(s)
		if !c.full[s] {
			c.left++
		}
	}
	return c, nil
}

// reload reads back the triples accepted before the checkpoint.
func (c *collector) reload() error {
	part := c.store.Part(0)
	if part.Rows() == 0 {
		return nil
	}
	f, err := os.Open(part.Name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	var off int64
	for row := 0; row < part.Rows() && sc.Scan(); row++ {
		var cd candidate
		if err := json.Unmarshal(sc.Bytes(), &cd); err != nil {
			return fmt.Errorf("%s:%d: %w", part.Name, row+1, err)
		}
		n := len(sc.Bytes()) + 1
		c.lines[cd.Stratum] = append(c.lines[cd.Stratum], lineRef{off, n})
		c.exact[sha256.Sum256(cd.Exact)], c.renamed[sha256.Sum256(cd.Renamed)] = true, true
		off += int64(n)
	}
	return sc.Err()
}

// isFull says whether stratum s holds its quota (safe for workers).
func (c *collector) isFull(s int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.full[s]
}

// draw is item i: a triple for stratum i mod len(Strata), drawn with
// (seed ⊕ BuildStream, i) alone. A stratum already full is skipped
// without drawing: it stays full, so Emit would reject the candidate
// whatever it held.
func (c *collector) draw(ctx context.Context, b solver.Backend, i int) (candidate, error) {
	p := c.plan
	s := i % len(p.Strata)
	cd := candidate{I: i, Stratum: s}
	if c.isFull(s) {
		cd.Skipped = true
		return cd, nil
	}
	rng := rand.New(rand.NewPCG(p.Seed^BuildStream, uint64(i)))
	pts := p.Strata[s].Points
	pt := pts[rng.IntN(len(pts))]
	d := NewDrawer(p.StratumFragment(s), p.Params())
	first, err := fragments.Sample(rng, d.Fragment, d.Params, pt.M, pt.N1, pt.N2)
	if err != nil {
		return cd, err
	}
	ps, err := d.Triple(ctx, b, rng, first)
	switch {
	case errors.Is(err, ErrNoTriple):
		cd.None = true
		return cd, nil
	case err != nil:
		return cd, fmt.Errorf("candidate %s: %w", dataset.SeedString(p.Seed, i), err)
	}
	keyed := ps[0].Premises
	if p.Joint() {
		// The same sentences drawn for two fragments are one premise set.
		keyed.Fragment = fragments.A
	}
	form := canon.Canonical(keyed)
	cd.Exact, cd.Renamed, cd.Capped = []byte(canon.ExactKey(keyed)), []byte(form.Key), form.Capped
	for k, j := range rng.Perm(3) {
		cd.Records[k] = NewRecord(p.Lexicon(), ps[j], b.Name(), dataset.SeedString(p.Seed, i))
	}
	return cd, nil
}

// emit accepts or rejects candidate i, in index order, and stops the
// stream once every stratum is full.
func (c *collector) emit(_, i int, cd candidate) (bool, error) {
	s := cd.Stratum
	ct := &c.counts[s]
	q := c.plan.quota(s)
	if len(c.lines[s]) >= q {
		ct.AfterFull++
		return false, nil
	}
	ct.Candidates++
	switch {
	case ct.Candidates > c.plan.DrawLimit*q:
		return true, fmt.Errorf("stratum %s: %d candidates gave %d of its %d triples (%d without a triple, %d duplicates); raise --draw-limit or choose another region",
			c.stratumName(s), ct.Candidates-1, len(c.lines[s]), q, ct.NoTriple, ct.DuplicatesExact+ct.DuplicatesRenaming)
	case cd.Skipped:
		return true, fmt.Errorf("candidate %d of stratum %s was skipped while the stratum was not full", i, c.stratumName(s))
	case cd.Beyond:
		return true, &ShortError{Stratum: c.stratumName(s), Drawn: i / len(c.plan.Strata), Triples: len(c.lines[s]), Quota: q}
	case cd.None:
		ct.NoTriple++
		return false, nil
	}
	ek, rk := sha256.Sum256(cd.Exact), sha256.Sum256(cd.Renamed)
	switch {
	case c.exact[ek]:
		ct.DuplicatesExact++
		return false, nil
	case c.renamed[rk]:
		ct.DuplicatesRenaming++
		return false, nil
	}
	c.exact[ek], c.renamed[rk] = true, true
	line, err := json.Marshal(cd)
	if err != nil {
		return true, err
	}
	part := c.store.Part(0)
	ref := lineRef{part.Size(), len(line) + 1}
	if err := part.Row(append(line, '\n')); err != nil {
		return true, err
	}
	c.lines[s] = append(c.lines[s], ref)
	ct.Accepted++
	if cd.Capped {
		ct.CanonFallbacks++
	}
	if len(c.lines[s]) == q {
		c.mu.Lock()
		c.full[s] = true
		c.mu.Unlock()
		c.left--
	}
	if c.onAdd != nil {
		c.onAdd(c.accepted(), c.plan.Records()/3)
	}
	return c.left == 0, nil
}

// stratumName names stratum s in messages: its key, after its fragment
// in a joint build.
func (c *collector) stratumName(s int) string {
	if f := c.plan.Strata[s].Fragment; f != "" {
		return f + " " + c.plan.Strata[s].Key
	}
	return c.plan.Strata[s].Key
}

// accepted is the number of triples accepted so far.
func (c *collector) accepted() int {
	n := 0
	for _, ls := range c.lines {
		n += len(ls)
	}
	return n
}

// triple reads back an accepted triple.
func (c *collector) triple(ref lineRef) (Triple, error) {
	buf := make([]byte, ref.n)
	part := c.store.Part(0)
	if _, err := part.ReadAt(buf, ref.off); err != nil {
		return Triple{}, fmt.Errorf("%s: %w", part.Name, err)
	}
	var cd candidate
	if err := json.Unmarshal(buf, &cd); err != nil {
		return Triple{}, fmt.Errorf("%s at byte %d: %w", part.Name, ref.off, err)
	}
	return cd.Triple, nil
}

// config is the build's job: one stream of candidates, until every
// stratum is full.
func (c *collector) config(o BuildOptions) job.Config[solver.Backend, candidate] {
	return job.Config[solver.Backend, candidate]{
		Streams: []job.Stream{{Name: candidateStream, Limit: -1}},
		Workers: o.Workers, New: o.NewBackend, Close: solver.Close,
		Do:    func(ctx context.Context, b solver.Backend, _, i int) (candidate, error) { return c.draw(ctx, b, i) },
		Emit:  c.emit,
		Store: c.store, Every: o.CheckpointEvery,
		State: func() any { return buildState{Strata: c.counts} },
	}
}

// workParts are the part files of a build's store in its work directory.
func workParts(dir string) []string {
	return []string{filepath.Join(dir, workDir, "triples.jsonl")}
}
