package build

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/nlsat/nlsat/internal/dataset"
)

// stateFile is the checkpoint's name in the work directory.
const stateFile = "state.json"

// state is the checkpoint of a build: where the candidate stream stands,
// how much of each partial file is valid, and every counter the manifest
// reports. Everything after a checkpoint is recomputed on resume.
type state struct {
	Plan  string      `json:"plan"`
	Pool  int         `json:"pool"`
	Next  int         `json:"next"`
	Files []fileState `json:"files"`
	Keys  fileState   `json:"keys"`
	Pools []poolState `json:"pools"`
}

type fileState struct {
	Bytes int64 `json:"bytes"`
	Rows  int   `json:"rows"`
}

type poolState struct {
	Strata []stratumState `json:"strata"`
	// Models are the surface-balance models, once the pilot has fitted
	// them.
	Models *balanceModels `json:"models,omitempty"`
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

// partFile is a partial output file of the work directory.
type partFile struct {
	name string
	f    *os.File
	w    *bufio.Writer
	enc  *dataset.Encoder
	rows int
}

func newState(p *Plan) *state {
	st := &state{Plan: p.Digest()}
	for _, pl := range p.Pools {
		ps := poolState{Strata: make([]stratumState, len(pl.Strata))}
		for s := range ps.Strata {
			ps.Strata[s].Fill = make([][2]int, len(pl.Splits))
		}
		st.Pools = append(st.Pools, ps)
		for range pl.Splits {
			st.Files = append(st.Files, fileState{})
		}
	}
	return st
}

// open prepares the output directory: it resumes an unfinished build of the
// same plan, refuses one of another plan, and refuses a directory that
// already holds other files unless forced.
func open(p *Plan, o Options) (*builder, error) {
	if err := dataset.RemoveStaleTemps(o.Dir, ""); err != nil {
		return nil, err
	}
	b := &builder{plan: p, opt: o, work: filepath.Join(o.Dir, workDir),
		exact: map[[32]byte]struct{}{}, renamed: map[[32]byte]struct{}{}, last: time.Now()}
	st, err := readState(b.work)
	fresh := false
	switch {
	case err == nil:
		if st.Plan != p.Digest() {
			return nil, fmt.Errorf("%s holds an unfinished build of another configuration; run the same command as before to resume it, or remove %s to start afresh", o.Dir, b.work)
		}
		b.st = st
		if o.Log != nil {
			o.Log("resuming the unfinished build in %s (%d instances accepted before it stopped)", o.Dir, st.Keys.Rows)
		}
	case errors.Is(err, fs.ErrNotExist):
		if err := checkEmpty(p, o); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(b.work, 0o755); err != nil {
			return nil, fmt.Errorf("cannot write %s: %w", o.Dir, err)
		}
		b.st = newState(p)
		fresh = true
	default:
		return nil, err
	}
	if b.st.Pool >= len(p.Pools) {
		return b, nil // every set is full: only finishing is left
	}
	for k, pl := range p.Pools {
		for t, sp := range pl.Splits {
			fs := b.st.Files[b.splitBase(k)+t]
			pf, err := openPart(filepath.Join(b.work, sp.Name+".jsonl"), fs)
			if err != nil {
				b.close()
				return nil, err
			}
			b.files = append(b.files, pf)
		}
	}
	b.keys, err = openPart(filepath.Join(b.work, "keys"), b.st.Keys)
	if err != nil {
		b.close()
		return nil, err
	}
	if err := b.loadKeys(); err != nil {
		b.close()
		return nil, err
	}
	if fresh {
		// From now on a killed build resumes: the pilot can run long
		// before the first checkpoint would come.
		if err := b.checkpoint(); err != nil {
			b.close()
			return nil, err
		}
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
		return fmt.Errorf("cannot read %s: %w", o.Dir, err)
	}
	if len(entries) == 1 && entries[0].Name() == workDir {
		if _, err := os.Stat(filepath.Join(o.Dir, workDir, stateFile)); errors.Is(err, fs.ErrNotExist) {
			// A build killed before its first checkpoint: nothing in it
			// was recorded, so start afresh.
			if err := os.RemoveAll(filepath.Join(o.Dir, workDir)); err != nil {
				return err
			}
			return nil
		}
	}
	if len(entries) == 0 || o.Force {
		return nil
	}
	if m, err := ReadManifest(filepath.Join(o.Dir, ManifestFile)); err == nil && m.PlanDigest == p.Digest() {
		if err := Verify(o.Dir); err == nil {
			os.Remove(filepath.Join(o.Dir, workDir)) // left empty by a kill at the very end
			return ErrAlreadyBuilt
		}
	}
	return fmt.Errorf("%s is not empty; choose another --out or pass --force to write into it", o.Dir)
}

// openPart opens a partial file and cuts it to its checkpointed length.
func openPart(name string, fs fileState) (*partFile, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", name, err)
	}
	info, err := f.Stat()
	if err == nil && info.Size() < fs.Bytes {
		err = fmt.Errorf("%s is shorter (%d bytes) than its checkpoint says (%d); remove %s to start afresh", name, info.Size(), fs.Bytes, filepath.Dir(name))
	}
	if err == nil {
		err = f.Truncate(fs.Bytes)
	}
	if err == nil {
		_, err = f.Seek(fs.Bytes, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	return &partFile{name: name, f: f, w: w, enc: dataset.NewEncoder(w), rows: fs.Rows}, nil
}

// loadKeys reads the keys of the instances accepted before the checkpoint.
func (b *builder) loadKeys() error {
	if _, err := b.keys.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	r := bufio.NewReader(b.keys.f)
	var rec [64]byte
	for i := 0; i < b.keys.rows; i++ {
		if _, err := io.ReadFull(r, rec[:]); err != nil {
			return fmt.Errorf("%s: %w", b.keys.name, err)
		}
		b.exact[[32]byte(rec[:32])] = struct{}{}
		if b.plan.Dedup == DedupRenaming {
			b.renamed[[32]byte(rec[32:])] = struct{}{}
		}
	}
	_, err := b.keys.f.Seek(b.st.Keys.Bytes, io.SeekStart)
	return err
}

// flush writes and syncs every partial file and returns their lengths.
func (pf *partFile) flush() (fileState, error) {
	if err := pf.w.Flush(); err != nil {
		return fileState{}, fmt.Errorf("%s: %w", pf.name, err)
	}
	if err := pf.f.Sync(); err != nil {
		return fileState{}, fmt.Errorf("%s: %w", pf.name, err)
	}
	off, err := pf.f.Seek(0, io.SeekCurrent)
	return fileState{Bytes: off, Rows: pf.rows}, err
}

// checkpoint makes everything accepted so far durable and records it.
func (b *builder) checkpoint() error {
	if b.keys == nil {
		return nil // finishing: nothing is open
	}
	for i, pf := range b.files {
		fs, err := pf.flush()
		if err != nil {
			return err
		}
		b.st.Files[i] = fs
	}
	fs, err := b.keys.flush()
	if err != nil {
		return err
	}
	b.st.Keys = fs
	data, err := json.Marshal(b.st)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(b.work, stateFile), data); err != nil {
		return err
	}
	b.last = time.Now()
	return nil
}

func readState(work string) (*state, error) {
	data, err := os.ReadFile(filepath.Join(work, stateFile))
	if err != nil {
		return nil, err
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("%s: corrupt checkpoint (%v); remove %s to start afresh", filepath.Join(work, stateFile), err, work)
	}
	return &st, nil
}

// writeFileAtomic writes data to name through a synced temporary file and
// a rename.
func writeFileAtomic(name string, data []byte) error {
	f, err := dataset.CreateAtomic(name, nil)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

func (b *builder) close() {
	for _, pf := range append(b.files, b.keys) {
		if pf != nil {
			pf.f.Close()
		}
	}
	b.files, b.keys = nil, nil
}
