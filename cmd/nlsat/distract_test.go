package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// TestDistractCommand adds distractors to labelled records in both modes
// and checks every output record independently: the same label, decided
// afresh; the input's sentences in order once the distractors are taken
// out; the distractors' count; and the same bytes for any -j.
func TestDistractCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	if code, _, stderr := nlsat(context.Background(), "", "generate", "--fragment", "Z", "--count", "60", "--seed", "4", "-q", "--out", in); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	var inputs []*dataset.Record
	if err := dataset.EachRecord(in, nil, func(r *dataset.Record, _ string) error { inputs = append(inputs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	b := native.New(native.Options{})
	for _, mode := range []string{"fresh", "implied"} {
		t.Run(mode, func(t *testing.T) {
			out := map[string][]byte{}
			for _, j := range []string{"1", "2"} {
				name := filepath.Join(dir, mode+j+".jsonl")
				code, _, stderr := nlsat(context.Background(), "", "distract", in, "--count", "2", "--mode", mode, "-j", j, "-q", "--out", name)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				out[j], _ = os.ReadFile(name)
			}
			if string(out["1"]) != string(out["2"]) {
				t.Fatal("-j 1 and -j 2 differ")
			}
			byID := map[string]*dataset.Record{}
			for _, r := range inputs {
				byID[r.ID] = r
			}
			n := 0
			err := dataset.EachRecord(filepath.Join(dir, mode+"1.jsonl"), nil, func(r *dataset.Record, where string) error {
				n++
				orig := byID[r.ID]
				if orig == nil {
					t.Fatalf("%s: id %s is not an input id", where, r.ID)
				}
				if r.Label != orig.Label || len(r.Distractors) != 2 || r.DistractorMode != mode || r.M != orig.M+2 {
					t.Errorf("%s: label %d (was %d), distractors %v %q, m %d (was %d)", where, r.Label, orig.Label, r.Distractors, r.DistractorMode, r.M, orig.M)
				}
				var rest []string
				for i, s := range r.Sentences {
					if !slices.Contains(r.Distractors, i) {
						rest = append(rest, s)
					}
				}
				if !slices.Equal(rest, orig.Sentences) {
					t.Errorf("%s: without its distractors the instance is %q, not %q", where, rest, orig.Sentences)
				}
				res, err := b.Solve(context.Background(), &solver.Problem{Sentences: recordFormulas(t, r)})
				if err != nil || dataset.LabelOf(res.Status) != orig.Label {
					t.Errorf("%s: decides %v (%v), the input is labelled %d", where, res.Status, err, orig.Label)
				}
				if r.Label == dataset.LabelUnsat && (len(r.Certificate.MUS) == 0 || r.Difficulty.MUSSize != len(r.Certificate.MUS)) {
					t.Errorf("%s: unsat without a MUS: %+v", where, r.Certificate)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n < len(inputs)*9/10 {
				t.Errorf("only %d of %d records got distractors", n, len(inputs))
			}
		})
	}
}

func TestDistractBadInput(t *testing.T) {
	dir := t.TempDir()
	unlabelled := filepath.Join(dir, "u.jsonl")
	os.WriteFile(unlabelled, []byte(`{"id":"a","sentences":["Every artist is a baker."],"label":-1}`+"\n"), 0o644)
	labelled := filepath.Join(dir, "l.jsonl")
	if code, _, stderr := nlsat(context.Background(), "", "generate", "--fragment", "S", "--count", "3", "-q", "--out", labelled); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	twice := filepath.Join(dir, "twice.jsonl")
	if code, _, stderr := nlsat(context.Background(), "", "distract", labelled, "-q", "--out", twice); code != 0 {
		t.Fatalf("distract: exit %d: %s", code, stderr)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unlabelled", []string{unlabelled}, `u.jsonl:1: record "a" is not labelled`},
		{"twice", []string{twice}, "already has distractors"},
		{"count", []string{labelled, "--count", "0"}, "--count must be at least 1"},
		{"mode", []string{labelled, "--mode", "noise"}, "noise"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.jsonl")
			code, _, stderr := nlsat(context.Background(), "", append([]string{"distract", "-q", "--out", out}, tt.args...)...)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, exitUsage, tt.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a refused run wrote output")
			}
		})
	}
}

// recordFormulas parses the formulas of a record.
func recordFormulas(t *testing.T, r *dataset.Record) []fol.Formula {
	t.Helper()
	var fs []fol.Formula
	for _, s := range r.Formulas {
		f, err := fol.Parse(s)
		if err != nil {
			t.Fatalf("record %s: %v", r.ID, err)
		}
		fs = append(fs, f)
	}
	return fs
}
