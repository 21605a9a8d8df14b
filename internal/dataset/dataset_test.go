package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/cardtest"
)

func TestEncodeKeepsEveryKeyAndType(t *testing.T) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	empty := &Record{ID: "x-0", Label: LabelAbsent, Sentences: []string{"Every artist is a baker."}}
	full := &Record{ID: "x-1", Label: LabelUnsat, N1: 2, N2: 1, Sentences: []string{"a", "b"},
		Certificate: Certificate{MUS: []int{0, 1}}}
	for _, r := range []*Record{empty, full} {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	var schema struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(Schema, &schema); err != nil {
		t.Fatal(err)
	}
	for i, line := range lines {
		if got := cardtest.ObjectKeys(t, line); !reflect.DeepEqual(got, schema.Required) {
			t.Errorf("line %d keys %v, want the schema's %v", i+1, got, schema.Required)
		}
		if bytes.Contains(line, []byte("null")) {
			t.Errorf("line %d has a null: %s", i+1, line)
		}
	}
	want := []string{`"label":-1,"label_text":""`, `"label":0,"label_text":"unsat","m":2,"n1":2,"n2":1,"alpha":1.0,"beta":2.0`}
	for i, w := range want {
		if !bytes.Contains(lines[i], []byte(w)) {
			t.Errorf("line %d = %s, want it to contain %s", i+1, lines[i], w)
		}
	}
}

// TestFloatJSON: alpha and beta are written as floats whatever their
// value, whole ones with ".0" (beta is 0 in every record of fragment S),
// others as encoding/json writes a float64, and read back as they were.
func TestFloatJSON(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0.0"},
		{2, "2.0"},
		{-3, "-3.0"},
		{1.5, "1.5"},
		{7.0 / 3, "2.3333333333333335"},
		{1e-7, "1e-7"},
		{1e21, "1e+21"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(Float(tt.v))
		if err != nil || string(b) != tt.want {
			t.Errorf("Float(%g) writes %s (%v), want %s", tt.v, b, err, tt.want)
		}
		var back Float
		if err := json.Unmarshal(b, &back); err != nil || float64(back) != tt.v {
			t.Errorf("%s reads back as %g (%v), want %g", b, back, err, tt.v)
		}
	}
	var buf bytes.Buffer
	s := &Record{ID: "S-test-1", Label: LabelSat, N1: 3, Sentences: []string{"Every artist is a baker.", "Some baker is an artist."}}
	if err := NewEncoder(&buf).Encode(s); err != nil {
		t.Fatal(err)
	}
	if want := `"n2":0,"alpha":0.6666666666666666,"beta":0.0,`; !strings.Contains(buf.String(), want) {
		t.Errorf("an S record writes %s, want it to contain %s", buf.String(), want)
	}
}

func TestDecodeRoundTripAndErrors(t *testing.T) {
	r := &Record{ID: "A-train-000001", Fragment: "A", Label: LabelSat, Sentences: []string{"Some artist is a baker."},
		N1: 2, Nouns: []string{"artist", "baker"}, Certificate: Certificate{ModelSize: 1}, Seed: SeedString(7, 1)}
	var buf bytes.Buffer
	if err := NewEncoder(&buf).Encode(r); err != nil {
		t.Fatal(err)
	}
	input := "\n" + buf.String() + "{not json}\n"
	d := NewDecoder(strings.NewReader(input), "in.jsonl")
	got, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("got %+v, want %+v", got, r)
	}
	if err := got.Validate(); err != nil {
		t.Errorf("valid record rejected: %v", err)
	}
	_, err = d.Next()
	if err == nil || !strings.HasPrefix(err.Error(), "in.jsonl:3: ") {
		t.Errorf("got error %v, want one naming in.jsonl:3", err)
	}
	if _, err := NewDecoder(strings.NewReader(""), "e").Next(); !errors.Is(err, io.EOF) {
		t.Errorf("empty input: got %v, want EOF", err)
	}
}

// TestDecodeRejectsBadUTF8: a line with bytes that are not UTF-8 is
// refused, naming its line and the first bad byte, rather than decoded
// with U+FFFD in place of them.
func TestDecodeRejectsBadUTF8(t *testing.T) {
	tests := []struct{ in, want string }{
		{"{\"sentences\": [\"Every artist is a b\xe4ker.\"]}\n", "in.jsonl:1: not UTF-8 (invalid byte 36 of the line)"},
		{"\n{\"text\": \"ok\"}\n{\"text\": \"\xff\"}", "in.jsonl:3: not UTF-8 (invalid byte 11 of the line)"},
		{"{\"text\": \"caf\xc3\"}", "in.jsonl:1: not UTF-8 (invalid byte 14 of the line)"},
	}
	for _, tt := range tests {
		d := NewDecoder(strings.NewReader(tt.in), "in.jsonl")
		var err error
		for err == nil {
			_, err = d.Next()
		}
		if err == io.EOF || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want %q", tt.in, err, tt.want)
		}
	}
	if _, err := NewDecoder(strings.NewReader(`{"text": "caf\u00e9 \u00e9t\u00e9 ü"}`), "ok").Next(); err != nil {
		t.Errorf("valid UTF-8 refused: %v", err)
	}
}

func TestValidate(t *testing.T) {
	ok := Record{ID: "a", Sentences: []string{"s"}, M: 1, Label: 1, LabelText: "sat"}
	tests := []struct {
		name string
		edit func(*Record)
		want string
	}{
		{"ok", func(*Record) {}, ""},
		{"no id", func(r *Record) { r.ID = "" }, "no id"},
		{"no sentences", func(r *Record) { r.Sentences = nil; r.M = 0 }, "no sentences"},
		{"bad label", func(r *Record) { r.Label = 2 }, "label 2"},
		{"label text", func(r *Record) { r.LabelText = "unsat" }, "does not match"},
		{"m", func(r *Record) { r.M = 3 }, "m is 3"},
	}
	for _, tt := range tests {
		r := ok
		tt.edit(&r)
		err := r.Validate()
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}
