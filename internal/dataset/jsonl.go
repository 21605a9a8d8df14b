package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

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
