package units

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/split"
)

// workDir is the directory, inside the output directory, that holds an
// unfinished build: the accepted units so far and the checkpoint.
const workDir = ".nlsat-build"

// Options are the run-time settings of a build; they do not change its
// output.
type Options struct {
	Dir        string // output directory
	Workers    int    // 0: all cores
	NewBackend func() (solver.Backend, error)
	// Progress (optional) is called after every accepted unit with the
	// units accepted and their total (in a shard: after every candidate
	// drawn, with how far the shard is through its share of the stream
	// and the share's length).
	Progress func(accepted, total int)
	// PilotProgress (optional) is called after every unit of a Piloted
	// task's pilot with the stage ("pilot" or "residual pilot"), the
	// units drawn and the pilot's size.
	PilotProgress func(stage string, done, total int)
	// Log (optional) receives messages about the build (resuming, the
	// pilot).
	Log             func(format string, a ...any)
	CheckpointEvery time.Duration
	Toolkit         job.Toolkit
	// Command reproduces the build but for its output format (whose
	// flags Build adds), for the manifest and the card.
	Command string
	License string
	// Force allows writing into a directory that already holds files.
	Force bool
	// Output is the split files' format; the minimal layout is refused.
	Output dataset.Output
	// Audit audits the finished data for the manifest when the plan asks
	// for it, as split.Options.Audit does.
	Audit split.AuditFunc
}

// Build builds the dataset of task t's plan p into o.Dir, resuming an
// unfinished build of the same plan there. It returns
// split.ErrAlreadyBuilt if o.Dir holds it complete and intact.
func Build(ctx context.Context, t Task, p *Plan, o Options) (*Manifest, error) {
	if o.NewBackend == nil {
		return nil, inputerr.Errorf("the %s task needs a solver; drop --solver none", t.Name())
	}
	return build(ctx, t, p, o, nil)
}

// build builds p, drawing the candidates, or with src reading them from
// the shards of a sharded build.
func build(ctx context.Context, t Task, p *Plan, o Options, src *job.Shards) (*Manifest, error) {
	if o.Output.Minimal {
		return nil, inputerr.Errorf("the %s task has no minimal layout; drop --fields minimal", t.Name())
	}
	o.Output.Row = t.Row()
	if err := checkEmpty(t, p, o); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(o.Dir, workDir), 0o755); err != nil {
		return nil, inputerr.Errorf("cannot create %s: %w", o.Dir, err)
	}
	store, err := job.OpenStore(filepath.Join(o.Dir, workDir, "checkpoint.json"), p.Digest(), workParts(o.Dir, t))
	if err != nil {
		return nil, err
	}
	defer store.Close()
	c, err := newCollector(t, p, store)
	if err != nil {
		return nil, err
	}
	if store.Resumed() && o.Log != nil {
		o.Log("resuming %s at candidate %d (%d of %d %ss accepted)", o.Dir, store.Position().Next, c.accepted(), p.Units(), t.Unit())
	}
	c.onAdd = o.Progress
	c.drawer = drawer{task: t, plan: p, opt: o}
	if c.left > 0 {
		cfg := c.config(o)
		if src != nil {
			cfg.Source = src
			cfg.Streams[0].Stratify(p.budgets(src.Manifest.Oversample))
			cfg.Missing = c.missing(cfg.Streams[0], src)
		}
		if err := job.Run(ctx, cfg); err != nil {
			return nil, err
		}
	}
	return c.finish(ctx, o)
}

// checkEmpty refuses an output directory that holds other files, unless
// o.Force, and reports split.ErrAlreadyBuilt for this very build.
func checkEmpty(t Task, p *Plan, o Options) error {
	entries, err := os.ReadDir(o.Dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return inputerr.Errorf("cannot read %s: %w", o.Dir, err)
	case len(entries) == 0 || o.Force:
		return nil
	}
	if _, err := os.Stat(filepath.Join(o.Dir, workDir, "checkpoint.json")); err == nil {
		return nil // an unfinished build, resumed if its plan is this one
	}
	if len(entries) == 1 && entries[0].Name() == workDir {
		// A build killed before its first checkpoint: nothing in it was
		// recorded, so start afresh.
		return os.RemoveAll(filepath.Join(o.Dir, workDir))
	}
	if m, err := ReadManifest(t, filepath.Join(o.Dir, split.ManifestFile)); err == nil && m.PlanDigest == p.Digest() && m.Format == o.Output.FormatName() {
		if split.Verify(o.Dir) == nil {
			return split.ErrAlreadyBuilt
		}
	}
	return inputerr.Errorf("%s is not empty; choose another --out or pass --force to write into it", o.Dir)
}

// member is one record of a split: the unit (its line in the part) and
// which of its records.
type member struct {
	ref lineRef
	k   int
	// class is the record's label (Task.Describe), which the order
	// reads.
	class int8
}

// assign deals each stratum's accepted units, in a seeded order, to the
// splits by their quotas, and orders each split's records by another
// seeded shuffle. Units never cross splits, so no instance that
// identifies one is in two splits.
func (c *collector) assign() ([][]member, error) {
	p := c.plan
	_, assignStream, orderStream := c.task.Streams()
	k := len(c.task.Classes())
	out := make([][]member, len(p.Splits))
	for s, refs := range c.lines {
		rng := rand.New(rand.NewPCG(p.Seed^assignStream, uint64(s)))
		perm := rng.Perm(len(refs))
		next := 0
		for j, sp := range p.Splits {
			for range sp.Units[s] {
				for r := range k {
					out[j] = append(out[j], member{ref: refs[perm[next]], k: r})
				}
				next++
			}
		}
	}
	for j := range out {
		// A unit's k records are consecutive until the shuffle.
		for i := 0; i < len(out[j]); i += k {
			recs, err := c.unit(out[j][i].ref)
			if err != nil {
				return nil, err
			}
			for r := range k {
				class, _, _ := c.task.Describe(recs[out[j][i+r].k])
				out[j][i+r].class = int8(class)
			}
		}
		out[j] = nearChanceShuffle(p.Seed^orderStream, uint64(j), out[j], k)
	}
	return out, nil
}

// nearChanceShuffle returns the members ms of split j (their labels 0
// to classes-1) in a seeded random order whose labels do not come in
// runs: in a split of dataset.OrderMinRecords or more, records Lag
// apart share their label within dataset.OrderTolerance of chance at
// every lag up to dataset.OrderMaxLag. A 600-record entailment split's
// agreement at a lag varies by 1.9 points by chance, so some lag of a
// plain shuffle often lay outside the band. The shuffle is drawn again,
// from the seed, j and the number of the try (dataset.NearChanceOrder).
func nearChanceShuffle(seed, j uint64, ms []member, classes int) []member {
	return dataset.NearChanceOrder(classes, func(m member) int8 { return m.class }, func(try int) []member {
		out := slices.Clone(ms)
		rng := rand.New(rand.NewPCG(seed, j+uint64(try)<<32))
		rng.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
		return out
	})
}

// writeSplits writes every split as JSONL into dir/data, numbering the
// records in the order written, and returns their reports (checksums
// filled in later).
func (c *collector) writeSplits(dir string) ([]FileReport, error) {
	p := c.plan
	names := c.task.Classes()
	digest := p.Digest()
	n := 0
	var reports []FileReport
	assigned, err := c.assign()
	if err != nil {
		return nil, err
	}
	for j, ms := range assigned {
		sp := p.Splits[j]
		fr := FileReport{Path: sp.File, Split: sp.Name, Labels: map[string]int{}}
		byStratum := map[string]map[string]int{}
		err := atomicfile.Write(filepath.Join(dir, filepath.FromSlash(sp.File)), func(w io.Writer) error {
			enc := dataset.NewEncoder(w)
			for _, m := range ms {
				recs, err := c.unit(m.ref)
				if err != nil {
					return err
				}
				r := recs[m.k]
				class, frag, pt := c.task.Describe(r)
				r.SetID(dataset.FormatID(frag, digest, n))
				n++
				r.Normalize()
				if err := enc.EncodeValue(r); err != nil {
					return err
				}
				fr.Rows++
				fr.Labels[names[class]]++
				key := p.labelsKey(frag, pt.Key())
				if byStratum[key] == nil {
					byStratum[key] = map[string]int{}
				}
				byStratum[key][names[class]]++
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, st := range p.Strata {
			if ls := byStratum[p.labelsKey(st.Fragment, st.Key)]; ls != nil {
				fr.Strata = append(fr.Strata, StratumLabels{Fragment: st.Fragment, Key: st.Key, Labels: ls})
			}
		}
		reports = append(reports, fr)
	}
	return reports, nil
}

// labelsKey is the key of a stratum's label counts in writeSplits: its
// key, after its fragment in a joint build.
func (p *Plan) labelsKey(fragment, key string) string {
	if p.Joint() {
		return fragment + " " + key
	}
	return key
}

// checkBalance checks what the files must hold: every split its size,
// and every stratum of every split the classes equally.
func checkBalance(t Task, p *Plan, files []FileReport) error {
	names := t.Classes()
	for j, fr := range files {
		if fr.Rows != p.Splits[j].Size {
			return fmt.Errorf("%s holds %d records, not %d", fr.Path, fr.Rows, p.Splits[j].Size)
		}
		for _, st := range fr.Strata {
			ls := st.Labels
			equal := len(ls) == len(names)
			for _, name := range names {
				equal = equal && ls[name] == ls[names[0]]
			}
			if !equal {
				return fmt.Errorf("%s: stratum %s holds the labels %v, not %s each", fr.Path, strings.TrimSpace(st.Fragment+" "+st.Key), ls, share(len(names)))
			}
		}
	}
	return nil
}

// share names the share of k classes in words.
func share(k int) string {
	switch k {
	case 2:
		return "a half"
	case 3:
		return "a third"
	case 4:
		return "a quarter"
	}
	return fmt.Sprintf("1/%d", k)
}
