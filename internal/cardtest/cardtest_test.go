package cardtest

import (
	"strings"
	"testing"
)

// TestFeatureTypes reads every kind of feature a card declares and the
// Arrow type datasets gives it, a list of structs (list:) among them.
func TestFeatureTypes(t *testing.T) {
	fs := Features(t, `features:
- name: id
  dtype: string
- name: label
  dtype:
    class_label:
      names:
        '0': unsat
        '1': sat
- name: sentences
  sequence: string
- name: mus
  list: int64
- name: certificate
  struct:
  - name: model_size
    dtype: int64
  - name: mus
    sequence: int64
- name: proof
  list:
  - name: premises
    sequence: int64
  - name: rule
    dtype: string
`)
	want := []struct{ name, arrow string }{
		{"id", "string"},
		{"label", "int64"},
		{"sentences", "list<string>"},
		{"mus", "list<int64>"},
		{"certificate", "struct<model_size:int64,mus:list<int64>>"},
		{"proof", "list<struct<premises:list<int64>,rule:string>>"},
	}
	if len(fs) != len(want) {
		t.Fatalf("%d features, want %d", len(fs), len(want))
	}
	for i, w := range want {
		if fs[i].Name != w.name || fs[i].ArrowType() != w.arrow {
			t.Errorf("feature %d: %s %s, want %s %s", i, fs[i].Name, fs[i].ArrowType(), w.name, w.arrow)
		}
	}
}

// TestInfoProblems: a card's dataset_info passes only with list: for
// every list, nested ones too, and without num_bytes or dataset_size.
func TestInfoProblems(t *testing.T) {
	const good = `---
license: cc-by-4.0
dataset_info:
- config_name: default
  features:
  - name: sentences
    list: string
  - name: certificate
    struct:
    - name: mus
      list: int64
  splits:
  - name: train
    num_examples: 10
  download_size: 1234
---

# title
`
	tests := []struct {
		name, old, new, want string
	}{
		{"good", "", "", ""},
		{"sequence", "    list: string", "    sequence: string", "feature sentences is written sequence:"},
		{"nested sequence", "      list: int64", "      sequence: int64", "feature certificate.mus is written sequence:"},
		{"num_bytes", "    num_examples: 10", "    num_bytes: 99\n    num_examples: 10", "split train has num_bytes"},
		{"no num_examples", "    num_examples: 10", "    num_bytes: 99", "split train has no num_examples"},
		{"dataset_size", "  download_size: 1234", "  download_size: 1234\n  dataset_size: 99", "has dataset_size"},
		{"no front matter", "---\nlicense", "license", "no YAML front matter"},
	}
	for _, tt := range tests {
		card := strings.Replace(good, tt.old, tt.new, 1)
		got := strings.Join(InfoProblems([]byte(card)), "; ")
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s: problems %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestHFFeature: each kind of card feature becomes the feature datasets
// serialises, as CheckHFMetadata expects it in a
// Parquet file's huggingface metadata; a file that declares another
// fails.
func TestHFFeature(t *testing.T) {
	const card = `features:
- name: label
  dtype:
    class_label:
      names:
        '0': unsat
        '1': sat
- name: m
  dtype: int64
- name: sentences
  list: string
- name: certificate
  struct:
  - name: model_size
    dtype: int64
  - name: mus
    list: int64
- name: proof
  list:
  - name: rule
    dtype: string
`
	v := func(d string) string { return `{"dtype":"` + d + `","_type":"Value"}` }
	good := `{"info":{"features":{"label":{"names":["unsat","sat"],"_type":"ClassLabel"},"m":` + v("int64") +
		`,"sentences":[` + v("string") + `],"certificate":{"model_size":` + v("int64") + `,"mus":[` + v("int64") + `]}` +
		`,"proof":[{"rule":` + v("string") + `}]}}}`
	tests := []struct {
		name, old, new string
		ok             bool
	}{
		{"as the card", "", "", true},
		{"class names swapped", `["unsat","sat"]`, `["sat","unsat"]`, false},
		{"label a Value", `{"names":["unsat","sat"],"_type":"ClassLabel"}`, v("int64"), false},
		{"list as a Value", `"sentences":[` + v("string") + `]`, `"sentences":` + v("string"), false},
		{"columns reordered", `"label":{"names":["unsat","sat"],"_type":"ClassLabel"},"m":` + v("int64"), `"m":` + v("int64") + `,"label":{"names":["unsat","sat"],"_type":"ClassLabel"}`, false},
	}
	for _, tt := range tests {
		meta := strings.Replace(good, tt.old, tt.new, 1)
		r := &recorder{TB: t}
		CheckHFMetadata(r, tt.name, []byte(meta), card)
		if ok := len(r.errs) == 0; ok != tt.ok {
			t.Errorf("%s: accepted %v, want %v (%v)", tt.name, ok, tt.ok, r.errs)
		}
	}
}

// recorder is a testing.TB that records errors instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, f) }
func (r *recorder) Fatalf(f string, a ...any) { r.errs = append(r.errs, f) }
