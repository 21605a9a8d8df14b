package dataset

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"

	"github.com/klauspost/compress/zstd"

	"github.com/nlsat/nlsat/internal/atomicfile"
)

// MinimalRecord is the row of the minimal layout (--fields minimal): the
// text and the label, for scripts that feed the first column to a model.
type MinimalRecord struct {
	Text  string `json:"text" parquet:"text"`
	Label int    `json:"label" parquet:"label"`
}

// ClassLabels names the label's classes, as Record's.
func (MinimalRecord) ClassLabels() ClassLabels { return RecordLabels }

// NewWriter returns a writer of records in output o to w. It is fed JSONL
// lines, as an Encoder writes them, and encodes them in o's format (with
// o.Minimal, only their text and label); Close ends the encoding (a
// compressed stream's last frame, a Parquet file's footer) without
// closing w. For plain JSONL the lines pass through unchanged. The bytes
// written depend only on the lines, not on how they were split into
// Write calls.
func NewWriter(w io.Writer, o Output) (io.WriteCloser, error) {
	if o.Plain() {
		return nopCloser{w}, nil
	}
	if o.Format == Parquet {
		typ := o.Row
		switch {
		case o.Minimal:
			typ = reflect.TypeFor[MinimalRecord]()
		case typ == nil:
			typ = reflect.TypeFor[Record]()
		}
		return &lineWriter{sink: newParquetSink(w, typ, labelsOf(typ))}, nil
	}
	var z io.WriteCloser = nopCloser{w}
	switch o.Format {
	case JSONLGzip:
		// No name and no modification time in the header: the same
		// records give the same bytes.
		gz, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
		if err != nil {
			return nil, err
		}
		z = gz
	case JSONLZstd:
		// One goroutine: the frame's blocks do not depend on scheduling.
		zw, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
		if err != nil {
			return nil, err
		}
		z = zw
	}
	if !o.Minimal {
		return z, nil
	}
	return &lineWriter{sink: &minimalSink{out: z, enc: NewEncoder(z)}}, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// rowSink takes records one JSONL line at a time.
type rowSink interface {
	line(b []byte) error
	close() error
}

// lineWriter cuts what is written into lines for a rowSink.
type lineWriter struct {
	sink    rowSink
	partial []byte
	n       int
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			break
		}
		line := p[:i]
		if len(w.partial) > 0 {
			line = append(w.partial, line...)
		}
		w.n++
		if err := w.emit(line); err != nil {
			return 0, err
		}
		w.partial, p = w.partial[:0], p[i+1:]
	}
	return n, nil
}

func (w *lineWriter) emit(line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	if err := w.sink.line(line); err != nil {
		return fmt.Errorf("record %d: %w", w.n, err)
	}
	return nil
}

func (w *lineWriter) Close() error {
	if len(w.partial) > 0 {
		w.n++
		if err := w.emit(w.partial); err != nil {
			return err
		}
		w.partial = w.partial[:0]
	}
	return w.sink.close()
}

// minimalSink writes the text and label of each line as JSONL.
type minimalSink struct {
	out io.WriteCloser
	enc *Encoder
}

func (s *minimalSink) line(b []byte) error {
	var r MinimalRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	return s.enc.EncodeValue(&r)
}

func (s *minimalSink) close() error { return s.out.Close() }

// Encode writes the JSONL records of file src to name in output o,
// atomically (WriteFile).
func (o Output) Encode(name, src string) error { return WriteFile(name, src, o) }

// WriteFile writes the JSONL records of file src to name in output o,
// atomically.
func WriteFile(name, src string, o Output) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return atomicfile.Write(name, func(w io.Writer) error {
		rw, err := NewWriter(w, o)
		if err != nil {
			return err
		}
		if _, err := io.Copy(rw, in); err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
		return rw.Close()
	})
}

// RecordFile is an AtomicFile of records in an output format: it is
// written JSONL lines, and Commit ends the encoding before the file
// appears under its name.
type RecordFile struct {
	*atomicfile.File
	w io.WriteCloser
}

// CreateRecords opens name (stdout for "-") for records in output o (its
// format, if unset, from name: see Output.For), as CreateAtomic does.
func CreateRecords(name string, stdout io.Writer, o Output) (*RecordFile, error) {
	o, err := o.For(name)
	if err != nil {
		return nil, err
	}
	f, err := atomicfile.Create(name, stdout)
	if err != nil {
		return nil, err
	}
	w, err := NewWriter(f, o)
	if err != nil {
		f.Abort()
		return nil, err
	}
	return &RecordFile{f, w}, nil
}

// Write writes JSONL lines.
func (f *RecordFile) Write(p []byte) (int, error) { return f.w.Write(p) }

// Commit ends the encoding and commits the file.
func (f *RecordFile) Commit() error {
	if err := f.w.Close(); err != nil {
		f.Abort()
		return fmt.Errorf("writing %s: %w", f.Name(), err)
	}
	return f.File.Commit()
}
