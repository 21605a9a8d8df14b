package pairs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// twinsOf returns the twins of the figure-1 instance of the paper, whose
// first sentence's P negation flips it from unsat to sat.
func twinsOf(t *testing.T) [2]Record {
	t.Helper()
	var sents []fragments.Sentence
	for _, e := range []string{"Every scholar is a poet.", "Every poet loves some musician.", "Some scholar does not love any musician."} {
		s, err := fragments.Parse(e)
		if err != nil {
			t.Fatal(err)
		}
		sents = append(sents, s)
	}
	inst := fragments.Instance{Fragment: fragments.V, Sentences: sents, Nouns: []string{"scholar", "poet", "musician"}, Verbs: []string{"love"}}
	b := native.New(native.Options{})
	r, err := Find(context.Background(), b, fragments.Default(), sents, fragments.V)
	if err != nil || !r.Found {
		t.Fatalf("figure 1: found %v, %v", r.Found, err)
	}
	return Twins(inputRecord(inst, "fig1"), sents, r, b.Name())
}

// keysAndTypes decodes one JSON object and lists its top-level keys in
// order with the JSON type of each value.
func keysAndTypes(t *testing.T, line []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		typ := fmt.Sprintf("%T", v)
		if obj, ok := v.(map[string]any); ok {
			b, _ := json.Marshal(obj)
			typ = strings.Join(keysAndTypes(t, b), ",")
		}
		out = append(out, fmt.Sprintf("%s:%s", k, typ))
	}
	return out
}

func TestRecordKeysAndTypes(t *testing.T) {
	tw := twinsOf(t)
	if tw[0].Label != 0 || tw[1].Label != 1 || tw[1].Edit.Kind != string(Negation) || tw[1].Edit.Sentence != 0 {
		t.Fatalf("figure 1 twins: labels %d, %d, edit %+v", tw[0].Label, tw[1].Label, tw[1].Edit)
	}
	var lines [][]byte
	for i := range tw {
		var b bytes.Buffer
		if err := NewEncoder(&b).Encode(&tw[i]); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, b.Bytes())
	}
	want := "id:string fragment:string text:string sentences:[]interface {} label:float64 label_text:string " +
		"m:float64 n1:float64 n2:float64 alpha:float64 beta:float64 nouns:[]interface {} verbs:[]interface {} " +
		"templates:[]interface {} formulas:[]interface {} solver:string " +
		"certificate:model_size:float64,mus:[]interface {} seed:string " +
		"difficulty:model_size:float64,mus_size:float64,search_nodes:float64,unsat_pair:[]interface {} distractors:[]interface {} distractor_mode:string " +
		"pair_id:string pair_role:string " +
		"edit:from:string,kind:string,role:string,sentence:float64,to:string"
	for i, l := range lines {
		// Nested objects go through a map, so their keys come sorted.
		if got := strings.Join(keysAndTypes(t, l), " "); got != want {
			t.Errorf("twin %d keys:\ngot  %s\nwant %s", i, got, want)
		}
	}
	if !strings.Contains(string(lines[0]), `"edit":{"sentence":-1,"kind":"","role":"","from":"","to":""}`) {
		t.Errorf("original's edit is not the empty edit: %s", lines[0])
	}
	if !strings.Contains(string(lines[1]), `"edit":{"sentence":0,"kind":"negation","role":"P","from":"Every scholar is a poet.","to":"Every non-scholar is a poet."}`) {
		t.Errorf("edited twin's edit: %s", lines[1])
	}
}

func TestCheckTwinsRejects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(a, b *Record)
		want   string
	}{
		{"same label", func(a, b *Record) { b.Label, b.LabelText, b.Certificate = a.Label, a.LabelText, a.Certificate }, "both twins"},
		{"two sentences differ", func(a, b *Record) { b.Sentences[1] = "Every poet is a scholar." }, "differ at [0 1]"},
		{"edit names another sentence", func(a, b *Record) { b.Edit.Sentence = 2 }, "does not match"},
		{"other pair", func(a, b *Record) { b.PairID = "x" }, "pair ids"},
		{"roles swapped", func(a, b *Record) { a.PairRole, b.PairRole = b.PairRole, a.PairRole }, "does not match the sentences"},
		{"unknown kind", func(a, b *Record) { b.Edit.Kind = "rewrite" }, "unknown edit kind"},
		{"unsat without MUS", func(a, b *Record) { a.Certificate.MUS = nil }, "unsat needs a MUS"},
		{"sat without model", func(a, b *Record) { b.Certificate.ModelSize = 0 }, "sat needs a model size"},
		{"unlabelled", func(a, b *Record) { a.Label, a.LabelText = -1, "" }, "must be labelled"},
	}
	for _, tt := range tests {
		tw := twinsOf(t)
		a, b := tw[0], tw[1]
		b.Sentences = append([]string(nil), b.Sentences...)
		tt.mutate(&a, &b)
		err := CheckTwins(&a, &b)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	tw := twinsOf(t)
	if err := CheckTwins(&tw[0], &tw[1]); err != nil {
		t.Errorf("intact twins: %v", err)
	}
}
