package cardtest

import "testing"

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
