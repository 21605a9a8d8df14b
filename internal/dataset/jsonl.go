package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// AtomicFile is an output file that appears under its name only when
// Commit succeeds. Until then it is a temporary file beside the target; Abort
// (or a failed Commit) removes it. The name "-" writes to a given stream
// instead, with Commit and Abort only flushing.
type AtomicFile struct {
	name string
	tmp  *os.File
	w    *bufio.Writer
	done bool
}

// CreateAtomic opens a temporary file for name in name's directory. If name
// is "-", output goes to stdout.
func CreateAtomic(name string, stdout io.Writer) (*AtomicFile, error) {
	if name == "-" || name == "" {
		return &AtomicFile{name: "-", w: bufio.NewWriter(stdout)}, nil
	}
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("cannot write %s: it is a directory", name)
	}
	dir := filepath.Dir(name)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", name, unwrapPathError(err))
	}
	return &AtomicFile{name: name, tmp: tmp, w: bufio.NewWriterSize(tmp, 1<<16)}, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Write writes p to the buffered output.
func (f *AtomicFile) Write(p []byte) (int, error) { return f.w.Write(p) }

// Name returns the target name.
func (f *AtomicFile) Name() string { return f.name }

// Commit flushes, syncs and renames the temporary file into place.
func (f *AtomicFile) Commit() error {
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
func (f *AtomicFile) Abort() {
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

func (f *AtomicFile) remove() {
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// Encoder writes records as JSONL.
type Encoder struct {
	w   io.Writer
	buf bytes.Buffer
}

// NewEncoder returns an encoder writing to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// Encode normalizes r and writes it as one line. HTML characters are not
// escaped, so the English reads as it is.
func (e *Encoder) Encode(r *Record) error {
	r.Normalize()
	return e.EncodeValue(r)
}

// EncodeValue writes v as one JSON line, HTML characters unescaped, for
// record types that extend Record (normalize them first).
func (e *Encoder) EncodeValue(v any) error {
	e.buf.Reset()
	enc := json.NewEncoder(&e.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := e.w.Write(e.buf.Bytes())
	return err
}

// Decoder reads JSONL records, one per line, and names the file and line in
// its errors.
type Decoder struct {
	name string
	sc   *bufio.Scanner
	line int
}

// NewDecoder reads records from r; name is used in error messages.
func NewDecoder(r io.Reader, name string) *Decoder {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	return &Decoder{name: name, sc: sc}
}

// Line returns the line number of the record last returned.
func (d *Decoder) Line() int { return d.line }

// Next returns the next record, or io.EOF at the end. Blank lines are
// skipped. Keys this version does not know are ignored, since later schema
// versions may add fields; missing keys keep their zero values. A line
// that is not valid UTF-8 is an error naming it: decoding would replace
// its bad bytes with U+FFFD in some fields and not in others.
func (d *Decoder) Next() (*Record, error) {
	for d.sc.Scan() {
		d.line++
		b := bytes.TrimSpace(d.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if !utf8.Valid(b) {
			return nil, fmt.Errorf("%s:%d: not UTF-8 (invalid byte %d of the line); records are UTF-8 text", d.name, d.line, invalidAt(d.sc.Bytes())+1)
		}
		var r Record
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: not a record: %w", d.name, d.line, err)
		}
		return &r, nil
	}
	if err := d.sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", d.name, d.line+1, err)
	}
	return nil, io.EOF
}

// invalidAt is the offset of the first byte of b that does not begin a
// valid UTF-8 sequence.
func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// RemoveStaleTemps deletes the temporary files that CreateAtomic makes
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

// WriteFileAtomic writes data to name through a synced temporary file
// and a rename, so that name holds either its old bytes or data.
func WriteFileAtomic(name string, data []byte) error {
	return WriteAtomic(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteAtomic writes name with write, through a synced temporary file
// and a rename; if write fails, nothing is left behind.
func WriteAtomic(name string, write func(io.Writer) error) error {
	f, err := CreateAtomic(name, io.Discard)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}

// InputError marks an error in what a command was given (a file that is
// not what it should be, an output path that cannot be written, a
// checkpoint or shard of another configuration) rather than a failure
// while it ran; commands report it as a usage error.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// InputErrorf formats an InputError.
func InputErrorf(format string, a ...any) error { return &InputError{fmt.Errorf(format, a...)} }
