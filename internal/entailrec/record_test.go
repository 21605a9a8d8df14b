package entailrec

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestLabels(t *testing.T) {
	tests := []struct {
		l      Label
		name   string
		binary int
		btext  string
	}{
		{Entailment, "entailment", Entailed, "entailed"},
		{Neutral, "neutral", NotEntailed, "not entailed"},
		{Contradiction, "contradiction", NotEntailed, "not entailed"},
		{Label(3), "Label(3)", NotEntailed, "not entailed"},
	}
	for _, tt := range tests {
		if got := tt.l.String(); got != tt.name {
			t.Errorf("%d: String %q, want %q", tt.l, got, tt.name)
		}
		if got := tt.l.Binary(); got != tt.binary {
			t.Errorf("%d: Binary %d, want %d", tt.l, got, tt.binary)
		}
		if got := BinaryText(tt.l.Binary()); got != tt.btext {
			t.Errorf("%d: BinaryText %q, want %q", tt.l, got, tt.btext)
		}
	}
	if len(Labels()) != len(LabelNames) {
		t.Errorf("%d labels, %d names", len(Labels()), len(LabelNames))
	}
}

// valid returns a valid record of label l.
func valid(l Label) *Record {
	r := &Record{ID: "V-x-1", Premises: []string{"Every a is a b.", "Every b is a c."}, Hypothesis: "Every a is a c.",
		Label: int(l), LabelText: l.String(), LabelBinary: l.Binary()}
	if l == Neutral {
		r.Certificate.Models = []int{2, 3}
	} else {
		r.Certificate.Subset = []int{0, 1}
	}
	r.Normalize()
	return r
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(r *Record)
		l    Label
		want string // in the error; "" for none
	}{
		{"entailment", func(*Record) {}, Entailment, ""},
		{"neutral", func(*Record) {}, Neutral, ""},
		{"contradiction", func(*Record) {}, Contradiction, ""},
		{"no id", func(r *Record) { r.ID = "" }, Entailment, "lacks an id"},
		{"label text", func(r *Record) { r.LabelText = "neutral" }, Entailment, "do not agree"},
		{"binary", func(r *Record) { r.LabelBinary = NotEntailed }, Entailment, "do not agree"},
		{"neutral with a subset", func(r *Record) { r.Certificate.Subset = []int{0}; r.Normalize() }, Neutral, "neutral needs"},
		{"contradiction with models", func(r *Record) { r.Certificate.Models = []int{1} }, Contradiction, "needs a subset"},
		{"subset out of order", func(r *Record) { r.Certificate.Subset = []int{1, 0} }, Entailment, "not increasing"},
		{"subset out of range", func(r *Record) { r.Certificate.Subset = []int{0, 2} }, Entailment, "not increasing"},
		{"m", func(r *Record) { r.M = 5 }, Entailment, "m or subset_size"},
	}
	for _, tt := range tests {
		r := valid(tt.l)
		tt.edit(r)
		err := r.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestEncodeRoundTrip encodes records of every label and reads them back
// with encoding/json: equal records, one line each, every key present.
func TestEncodeRoundTrip(t *testing.T) {
	for _, l := range Labels() {
		var b bytes.Buffer
		r := valid(l)
		if err := NewEncoder(&b).Encode(r); err != nil {
			t.Fatal(err)
		}
		if strings.Count(b.String(), "\n") != 1 {
			t.Errorf("%v: not one line: %q", l, b.String())
		}
		var back Record
		if err := json.Unmarshal(b.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&back, r) {
			t.Errorf("%v: read back %+v, wrote %+v", l, back, *r)
		}
		var keys map[string]json.RawMessage
		json.Unmarshal(b.Bytes(), &keys)
		if n := reflect.TypeFor[Record]().NumField(); len(keys) != n {
			t.Errorf("%v: %d keys, want %d", l, len(keys), n)
		}
	}
}
