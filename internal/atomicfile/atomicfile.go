// Package atomicfile writes files that appear under their name only when
// complete: through a synced temporary file beside the target and a
// rename, so that a reader, or a run killed in between, sees the old bytes
// or the new ones and never a part.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// File is an output file that appears under its name only when
// Commit succeeds. Until then it is a temporary file beside the target; Abort
// (or a failed Commit) removes it. The name "-" writes to a given stream
// instead, with Commit and Abort only flushing.
type File struct {
	name string
	tmp  *os.File
	w    *bufio.Writer
	done bool
}

// Create opens a temporary file for name in name's directory. If name
// is "-", output goes to stdout.
func Create(name string, stdout io.Writer) (*File, error) {
	if name == "-" || name == "" {
		return &File{name: "-", w: bufio.NewWriter(stdout)}, nil
	}
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("cannot write %s: it is a directory", name)
	}
	dir := filepath.Dir(name)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", name, unwrapPathError(err))
	}
	return &File{name: name, tmp: tmp, w: bufio.NewWriterSize(tmp, 1<<16)}, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Write writes p to the buffered output.
func (f *File) Write(p []byte) (int, error) { return f.w.Write(p) }

// Name returns the target name.
func (f *File) Name() string { return f.name }

// Commit flushes, syncs and renames the temporary file into place.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	if err := f.w.Flush(); err != nil {
		f.remove()
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	if f.tmp == nil {
		return nil
	}
	if err := f.tmp.Sync(); err != nil {
		f.remove()
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	if err := f.tmp.Close(); err != nil {
		os.Remove(f.tmp.Name())
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	if err := os.Chmod(f.tmp.Name(), 0o644); err != nil {
		os.Remove(f.tmp.Name())
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	if err := os.Rename(f.tmp.Name(), f.name); err != nil {
		os.Remove(f.tmp.Name())
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	return nil
}

// Abort discards the output. It is safe to call after Commit (it then does
// nothing), so callers can defer it.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	if f.tmp == nil {
		f.w.Flush()
		return
	}
	f.remove()
}

func (f *File) remove() {
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// RemoveStaleTemps deletes the temporary files that Create makes
// for names in dir beginning with prefix ("" for every name) and that a
// killed run left behind.
func RemoveStaleTemps(dir, prefix string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	for _, e := range entries {
		name := e.Name()
		i := strings.LastIndex(name, ".tmp-")
		if e.IsDir() || i < 0 || !strings.HasPrefix(name, "."+prefix) || strings.Trim(name[i+5:], "0123456789") != "" {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// WriteFile writes data to name through a synced temporary file
// and a rename, so that name holds either its old bytes or data.
func WriteFile(name string, data []byte) error {
	return Write(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write writes name with write, through a synced temporary file
// and a rename; if write fails, nothing is left behind.
func Write(name string, write func(io.Writer) error) error {
	f, err := Create(name, io.Discard)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}
