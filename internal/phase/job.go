package phase

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/solver"
)

// Plan is everything that decides one fragment's sweep files. Its JSON
// form identifies a sweep for checkpoints and travels in shard manifests.
type Plan struct {
	Fragment   string                  `json:"fragment"`
	Points     []Point                 `json:"points"`
	Samples    int                     `json:"samples"`
	Budget     int                     `json:"budget"`
	Band       Band                    `json:"band"`
	Seed       uint64                  `json:"seed"`
	Sampler    fragments.SamplerParams `json:"sampler"`
	FixedN2    int                     `json:"fixed_n2"`
	Solver     string                  `json:"solver"`
	SolverName string                  `json:"solver_name"`
	Timeout    string                  `json:"timeout"`
	// Labeller, when set, describes a labeller other than the solver's
	// own answers (backends.PaperLabeller); it goes into region.json.
	Labeller string `json:"labeller,omitempty"`
	// Vocabulary is the words drawn from, when not the built-in ones.
	Vocabulary *fragments.Lexicon `json:"vocabulary,omitempty"`
}

// Frag returns the plan's fragment.
func (p *Plan) Frag() fragments.Fragment {
	f, _ := fragments.ParseFragment(p.Fragment)
	return f
}

// Digest identifies the plan.
func (p *Plan) Digest() string {
	data, _ := json.Marshal(p)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Config returns the estimation settings of the plan.
func (p *Plan) Config() Config {
	return Config{Fragment: p.Frag(), Params: p.Sampler.WithLexicon(p.Vocabulary), Points: p.Points, Samples: p.Samples, Budget: p.Budget, Band: p.Band, Seed: p.Seed}
}

// RunOptions are the run-time settings of a sweep; they do not change its
// counts.
type RunOptions struct {
	Workers    int
	NewBackend func() (solver.Backend, error)
	// Every is the time between checkpoints (0: job.DefaultEvery).
	Every time.Duration
	// Progress (optional) is told of every instance decided.
	Progress func(solver.Status)
	// Started (optional) is told, before any work, how many instances a
	// resumed sweep decided before it stopped (Done), so that progress
	// starts from there.
	Started func(done int)
	// Log (optional) receives messages: resuming, and each fragment's
	// summary.
	Log func(format string, a ...any)
	// Version is the toolkit's, for region files.
	Version string
}

// sweep is a sweep of one or more fragments as a job: one stream per
// plan, one item per point, its final estimate.
type sweep struct {
	plans []Plan
	opt   RunOptions
	mu    sync.Mutex // serialises Progress, called from workers
	recs  []Record   // of the current stream, in point order
	// write, when set, is called with each fragment's records at its end.
	write func(k int, recs []Record, took time.Duration) error
	start time.Time
}

func (s *sweep) config(store *job.Store) job.Config[solver.Backend, Record] {
	streams := make([]job.Stream, len(s.plans))
	for k, p := range s.plans {
		streams[k] = job.Stream{Name: p.Fragment, Limit: len(p.Points), ShardLimit: len(p.Points)}
	}
	cfgs := make([]Config, len(s.plans))
	for k := range s.plans {
		cfgs[k] = s.plans[k].Config()
	}
	return job.Config[solver.Backend, Record]{
		Streams: streams, Workers: s.opt.Workers, New: s.opt.NewBackend, Close: solver.Close,
		Do: func(ctx context.Context, b solver.Backend, k, i int) (Record, error) {
			e, err := cfgs[k].Estimate(ctx, b, cfgs[k].Points[i], s.progress)
			return e.Record(), err
		},
		Emit: func(_, _ int, r Record) (bool, error) { s.recs = append(s.recs, r); return false, nil },
		End: func(k int) error {
			recs := s.recs
			s.recs = nil
			if s.write == nil {
				return nil
			}
			err := s.write(k, recs, time.Since(s.start))
			s.start = time.Now()
			return err
		},
		Store: store, Every: s.opt.Every,
		State: func() any { return s.recs },
	}
}

func (s *sweep) progress(st solver.Status) {
	if s.opt.Progress != nil {
		s.mu.Lock()
		s.opt.Progress(st)
		s.mu.Unlock()
	}
}

// Estimates sweeps the points of cfg in memory and returns their
// estimates in order.
func Estimates(ctx context.Context, cfg Config, o RunOptions) ([]Estimate, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	p := Plan{Fragment: cfg.Fragment.String(), Points: cfg.Points, Samples: cfg.Samples, Budget: cfg.Budget, Band: cfg.Band,
		Seed: cfg.Seed, Sampler: cfg.Params.SamplerParams, Vocabulary: cfg.Params.Lexicon}
	s := &sweep{plans: []Plan{p}, opt: o}
	var es []Estimate
	s.write = func(_ int, recs []Record, _ time.Duration) error {
		for _, r := range recs {
			es = append(es, r.Estimate(cfg.Fragment, cfg.Band))
		}
		return nil
	}
	err := job.Run(ctx, s.config(nil))
	return es, err
}

// checkpointFile is the name of a sweep's checkpoint in its directory.
const checkpointFile = ".phase-sweep.checkpoint.json"

// Run sweeps the plans and writes each fragment's files (WriteSweep) into
// dir, or with several plans into dir/FRAGMENT, as the fragment is done,
// and at the end the multi-panel figures of them all into dir
// (WritePaperFigures).
// It checkpoints into dir and resumes an unfinished sweep of the same
// plans found there. A directory that a finished sweep of the same plans
// wrote, every file intact (its done stamp, job.DoneDir), is left as it
// is: Run returns job.ErrDone.
func Run(ctx context.Context, dir string, plans []Plan, o RunOptions) error {
	if job.IsDone(job.DoneDir(dir), digest(plans)) {
		return job.ErrDone
	}
	if err := mkdir(dir); err != nil {
		return err
	}
	if err := atomicfile.RemoveStaleTemps(dir, ""); err != nil {
		return err
	}
	store, err := job.OpenStore(filepath.Join(dir, checkpointFile), digest(plans), nil)
	if err != nil {
		return err
	}
	defer store.Close()
	s := &sweep{plans: plans, opt: o, start: time.Now()}
	s.write = func(k int, recs []Record, took time.Duration) error { return s.writeFiles(dir, k, recs, took) }
	if err := store.State(&s.recs); err != nil {
		return err
	}
	if store.Resumed() && o.Log != nil {
		pos := store.Position()
		if pos.Stream < len(plans) {
			o.Log("fragment %s: resuming with %d of %d points done", plans[pos.Stream].Fragment, pos.Next, len(plans[pos.Stream].Points))
		}
	}
	if o.Started != nil {
		o.Started(Done(plans, store.Position(), s.recs))
	}
	if err := job.Run(ctx, s.config(store)); err != nil {
		return err
	}
	if err := writePaperFigures(dir, plans); err != nil {
		return err
	}
	if err := store.Commit(nil); err != nil {
		return err
	}
	return stampDone(dir, plans)
}

// Done counts the instances of the points a sweep has finished when it
// stands at pos with recs, the records of its current fragment: every
// sample of the fragments before (with a Budget, their first Samples per
// point, since their records are written out) and those of recs.
func Done(plans []Plan, pos job.Position, recs []Record) int {
	n := 0
	for k := range min(pos.Stream, len(plans)) {
		n += len(plans[k].Points) * plans[k].Samples
	}
	for _, r := range recs {
		n += r.N
	}
	return n
}

// writeFiles writes the files of plan k from its records.
func (s *sweep) writeFiles(dir string, k int, recs []Record, took time.Duration) error {
	if len(s.plans) > 1 {
		dir = filepath.Join(dir, s.plans[k].Fragment)
	}
	p := &s.plans[k]
	cfg := p.Config()
	es := make([]Estimate, len(recs))
	for i, r := range recs {
		es[i] = r.Estimate(cfg.Fragment, cfg.Band)
	}
	region := NewRegion(cfg, es, s.opt.Version, p.SolverName)
	region.Labeller = p.Labeller
	if err := mkdir(dir); err != nil {
		return err
	}
	if err := atomicfile.RemoveStaleTemps(dir, ""); err != nil {
		return err
	}
	if err := WriteSweep(dir, es, region, p.FixedN2); err != nil {
		return err
	}
	if s.opt.Log != nil {
		s.report(cfg.Fragment, es, region, took)
	}
	return nil
}

// report logs a summary of one fragment's sweep.
func (s *sweep) report(f fragments.Fragment, es []Estimate, region *Region, took time.Duration) {
	n := 0
	for _, e := range es {
		n += e.N
	}
	s.opt.Log("fragment %s: %d points, %d instances in %s; %d points in the band [%v, %v]",
		f, len(es), n, took.Round(time.Millisecond), len(region.Points), region.Band.Lo, region.Band.Hi)
	if c := Crossings(es); len(c) > 0 {
		m := SummarizeCrossings(c)
		s.opt.Log("fragment %s: P(sat) = 0.5 at median α %.2f, β %.2f, m %.1f over %d curves", f, m.Alpha, m.Beta, m.M, len(c))
	}
}

// mkdir creates a directory for the sweep's files.
func mkdir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return inputerr.Errorf("cannot create %s: %v", dir, err)
	}
	return nil
}

// digest identifies a sweep of several plans.
func digest(plans []Plan) string {
	d := ""
	for _, p := range plans {
		d += p.Digest()
	}
	sum := sha256.Sum256([]byte(d))
	return hex.EncodeToString(sum[:])
}

// Kind is the kind of job in a phase-sweep shard's manifest.
const Kind = "phase-sweep"

// RunShard estimates the points i ≡ slot.Index (mod slot.Count) of every
// plan into dir; m gives the manifest's toolkit and command.
func RunShard(ctx context.Context, dir string, plans []Plan, slot job.Slot, m job.Manifest, o RunOptions) error {
	s := &sweep{plans: plans, opt: o}
	data, _ := json.Marshal(plans)
	m.Kind, m.Digest, m.Plan, m.Index, m.Count = Kind, digest(plans), data, slot.Index, slot.Count
	_, err := job.RunShard(ctx, s.config(nil), dir, m, true)
	return err
}

// Merge writes into dir the files of the whole sweep whose shards src
// holds, as Run writes them.
func Merge(ctx context.Context, src *job.Shards, dir string, o RunOptions) error {
	var plans []Plan
	if err := json.Unmarshal(src.Manifest.Plan, &plans); err != nil || digest(plans) != src.Manifest.Digest {
		return fmt.Errorf("%s: its plan does not match its digest", filepath.Join(src.Dirs[0], job.ManifestFile))
	}
	s := &sweep{plans: plans, opt: o, start: time.Now()}
	s.write = func(k int, recs []Record, took time.Duration) error { return s.writeFiles(dir, k, recs, took) }
	c := s.config(nil)
	c.Source = src
	c.Missing = func(k, i int) (Record, error) {
		p := plans[k].Points[i]
		return Record{}, fmt.Errorf("fragment %s: no shard holds point m=%d n1=%d n2=%d", plans[k].Fragment, p.M, p.N1, p.N2)
	}
	if err := job.Run(ctx, c); err != nil {
		return err
	}
	if err := writePaperFigures(dir, plans); err != nil {
		return err
	}
	return stampDone(dir, plans)
}

// stampDone writes the done stamp of a finished sweep of plans in dir.
func stampDone(dir string, plans []Plan) error {
	files, err := job.DirFiles(dir)
	if err != nil {
		return err
	}
	return job.WriteDone(job.DoneDir(dir), digest(plans), files)
}

// writePaperFigures draws the multi-panel figures of the plans' sweep.
func writePaperFigures(dir string, plans []Plan) error {
	if len(plans) == 0 {
		return nil
	}
	return WritePaperFigures(dir, plans[0].FixedN2)
}
