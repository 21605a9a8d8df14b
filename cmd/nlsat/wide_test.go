package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWideNounsCLI checks, through the commands, that S instances over all
// 189 built-in nouns and W instances over 300 nouns of a vocabulary file
// are decided and labelled, and that a V instance past
// the type search's 64 nouns is an error naming the record by file and
// line when it has no id.
func TestWideNounsCLI(t *testing.T) {
	dir := t.TempDir()
	s189, out := filepath.Join(dir, "s189.jsonl"), filepath.Join(dir, "out.jsonl")
	if code, _, stderr := nlsat(context.Background(), "", "generate", "--fragment", "S", "--n1", "189", "--m", "200-300",
		"--count", "4", "--seed", "3", "-q", "--out", s189); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	var texts []string
	eachJSON(t, s189, func(b []byte) {
		var r struct {
			Label     int      `json:"label"`
			Sentences []string `json:"sentences"`
		}
		json.Unmarshal(b, &r)
		if r.Label != 0 && r.Label != 1 {
			t.Errorf("a 189-noun S record is labelled %d", r.Label)
		}
		texts = append(texts, strings.Join(r.Sentences, " "))
	})
	for i, text := range texts {
		code, stdout, stderr := nlsat(context.Background(), text, "solve", "--json")
		if code != 0 || !strings.Contains(stdout, `"status":"sat"`) && !strings.Contains(stdout, `"status":"unsat"`) {
			t.Errorf("solve on record %d: exit %d: %s%s", i, code, stdout, stderr)
		}
	}
	if code, _, stderr := nlsat(context.Background(), "", "label", s189, "-q", "--out", out); code != 0 {
		t.Errorf("label: exit %d: %s", code, stderr)
	}

	var vocab strings.Builder
	for i := range 300 {
		vocab.WriteString("noun a zib" + string(rune('a'+i/26)) + string(rune('a'+i%26)) + "\n")
	}
	vocab.WriteString("verb gorp gorps\n")
	vpath, w300 := filepath.Join(dir, "vocab.txt"), filepath.Join(dir, "w300.jsonl")
	if err := os.WriteFile(vpath, []byte(vocab.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := nlsat(context.Background(), "", "generate", "--fragment", "W", "--n1", "300", "--m", "300-450",
		"--count", "4", "--seed", "3", "-q", "--vocab", vpath, "--out", w300); code != 0 {
		t.Fatalf("generate W over 300 nouns: exit %d: %s", code, stderr)
	}
	checkLabelled(t, w300, "a 300-noun W record")

	v70 := filepath.Join(dir, "v70.jsonl")
	code, stdout, stderr := nlsat(context.Background(), "", "generate", "--fragment", "V", "--n1", "70", "--n2", "2", "--m", "100",
		"--count", "1", "--seed", "3", "--solver", "none", "-q", "--out", "-")
	if code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	var r struct {
		Sentences []string `json:"sentences"`
	}
	json.Unmarshal([]byte(stdout), &r)
	line, _ := json.Marshal(map[string]any{"sentences": r.Sentences})
	if err := os.WriteFile(v70, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	// A V record of 70 nouns is decided; refused by the memory guard, the
	// error names it by file and line, since it has no id.
	if code, _, stderr := nlsat(context.Background(), "", "label", v70, "-q", "--out", out); code != 0 {
		t.Errorf("label on a 70-noun V record: exit %d: %s", code, stderr)
	}
	checkLabelled(t, out, "a 70-noun V record")
	code, _, stderr = nlsat(context.Background(), "", "label", v70, "-q", "--max-memory", "1KiB", "--out", out+".2")
	if code != 1 || !strings.Contains(stderr, "record 1 ("+v70+":1)") || strings.Contains(stderr, "()") || !strings.Contains(stderr, "--max-memory") {
		t.Errorf("label on a 70-noun V record without id, 1 KiB budget: exit %d: %s", code, stderr)
	}
}

// checkLabelled checks that every record of the JSONL file path is
// labelled sat or unsat.
func checkLabelled(t *testing.T, path, what string) {
	t.Helper()
	eachJSON(t, path, func(b []byte) {
		var r struct {
			Label int `json:"label"`
		}
		json.Unmarshal(b, &r)
		if r.Label != 0 && r.Label != 1 {
			t.Errorf("%s is labelled %d", what, r.Label)
		}
	})
}
