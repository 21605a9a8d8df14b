package split

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/job"
)

// stateFile is the checkpoint's name in the work directory.
const stateFile = "state.json"

// state is the build's own part of its checkpoint: every counter the
// manifest reports, and the surface-balance models. Where the candidate
// streams stand and how much of each file is valid is the job store's.
type state struct {
	Pools []poolState `json:"pools"`
}

type poolState struct {
	Strata []stratumState `json:"strata"`
	// Models are the surface-balance models, once the pilot has fitted
	// them. They do not change after the fit, and they are large, so they
	// are written once, to ModelsFile in the work directory, and the
	// checkpoint, saved every few seconds, names the file (encoding them
	// into every checkpoint took 5% of the CPU of an A build).
	Models     *balanceModels `json:"-"`
	ModelsFile string         `json:"models_file,omitempty"`
	// ResidualFile names the file of the residual stage (Models.Residual,
	// JSON null when its pilot kept too few of a label) once its pilot
	// has fitted it. It is a file of its own, written after ModelsFile,
	// so that a build killed between the two fits it again from the same
	// models.
	ResidualFile string `json:"residual_file,omitempty"`
}

// saveModels writes pool k's models to their file in the work directory;
// the next checkpoint names it.
func (b *builder) saveModels(k int) error {
	return b.saveWork(fmt.Sprintf("models-%d", k), b.st.Pools[k].Models, &b.st.Pools[k].ModelsFile)
}

// saveResidual writes pool k's residual stage to its file in the work
// directory; the next checkpoint names it.
func (b *builder) saveResidual(k int) error {
	return b.saveWork(fmt.Sprintf("residual-%d", k), b.st.Pools[k].Models.Residual, &b.st.Pools[k].ResidualFile)
}

// packedExt ends the name of a work file written by saveWork.
const packedExt = ".packed.gz"

// saveWork writes v, a pointer, packed (packed.go) and gzip-compressed,
// to the file name+packedExt in the work directory and, once it is
// written, sets *file to that name. (The merge of a sharded build copies
// the models beside its shards.)
func (b *builder) saveWork(name string, v any, file *string) error {
	data, err := pack(v)
	if err != nil {
		return err
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
	w.Write(data)
	if err := w.Close(); err != nil {
		return err
	}
	name += packedExt
	if err := writeFileAtomic(filepath.Join(b.opt.Dir, workDir, name), z.Bytes()); err != nil {
		return err
	}
	*file = name
	return nil
}

// loadModels reads the models of the pools whose files the checkpoint
// names, from the work directory work.
func (st *state) loadModels(work string) error {
	for k := range st.Pools {
		ps := &st.Pools[k]
		if ps.ModelsFile == "" {
			continue
		}
		ps.Models = new(balanceModels)
		if err := readWork(work, ps.ModelsFile, "the surface-balance models", ps.Models); err != nil {
			return err
		}
		if ps.ResidualFile == "" {
			continue
		}
		if err := readWork(work, ps.ResidualFile, "the residual stage", &ps.Models.Residual); err != nil {
			return err
		}
	}
	return nil
}

// readWork reads into v the file of the work directory work that the
// checkpoint names for what: packed where its name ends in packedExt
// (saveWork), else JSON, gzip-compressed where its name ends in ".gz" and
// plain where it does not (as earlier versions wrote it).
func readWork(work, file, what string, v any) error {
	name := filepath.Join(work, file)
	data, err := os.ReadFile(name)
	if err != nil {
		return inputerr.Errorf("cannot resume: the checkpoint names %s in %s: %w", what, name, err)
	}
	if strings.HasSuffix(file, ".gz") {
		z, err := gzip.NewReader(bytes.NewReader(data))
		if err == nil {
			data, err = io.ReadAll(z)
		}
		if err != nil {
			return inputerr.Errorf("cannot resume: %s: %w", name, err)
		}
	}
	if strings.HasSuffix(file, packedExt) {
		err = unpack(data, v)
	} else {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		return inputerr.Errorf("cannot resume: %s: %w", name, err)
	}
	return nil
}

// stratumState counts the candidates of one stratum. Fill holds, per
// split, the accepted [unsat, sat] instances.
type stratumState struct {
	Fill        [][2]int       `json:"fill"`
	Drawn       int            `json:"drawn"`
	Unknown     map[string]int `json:"unknown"`
	LabelFull   int            `json:"label_full"`
	Thinned     int            `json:"thinned"`
	HeldOut     int            `json:"held_out"`
	DupExact    int            `json:"duplicates_exact"`
	DupRenaming int            `json:"duplicates_renaming"`
	// CanonFallbacks counts accepted instances whose canonical form was
	// too costly to find; their renaming key is the exact one, so a
	// renamed copy of them could have gone unnoticed.
	CanonFallbacks int `json:"canon_fallbacks"`
}

func newState(p *Plan) *state {
	st := &state{}
	for _, pl := range p.Pools {
		ps := poolState{Strata: make([]stratumState, len(pl.Strata))}
		for s := range ps.Strata {
			ps.Strata[s].Fill = make([][2]int, len(pl.Splits))
		}
		st.Pools = append(st.Pools, ps)
	}
	return st
}

// parts lists the files of the work directory: one per split file, in
// plan order across pools, then the keys of the collected candidates, then
// per pool the spill file of its collected candidates.
func parts(p *Plan, work string) []string {
	var out []string
	for _, df := range p.dataFiles() {
		out = append(out, filepath.Join(work, df.split.Name+".jsonl"))
	}
	out = append(out, filepath.Join(work, "keys"))
	for _, pl := range p.Pools {
		out = append(out, filepath.Join(work, pl.Name+"-collected.jsonl"))
	}
	return out
}

// open prepares the output directory: it resumes an unfinished build of
// the same plan, refuses one of another plan, and refuses a directory that
// already holds other files unless forced.
func open(p *Plan, o Options, sharded bool) (*builder, error) {
	if err := atomicfile.RemoveStaleTemps(o.Dir, ""); err != nil {
		return nil, err
	}
	work := filepath.Join(o.Dir, workDir)
	ckpt := filepath.Join(work, stateFile)
	fresh := !exists(ckpt)
	if fresh {
		if err := checkEmpty(p, o); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(work, 0o755); err != nil {
			return nil, inputerr.Errorf("cannot write %s: %w", o.Dir, err)
		}
	}
	digest := p.Digest()
	if sharded {
		digest += "/merge" // the merge lays its streams out otherwise
	}
	store, err := job.OpenStore(ckpt, digest, parts(p, work))
	if err != nil {
		return nil, err
	}
	st := newState(p)
	b, err := func() (*builder, error) {
		if err := store.State(st); err != nil {
			return nil, err
		}
		if err := st.loadModels(work); err != nil {
			return nil, err
		}
		b, err := newBuilder(p, o, st, sharded)
		if err != nil {
			return nil, err
		}
		b.store = store
		if err := b.loadKeys(); err != nil {
			return nil, err
		}
		// The pool in progress gets back what it had collected; the
		// pools before it, full, when a joint file needs them.
		pos := store.Position()
		for k, a := range b.acceptors {
			a.stale = b.streamIndex(candidateKind, k) < pos.Stream
		}
		if s := pos.Stream; s < len(b.refs) && b.refs[s].kind == candidateKind {
			return b, b.acceptors[b.refs[s].k].reload()
		}
		return b, nil
	}()
	if err != nil {
		store.Close()
		return nil, err
	}
	switch {
	case fresh:
		// From now on a killed build resumes: the pilot can run long
		// before the first checkpoint would come.
		err = store.Save(store.Position(), st)
	case o.Log != nil:
		o.Log("resuming the unfinished build in %s (%d candidates collected before it stopped)", o.Dir, store.Part(b.keysPart()).Rows())
	}
	if err != nil {
		store.Close()
		return nil, err
	}
	return b, nil
}

// checkEmpty refuses an output directory that holds anything but an empty
// work directory, unless forced; a complete build of the same plan is
// reported as ErrAlreadyBuilt.
func checkEmpty(p *Plan, o Options) error {
	entries, err := os.ReadDir(o.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return inputerr.Errorf("cannot read %s: %w", o.Dir, err)
	}
	if len(entries) == 1 && entries[0].Name() == workDir {
		// A build killed before its first checkpoint: nothing in it was
		// recorded, so start afresh.
		return os.RemoveAll(filepath.Join(o.Dir, workDir))
	}
	if len(entries) == 0 || o.Force {
		return nil
	}
	if m, err := ReadManifest(filepath.Join(o.Dir, ManifestFile)); err == nil && m.PlanDigest == p.Digest() && m.Format == o.Output.FormatName() && m.Fields == o.Output.FieldsName() {
		if err := Verify(o.Dir); err == nil {
			os.Remove(filepath.Join(o.Dir, workDir)) // left empty by a kill at the very end
			return ErrAlreadyBuilt
		}
	}
	return inputerr.Errorf("%s is not empty; choose another --out or pass --force to write into it", o.Dir)
}

// loadKeys reads the keys of the instances accepted before the checkpoint.
func (b *builder) loadKeys() error {
	part := b.store.Part(b.keysPart())
	if part.Rows() == 0 {
		return nil
	}
	f, err := os.Open(part.Name)
	if err != nil {
		return err
	}
	defer f.Close()
	data := make([]byte, 64*part.Rows())
	if _, err := io.ReadFull(f, data); err != nil {
		return fmt.Errorf("%s: %w", part.Name, err)
	}
	for i := 0; i < len(data); i += 64 {
		b.exact[keyOf([32]byte(data[i:i+32]))] = struct{}{}
		if b.plan.Dedup == DedupRenaming {
			b.renamed[keyOf([32]byte(data[i+32:i+64]))] = struct{}{}
		}
	}
	return nil
}

// writeFileAtomic writes data to name through a synced temporary file and
// a rename.
var writeFileAtomic = atomicfile.WriteFile

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
