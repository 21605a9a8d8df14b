package dataset

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecoder: the reader never panics, and a record it accepts, written
// back by the encoder and read again, is the same record.
func FuzzDecoder(f *testing.F) {
	f.Add(`{"id":"a","sentences":["Every artist is a baker."],"label":1}`)
	f.Add("\n\n{\"text\": \"x\"}\n{")
	f.Add(`{"certificate":{"model_size":3,"mus":[0,2]},"alpha":1.5}`)
	f.Fuzz(func(t *testing.T, in string) {
		d := NewDecoder(strings.NewReader(in), "fuzz")
		for {
			r, err := d.Next()
			if errors.Is(err, io.EOF) || err != nil {
				return
			}
			r.Normalize()
			var buf bytes.Buffer
			if err := NewEncoder(&buf).Encode(r); err != nil {
				return // e.g. a NaN cannot be written; the encoder says so
			}
			again, err := NewDecoder(&buf, "again").Next()
			if err != nil {
				t.Fatalf("re-reading %q: %v", buf.String(), err)
			}
			if !reflect.DeepEqual(again, r) {
				t.Fatalf("round trip changed the record:\n%+v\n%+v", r, again)
			}
		}
	})
}
