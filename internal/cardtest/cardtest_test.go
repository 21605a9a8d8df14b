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
