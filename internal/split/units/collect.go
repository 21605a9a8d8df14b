package units

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/nlsat/nlsat/internal/canon"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/solver"
)

// candidate is item i of a build's stream: a unit drawn for stratum
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
	None    bool   `json:"none,omitempty"` // no draw of the stratum gave a unit
	Exact   []byte `json:"exact"`
	Renamed []byte `json:"renamed"`
	Capped  bool   `json:"capped"`
	// Records are the unit's records; read back from a part or a shard,
	// they stay as JSON until the collector decodes them.
	Records []Record          `json:"-"`
	Raw     []json.RawMessage `json:"records"`
}

// MarshalJSON writes the candidate with its records.
func (cd candidate) MarshalJSON() ([]byte, error) {
	type plain candidate
	out := plain(cd)
	if cd.Records != nil {
		out.Raw = make([]json.RawMessage, len(cd.Records))
		for k, r := range cd.Records {
			r.Normalize()
			b, err := json.Marshal(r)
			if err != nil {
				return nil, err
			}
			out.Raw[k] = b
		}
	}
	return json.Marshal(out)
}

// StratumCounts are the fates of a stratum's candidates. Its JSON form
// names the candidates that gave no unit by the task's noun.
type StratumCounts struct {
	// Fragment is the stratum's fragment in a joint build.
	Fragment   string
	Key        string
	Candidates int
	Accepted   int
	// NoUnit counts candidates for which no draw of the stratum gave a
	// unit within the task's bounds.
	NoUnit             int
	DuplicatesExact    int
	DuplicatesRenaming int
	// AfterFull counts the candidates of the stratum's turn that came
	// after it was full: not drawn, or drawn by a worker ahead and
	// dropped.
	AfterFull int
	// CanonFallbacks counts accepted units whose instance's canonical
	// form hit the search cap; only an exact copy of them would have been
	// caught.
	CanonFallbacks int
	noun           string
}

// MarshalJSON writes the counts, the units' noun in the key of NoUnit.
func (c StratumCounts) MarshalJSON() ([]byte, error) {
	fs := []field{{"key", c.Key}}
	if c.Fragment != "" {
		fs = []field{{"fragment", c.Fragment}, {"key", c.Key}}
	}
	return marshalOrdered(append(fs, []field{{"candidates", c.Candidates}, {"accepted", c.Accepted},
		{"no_" + c.noun, c.NoUnit}, {"duplicates_exact", c.DuplicatesExact}, {"duplicates_renaming", c.DuplicatesRenaming},
		{"after_full", c.AfterFull}, {"canon_fallbacks", c.CanonFallbacks}}...))
}

// UnmarshalJSON reads the counts as MarshalJSON writes them.
func (c *StratumCounts) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*c = StratumCounts{}
	for k, v := range m {
		dst := map[string]any{"fragment": &c.Fragment, "key": &c.Key, "candidates": &c.Candidates, "accepted": &c.Accepted,
			"duplicates_exact": &c.DuplicatesExact, "duplicates_renaming": &c.DuplicatesRenaming,
			"after_full": &c.AfterFull, "canon_fallbacks": &c.CanonFallbacks}[k]
		if dst == nil && strings.HasPrefix(k, "no_") {
			c.noun, dst = strings.TrimPrefix(k, "no_"), &c.NoUnit
		}
		if dst == nil {
			continue
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return fmt.Errorf("stratum counts %s: %w", k, err)
		}
	}
	return nil
}

// collector accepts candidates in index order until every stratum holds
// its quota of units.
type collector struct {
	task    Task
	plan    *Plan
	store   *job.Store
	counts  []StratumCounts
	mu      sync.Mutex
	full    []bool // read by workers: a full stratum stays full
	left    int    // strata not yet full
	lines   [][]lineRef
	exact   map[[32]byte]bool
	renamed map[[32]byte]bool
	onAdd   func(accepted, total int)
	// drawer is the task that draws the candidates (see pilot), fitted
	// on the first draw.
	drawer drawer
}

// lineRef is where an accepted unit's line is in the part.
type lineRef struct {
	off int64
	n   int
}

// buildState is a build's checkpoint: the counts per stratum; the
// accepted units are the part's lines.
type buildState struct {
	Strata []StratumCounts `json:"strata"`
}

func newCollector(t Task, p *Plan, store *job.Store) (*collector, error) {
	c := &collector{task: t, plan: p, store: store, full: make([]bool, len(p.Strata)), lines: make([][]lineRef, len(p.Strata)),
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
	for k := range c.counts {
		c.counts[k].noun = t.Unit()
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

// reload reads back the units accepted before the checkpoint.
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

// draw is item i: a unit for stratum i mod len(Strata), drawn with
// (seed ⊕ the task's draw stream, i) alone. A stratum already full is
// skipped without drawing: it stays full, so emit would reject the
// candidate whatever it held.
func (c *collector) draw(ctx context.Context, b solver.Backend, i int) (candidate, error) {
	p := c.plan
	s := i % len(p.Strata)
	cd := candidate{I: i, Stratum: s}
	if c.isFull(s) {
		cd.Skipped = true
		return cd, nil
	}
	t, err := c.drawer.get(ctx)
	if err != nil {
		return cd, err
	}
	drawStream, _, _ := t.Streams()
	recs, keyed, err := drawUnit(ctx, t, b, p, drawStream, i)
	switch {
	case errors.Is(err, ErrNoUnit):
		cd.None = true
		return cd, nil
	case err != nil:
		return cd, fmt.Errorf("candidate %s: %w", dataset.SeedString(p.Seed, i), err)
	}
	if p.Joint() {
		// The same sentences drawn for two fragments are one instance.
		keyed.Fragment = fragments.A
	}
	form := canon.Canonical(keyed)
	cd.Exact, cd.Renamed, cd.Capped = []byte(canon.ExactKey(keyed)), []byte(form.Key), form.Capped
	cd.Records = recs
	return cd, nil
}

// emit accepts or rejects candidate i, in index order, and stops the
// stream once every stratum is full.
func (c *collector) emit(_, i int, cd candidate) (bool, error) {
	s := cd.Stratum
	ct := &c.counts[s]
	q := c.plan.quota(s)
	noun := c.task.Unit()
	if len(c.lines[s]) >= q {
		ct.AfterFull++
		return false, nil
	}
	ct.Candidates++
	switch {
	case ct.Candidates > c.plan.DrawLimit*q:
		return true, &DrawLimitError{Stratum: c.stratumName(s), Candidates: ct.Candidates - 1, Units: len(c.lines[s]), Quota: q,
			NoUnit: ct.NoUnit, Duplicates: ct.DuplicatesExact + ct.DuplicatesRenaming, noun: noun}
	case cd.Skipped:
		return true, fmt.Errorf("candidate %d of stratum %s was skipped while the stratum was not full", i, c.stratumName(s))
	case cd.Beyond:
		return true, &ShortError{Stratum: c.stratumName(s), Drawn: i / len(c.plan.Strata), Units: len(c.lines[s]), Quota: q, noun: noun}
	case cd.None:
		ct.NoUnit++
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
		c.onAdd(c.accepted(), c.plan.Units())
	}
	return c.left == 0, nil
}

// DrawLimitError is a build's failure when a stratum's candidates
// reached the draw limit before it held its quota.
type DrawLimitError struct {
	Stratum                  string
	Candidates, Units, Quota int
	NoUnit, Duplicates       int
	noun                     string
}

func (e *DrawLimitError) Error() string {
	return fmt.Sprintf("stratum %s: %d candidates gave %d of its %d %ss (%d without a %s, %d duplicates); raise --draw-limit or choose another region",
		e.Stratum, e.Candidates, e.Units, e.Quota, e.noun, e.NoUnit, e.noun, e.Duplicates)
}

// stratumName names stratum s in messages: its key, after its fragment
// in a joint build.
func (c *collector) stratumName(s int) string {
	if f := c.plan.Strata[s].Fragment; f != "" {
		return f + " " + c.plan.Strata[s].Key
	}
	return c.plan.Strata[s].Key
}

// accepted is the number of units accepted so far.
func (c *collector) accepted() int {
	n := 0
	for _, ls := range c.lines {
		n += len(ls)
	}
	return n
}

// unit reads back an accepted unit's records.
func (c *collector) unit(ref lineRef) ([]Record, error) {
	buf := make([]byte, ref.n)
	part := c.store.Part(0)
	if _, err := part.ReadAt(buf, ref.off); err != nil {
		return nil, fmt.Errorf("%s: %w", part.Name, err)
	}
	var cd candidate
	if err := json.Unmarshal(buf, &cd); err != nil {
		return nil, fmt.Errorf("%s at byte %d: %w", part.Name, ref.off, err)
	}
	recs := make([]Record, len(cd.Raw))
	for k, b := range cd.Raw {
		recs[k] = c.task.NewRecord()
		if err := json.Unmarshal(b, recs[k]); err != nil {
			return nil, fmt.Errorf("%s at byte %d: %w", part.Name, ref.off, err)
		}
	}
	return recs, nil
}

// config is the build's job: one stream of candidates, until every
// stratum is full.
func (c *collector) config(o Options) job.Config[solver.Backend, candidate] {
	return job.Config[solver.Backend, candidate]{
		Streams: []job.Stream{{Name: candidateStream, Limit: -1}},
		Workers: o.Workers, New: o.NewBackend, Close: solver.Close,
		Do:    func(ctx context.Context, b solver.Backend, _, i int) (candidate, error) { return c.draw(ctx, b, i) },
		Emit:  c.emit,
		Store: c.store, Every: o.CheckpointEvery,
		State: func() any { return buildState{Strata: c.counts} },
	}
}

// workParts are the part files of a build's store in its work
// directory.
func workParts(dir string, t Task) []string {
	return []string{filepath.Join(dir, workDir, t.Unit()+"s.jsonl")}
}
