package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/nlsat/nlsat/internal/dataset"
)

// compileSchema compiles a published JSON Schema with an independent
// validator.
func compileSchema(t *testing.T, name string, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	url := "file:///nlsat/" + name
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return sch
}

// validateLines validates every line of data against sch and returns how
// many there were.
func validateLines(t *testing.T, what string, sch *jsonschema.Schema, data []byte) int {
	t.Helper()
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		n++
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.Bytes()))
		if err != nil {
			t.Fatalf("%s line %d: %v", what, n, err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s line %d does not match the schema: %v", what, n, err)
			return n
		}
	}
	return n
}

// TestRecordsMatchSchemas validates records that the commands write, of
// every fragment and kind (labelled, unlabelled, with proofs, with
// distractors, entailment triples), against the JSON Schemas the toolkit
// publishes (internal/dataset/schema.json, internal/entail/schema.json),
// with an independent validator; and checks that the schemas are not
// vacuous: records with a bad label, a missing key or a wrong type fail.
func TestRecordsMatchSchemas(t *testing.T) {
	records := compileSchema(t, "schema.json", dataset.Schema)
	entailData, err := os.ReadFile("../../internal/entail/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	entails := compileSchema(t, "entail-schema.json", entailData)
	dir := t.TempDir()
	runs := []struct {
		name string
		sch  *jsonschema.Schema
		args []string
	}{
		{"S", records, []string{"generate", "--fragment", "S", "--count", "12"}},
		{"W", records, []string{"generate", "--fragment", "W", "--count", "12"}},
		{"V", records, []string{"generate", "--fragment", "V", "--count", "12"}},
		{"Z", records, []string{"generate", "--fragment", "Z", "--count", "12"}},
		{"A", records, []string{"generate", "--fragment", "A", "--count", "12"}},
		{"A proofs", records, []string{"generate", "--fragment", "A", "--count", "8", "--proofs"}},
		{"V distractors", records, []string{"generate", "--fragment", "V", "--count", "8", "--distractors", "2"}},
		{"Z unlabelled", records, []string{"generate", "--fragment", "Z", "--count", "8", "--solver", "none"}},
		{"V entailment", entails, []string{"generate", "--task", "entailment", "--fragment", "V", "--count", "9"}},
		{"S entailment", entails, []string{"generate", "--task", "entailment", "--fragment", "S", "--count", "9"}},
	}
	var sample []byte
	for _, r := range runs {
		out := filepath.Join(dir, strings.ReplaceAll(r.name, " ", "-")+".jsonl")
		if code, _, errs := nlsat(context.Background(), "", append(r.args, "-q", "--seed", "3", "--out", out)...); code != 0 {
			t.Fatalf("%s: exit %d: %s", r.name, code, errs)
		}
		data := []byte(readFile(t, out))
		if n := validateLines(t, r.name, r.sch, data); n == 0 {
			t.Errorf("%s: no records", r.name)
		}
		if r.name == "S" {
			sample, _, _ = bytes.Cut(data, []byte("\n"))
		}
	}
	// The records of a built dataset too.
	ds := filepath.Join(dir, "split-S")
	if code, _, errs := nlsat(context.Background(), "", "split", "-q", "--fragment", "S", "--train", "40", "--validation", "8", "--test", "8", "--audit=false", "--out", ds); code != 0 {
		t.Fatalf("split: exit %d: %s", code, errs)
	}
	for _, sp := range []string{"train", "validation", "test"} {
		validateLines(t, "split "+sp, records, []byte(readFile(t, filepath.Join(ds, "data", sp+".jsonl"))))
	}
	// Broken records fail, each for its own reason.
	for _, bad := range []struct{ name, from, to string }{
		{"label 2", `"label":`, `"label":2,"x":`},
		{"no id", `"id":`, `"id_":`},
		{"m a string", `"m":`, `"m":"4","mm":`},
		{"fragment Q", `"fragment":"S"`, `"fragment":"Q"`},
	} {
		line := strings.Replace(string(sample), bad.from, bad.to, 1)
		if line == string(sample) {
			t.Fatalf("%s: nothing replaced", bad.name)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
		if err != nil {
			t.Fatalf("%s: %v", bad.name, err)
		}
		if records.Validate(v) == nil {
			t.Errorf("%s: the schema accepts %s", bad.name, line)
		}
	}
}
