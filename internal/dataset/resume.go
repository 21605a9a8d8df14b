package dataset

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ResumableFile is an output file written over one or more runs. Until
// Commit it lives beside its target as a partial file (".NAME.partial")
// and a checkpoint (".NAME.checkpoint.json") that records how much of the
// partial file is valid, the caller's state at that point, and a digest of
// the configuration. A run that stops (an error, Ctrl-C, kill -9) leaves
// both; the next run with the same digest resumes from the checkpoint,
// cutting off whatever was written after it.
type ResumableFile struct {
	name, partial, ckpt string
	digest              string
	f                   *os.File
	w                   *bufio.Writer
}

type checkpoint struct {
	Digest string          `json:"digest"`
	Bytes  int64           `json:"bytes"`
	State  json.RawMessage `json:"state"`
}

// OpenResumable opens the output name for a run whose configuration has
// the given digest. If an unfinished run of the same digest left a
// checkpoint, its state is decoded into state and resumed is true. A
// checkpoint of another digest is an error that says what to do.
func OpenResumable(name, digest string, state any) (r *ResumableFile, resumed bool, err error) {
	dir, base := filepath.Dir(name), filepath.Base(name)
	if err := RemoveStaleTemps(dir, base+"."); err != nil {
		return nil, false, err
	}
	if err := RemoveStaleTemps(dir, "."+base+"."); err != nil {
		return nil, false, err
	}
	r = &ResumableFile{name: name, digest: digest,
		partial: filepath.Join(dir, "."+base+".partial"), ckpt: filepath.Join(dir, "."+base+".checkpoint.json")}
	var c checkpoint
	data, err := os.ReadFile(r.ckpt)
	if err == nil && !exists(r.partial) && exists(name) {
		// A run was killed between moving its finished file into place
		// and removing the checkpoint: start afresh.
		os.Remove(r.ckpt)
		err = fs.ErrNotExist
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, false, err
	default:
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, false, fmt.Errorf("%s: corrupt checkpoint (%v); delete it and %s to start afresh", r.ckpt, err, r.partial)
		}
		if c.Digest != digest {
			return nil, false, fmt.Errorf("%s belongs to an unfinished run with other settings; run that command again to finish it, or delete %s and %s to start afresh", r.ckpt, r.ckpt, r.partial)
		}
		if err := json.Unmarshal(c.State, state); err != nil {
			return nil, false, fmt.Errorf("%s: corrupt checkpoint (%v); delete it and %s to start afresh", r.ckpt, err, r.partial)
		}
		resumed = true
	}
	f, err := os.OpenFile(r.partial, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("cannot write %s: %w", name, unwrapPathError(err))
	}
	if info, err := f.Stat(); err == nil && info.Size() < c.Bytes {
		f.Close()
		return nil, false, fmt.Errorf("%s is shorter than its checkpoint says; delete it and %s to start afresh", r.partial, r.ckpt)
	}
	if err := f.Truncate(c.Bytes); err != nil {
		f.Close()
		return nil, false, err
	}
	if _, err := f.Seek(c.Bytes, io.SeekStart); err != nil {
		f.Close()
		return nil, false, err
	}
	r.f, r.w = f, bufio.NewWriterSize(f, 1<<16)
	return r, resumed, nil
}

// Write appends to the partial file.
func (r *ResumableFile) Write(p []byte) (int, error) { return r.w.Write(p) }

// Checkpoint makes everything written so far durable and records state
// with it.
func (r *ResumableFile) Checkpoint(state any) error {
	if err := r.w.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", r.partial, err)
	}
	if err := r.f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", r.partial, err)
	}
	n, err := r.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	st, err := json.Marshal(state)
	if err != nil {
		return err
	}
	data, err := json.Marshal(checkpoint{Digest: r.digest, Bytes: n, State: st})
	if err != nil {
		return err
	}
	out, err := CreateAtomic(r.ckpt, nil)
	if err != nil {
		return err
	}
	if _, err := out.Write(data); err != nil {
		out.Abort()
		return err
	}
	return out.Commit()
}

// Commit moves the finished file into place and removes the checkpoint.
func (r *ResumableFile) Commit() error {
	if err := r.w.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", r.partial, err)
	}
	if err := r.f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", r.partial, err)
	}
	if err := r.f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", r.partial, err)
	}
	if err := os.Rename(r.partial, r.name); err != nil {
		return fmt.Errorf("writing %s: %w", r.name, err)
	}
	if err := os.Remove(r.ckpt); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Close releases the file without committing it, leaving the partial file
// and the last checkpoint for the next run.
func (r *ResumableFile) Close() {
	if r.f != nil {
		r.f.Close()
	}
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
