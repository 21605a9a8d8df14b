package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"

	"github.com/nlsat/nlsat/internal/inputerr"
)

// The first bytes of the formats a reader recognises.
var (
	gzipMagic    = []byte{0x1f, 0x8b}
	zstdMagic    = []byte{0x28, 0xb5, 0x2f, 0xfd}
	parquetMagic = []byte("PAR1")
)

// NewReader returns the records of r as JSONL lines, whatever the format
// of r: it recognises gzip, zstd and Parquet by their first bytes and
// reads anything else as JSONL, so files and stdin need no flag. A
// Parquet file gives back the lines it was written from. name is used in
// errors. Parquet needs random access: an *os.File is read in place,
// any other reader is read into memory first. Close releases the
// decoder (not r).
func NewReader(r io.Reader, name string) (io.ReadCloser, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(magic, gzipMagic):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, inputerr.Errorf("%s: not a gzip file: %v", name, err)
		}
		return gz, nil
	case bytes.HasPrefix(magic, zstdMagic):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, inputerr.Errorf("%s: not a zstd file: %v", name, err)
		}
		return zstdCloser{zr}, nil
	case bytes.HasPrefix(magic, parquetMagic):
		if f, ok := r.(*os.File); ok {
			if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
				return parquetCloser(openParquet(f, info.Size(), name))
			}
		}
		data, err := io.ReadAll(br)
		if err != nil {
			return nil, inputerr.Errorf("cannot read %s: %w", name, err)
		}
		return parquetCloser(openParquet(bytes.NewReader(data), int64(len(data)), name))
	}
	return io.NopCloser(br), nil
}

func parquetCloser(r io.Reader, err error) (io.ReadCloser, error) {
	if err != nil {
		return nil, err
	}
	return io.NopCloser(r), nil
}

type zstdCloser struct{ *zstd.Decoder }

func (z zstdCloser) Close() error { z.Decoder.Close(); return nil }

// OpenFile opens a records file of any format (see NewReader) and
// returns its records as JSONL lines; Close closes the file too.
func OpenFile(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, name)
	if err != nil {
		f.Close()
		return nil, err
	}
	return readCloser{r, f}, nil
}

// ReadFile returns the records of a file of any format as JSONL lines.
func ReadFile(name string) ([]byte, error) {
	r, err := OpenFile(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

type readCloser struct {
	io.ReadCloser
	f *os.File
}

func (r readCloser) Close() error {
	r.ReadCloser.Close()
	return r.f.Close()
}
