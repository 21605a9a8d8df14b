package dataset

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/parquet-go/parquet-go"

	"github.com/nlsat/nlsat/internal/inputerr"
)

// RowGroupRows is the number of records in a row group of the Parquet
// files nlsat writes: about 6 MB of uncompressed text, so that a reader
// that streams a file (datasets' streaming mode, a page of the Hub's
// viewer) holds little more than that in memory at a time.
const RowGroupRows = 1000

// parquetSink writes records as rows of a struct type (Record,
// MinimalRecord, or a type that embeds Record) of a Parquet file. Columns follow the record's JSON keys: strings as
// UTF-8 byte arrays, integers (label included) as INT64, alpha and beta
// as DOUBLE, arrays as LIST, certificate and difficulty as groups
// (structs); every column is required, as every key is present in every
// record. Pages are compressed with Snappy, which every Parquet reader
// decodes without extras.
//
// The label columns (labels) are the exception: they are optional, and
// the file's key/value metadata holds, under "huggingface", the features
// with the labels' class names, which HuggingFace datasets reads when it
// loads the file without its card (see parquetRowType and hfMetadata).
type parquetSink struct {
	w        *parquet.Writer
	typ, row reflect.Type
}

func newParquetSink(w io.Writer, typ reflect.Type, labels ClassLabels) *parquetSink {
	row := parquetRowType(typ, labels)
	schema := parquet.SchemaOf(reflect.New(row).Interface())
	if row != typ && typ.Name() != "" {
		// The root keeps the name of the record type, as before.
		schema = parquet.NewSchema(typ.Name(), schema)
	}
	return &parquetSink{typ: typ, row: row, w: parquet.NewWriter(w,
		schema,
		parquet.Compression(&parquet.Snappy),
		parquet.MaxRowsPerRowGroup(RowGroupRows),
		// The library's own name, without the build information the
		// default adds, so that every build writes the same bytes.
		parquet.CreatedBy("parquet-go", "", ""),
		parquet.KeyValueMetadata(HFMetadataKey, hfMetadata(schema, labels)),
	)}
}

func (s *parquetSink) line(b []byte) error {
	rec := reflect.New(s.typ)
	if err := json.Unmarshal(b, rec.Interface()); err != nil {
		return err
	}
	if r, ok := rec.Interface().(interface{ Normalize() }); ok {
		r.Normalize()
	}
	if s.row == s.typ {
		return s.w.Write(rec.Interface())
	}
	row := reflect.New(s.row)
	copyRow(row.Elem(), rec.Elem())
	return s.w.Write(row.Interface())
}

func (s *parquetSink) close() error { return s.w.Close() }

// parquetReader gives back the rows of a Parquet file of records as the
// JSONL lines they were written from.
type parquetReader[T any] struct {
	name string
	r    *parquet.GenericReader[T]
	rows []T
	enc  *Encoder
	buf  jsonlBuffer
	row  int
	eof  bool
}

// jsonlBuffer holds encoded lines not yet read.
type jsonlBuffer struct {
	b   []byte
	off int
}

func (b *jsonlBuffer) Write(p []byte) (int, error) { b.b = append(b.b, p...); return len(p), nil }

// openParquet opens the Parquet file in ra (size bytes) as a reader of
// JSONL lines: full records, or text and label where the file has the
// minimal layout.
func openParquet(ra io.ReaderAt, size int64, name string) (rd io.Reader, err error) {
	defer recoverCorrupt(name, &err)
	f, err := parquet.OpenFile(ra, size)
	if err != nil {
		return nil, inputerr.Errorf("%s: not a Parquet file of records: %v", name, err)
	}
	cols := map[string]bool{}
	for _, fl := range f.Schema().Fields() {
		cols[fl.Name()] = true
	}
	switch {
	case cols["id"] && cols["proof"] && cols["sentences"]:
		return newProofParquetReader(f, name), nil
	case cols["id"] && cols["text"] && cols["label"] && cols["sentences"]:
		return newParquetReader[Record](f, name), nil
	case cols["text"] && cols["label"]:
		return newParquetReader[MinimalRecord](f, name), nil
	}
	return nil, inputerr.Errorf("%s: a Parquet file, but not of records (expected the columns id, text, sentences, label, ... or text and label)", name)
}

func newParquetReader[T any](f *parquet.File, name string) *parquetReader[T] {
	p := &parquetReader[T]{name: name, r: parquet.NewGenericReader[T](f), rows: make([]T, 64)}
	p.enc = NewEncoder(&p.buf)
	return p
}

// recoverCorrupt turns a panic of the Parquet library over a corrupt
// file into an inputerr.Error naming it.
func recoverCorrupt(name string, err *error) {
	if v := recover(); v != nil {
		*err = inputerr.Errorf("%s: corrupt Parquet file: %v", name, v)
	}
}

func (p *parquetReader[T]) Read(b []byte) (int, error) { return p.buf.read(b, &p.eof, p.fill) }

// read copies buffered lines into b, filling the buffer until eof.
func (buf *jsonlBuffer) read(b []byte, eof *bool, fill func() error) (int, error) {
	for buf.off == len(buf.b) {
		if *eof {
			return 0, io.EOF
		}
		if err := fill(); err != nil {
			return 0, err
		}
	}
	n := copy(b, buf.b[buf.off:])
	buf.off += n
	return n, nil
}

// proofParquetReader gives back the rows of a Parquet file of records
// with proofs (ProofRow) as JSONL lines: ProofRow's JSON form is the
// record's, key for key.
type proofParquetReader struct {
	name string
	r    *parquet.Reader
	enc  *Encoder
	buf  jsonlBuffer
	row  int
	eof  bool
}

func newProofParquetReader(f *parquet.File, name string) *proofParquetReader {
	p := &proofParquetReader{name: name, r: parquet.NewReader(f, parquet.SchemaOf(reflect.New(ProofRow).Interface()))}
	p.enc = NewEncoder(&p.buf)
	return p
}

func (p *proofParquetReader) Read(b []byte) (int, error) { return p.buf.read(b, &p.eof, p.fill) }

// fill encodes the next rows into the buffer.
func (p *proofParquetReader) fill() (err error) {
	defer recoverCorrupt(p.name, &err)
	p.buf.b, p.buf.off = p.buf.b[:0], 0
	for range 64 {
		row := reflect.New(ProofRow).Interface()
		switch err := p.r.Read(row); {
		case err == io.EOF:
			p.eof = true
			return nil
		case err != nil:
			return inputerr.Errorf("%s: row %d: corrupt Parquet file: %v", p.name, p.row+1, err)
		}
		p.row++
		if err := p.enc.EncodeValue(row); err != nil {
			return fmt.Errorf("%s: row %d: %w", p.name, p.row, err)
		}
	}
	return nil
}

// fill encodes the next rows into the buffer.
func (p *parquetReader[T]) fill() (err error) {
	defer recoverCorrupt(p.name, &err)
	p.buf.b, p.buf.off = p.buf.b[:0], 0
	n, err := p.r.Read(p.rows)
	if err == io.EOF {
		p.eof = true
	} else if err != nil {
		return inputerr.Errorf("%s: row %d: corrupt Parquet file: %v", p.name, p.row+1, err)
	}
	for i := range n {
		p.row++
		switch r := any(&p.rows[i]).(type) {
		case *Record:
			err = p.enc.Encode(r)
		default:
			err = p.enc.EncodeValue(r)
		}
		if err != nil {
			return fmt.Errorf("%s: row %d: %w", p.name, p.row, err)
		}
	}
	return nil
}
