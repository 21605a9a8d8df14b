package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/split"
)

// inventedVocab is a vocabulary of made-up words, none of them built in.
const inventedVocab = `# made-up words
noun a blicket
noun a dax
noun a wug
noun a fep
noun a zorp
noun a tove
noun a grib
noun a mome
noun a rath
noun a jub
noun a snark
noun an ulk
noun a quell
noun a vop
noun a boojum
noun an orb
verb gorp gorps
verb mib mibs
verb tazz tazzes
verb frob frobs
verb kest kests
verb lurn lurns
verb pleck plecks
verb yimp yimps
verb zib zibs
verb hask hasks
verb drom droms
verb wix wixes
verb nop nops
verb brell brells
verb quop quops
verb sem sems
`

func writeVocab(t *testing.T) (path string, words map[string]bool) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "words.txt")
	if err := os.WriteFile(path, []byte(inventedVocab), 0o644); err != nil {
		t.Fatal(err)
	}
	lx, err := fragments.LoadLexicon(path)
	if err != nil {
		t.Fatal(err)
	}
	words = map[string]bool{}
	for _, n := range lx.Nouns() {
		words[n.Word] = true
	}
	for _, v := range lx.Verbs() {
		words[v.Base] = true
	}
	return path, words
}

// recordsOf decodes JSONL records.
func recordsOf(t *testing.T, jsonl string) []*dataset.Record {
	t.Helper()
	var out []*dataset.Record
	for _, line := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var r dataset.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, &r)
	}
	return out
}

func checkWordsIn(t *testing.T, what string, recs []*dataset.Record, words map[string]bool) {
	t.Helper()
	for _, r := range recs {
		for _, w := range append(append([]string{}, r.Nouns...), r.Verbs...) {
			if !words[w] {
				t.Fatalf("%s: record %s uses %q, not a word of the vocabulary file", what, r.ID, w)
			}
		}
	}
}

// nlsat vocab prints a vocabulary file that reads back to itself, and
// rejects a bad one naming its file and line.
func TestVocabCommand(t *testing.T) {
	ctx := context.Background()
	code, out, stderr := nlsat(ctx, "", "vocab")
	if code != 0 || !strings.Contains(stderr, "189 nouns, 94 verbs") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	path := filepath.Join(t.TempDir(), "v.txt")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, again, _ := nlsat(ctx, "", "vocab", "--vocab", path); code != 0 || again != out {
		t.Errorf("vocab --vocab of its own output: exit %d, same output %v", code, again == out)
	}
	var j struct{ Nouns, Verbs []map[string]string }
	if code, js, _ := nlsat(ctx, "", "vocab", "--json"); code != 0 || json.Unmarshal([]byte(js), &j) != nil || len(j.Nouns) != 189 || j.Verbs[0]["third"] != "admires" {
		t.Errorf("vocab --json: exit %d, %d nouns", code, len(j.Nouns))
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("noun a dax\nnoun dax\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"vocab"}, {"generate", "-n", "2"}, {"label", "-"}, {"split", "--out", t.TempDir() + "/x"}} {
		code, _, stderr := nlsat(ctx, "", append(args, "--vocab", bad)...)
		if code != exitUsage || !strings.Contains(stderr, bad+`:2: "noun dax": expected "noun ARTICLE WORD"`) {
			t.Errorf("%v with a bad vocabulary: exit %d: %s", args, code, stderr)
		}
	}
}

// Records drawn from a vocabulary file use only its words, carry ids of
// their own, and parse only with the same file; label, pairs and distract
// take it too.
func TestVocabFileAcrossCommands(t *testing.T) {
	ctx := context.Background()
	path, words := writeVocab(t)
	gen := []string{"generate", "--fragment", "V", "--count", "20", "--n1", "4-6", "--n2", "3-4", "--seed", "3", "-q"}
	code, out, stderr := nlsat(ctx, "", append(gen, "--vocab", path)...)
	if code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	recs := recordsOf(t, out)
	checkWordsIn(t, "generate", recs, words)
	_, plain, _ := nlsat(ctx, "", gen...)
	if d1, _ := dataset.IDDigest(recs[0].ID); d1 == func() string { d, _ := dataset.IDDigest(recordsOf(t, plain)[0].ID); return d }() {
		t.Errorf("ids %s do not tell the vocabulary apart", recs[0].ID)
	}
	if code, _, stderr := nlsat(ctx, out, "label", "-", "-q"); code != exitUsage || !strings.Contains(stderr, "stdin:1: sentence 1:") {
		t.Errorf("label without the vocabulary: exit %d: %s", code, stderr)
	}
	if code, relabelled, stderr := nlsat(ctx, out, "label", "-", "-q", "--vocab", path); code != 0 || relabelled != out {
		t.Errorf("label with the vocabulary: exit %d, same records %v: %s", code, relabelled == out, stderr)
	}
	for _, args := range [][]string{{"pairs", "-"}, {"distract", "-", "--count", "1"}} {
		code, got, stderr := nlsat(ctx, out, append(args, "-q", "--vocab", path)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		checkWordsIn(t, args[0], recordsOf(t, got), words)
	}
	sents := []string{"Every blicket is a dax.", "No dax is a blicket.", "Some blicket is an ulk."}
	if code, out, stderr := nlsat(ctx, "", append([]string{"solve", "--vocab", path}, sents...)...); code != 0 || !strings.Contains(out, "3. Some blicket is an ulk.") {
		t.Errorf("solve with the vocabulary: exit %d: %s%s", code, out, stderr)
	}
	if code, out, _ := nlsat(ctx, strings.Join(sents, " "), "translate", "--vocab", path); code != 0 || !strings.Contains(out, "ulk") {
		t.Errorf("translate with the vocabulary: exit %d: %s", code, out)
	}
	if code, _, stderr := nlsat(ctx, "", append([]string{"solve"}, sents...)...); code != exitUsage || !strings.Contains(stderr, `"blicket"`) {
		t.Errorf("solve without the vocabulary: exit %d: %s", code, stderr)
	}
	code, _, stderr = nlsat(ctx, "", "phase-sweep", "--fragment", "S", "--n1", "17", "--m", "4", "--samples", "10", "--out", t.TempDir()+"/s", "--vocab", path)
	if code != exitUsage || !strings.Contains(stderr, "the grid has no drawable point") { // with the built-in words it has
		t.Errorf("phase-sweep past the vocabulary's nouns: exit %d: %s", code, stderr)
	}
}

// A split drawn from a vocabulary file records it in its manifest, holds
// out a share of its words, and refuses to resume with other words.
func TestVocabFileSplit(t *testing.T) {
	ctx := context.Background()
	path, words := writeVocab(t)
	dir := filepath.Join(t.TempDir(), "V")
	args := []string{"split", "--fragment", "V", "--train", "120", "--validation", "20", "--test", "40", "--generalisation", "0",
		"--zero-shot", "0", "--holdout", "vocabulary", "--holdout-share", "0.5", "--balance", "strata", "--seed", "4", "-q", "--out", dir}
	code, _, stderr := nlsat(ctx, "", append(args, "--vocab", path)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := split.Verify(dir); err != nil {
		t.Fatal(err)
	}
	m, err := split.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Plan.Vocabulary == nil || len(m.Plan.Vocabulary.Nouns()) != 16 {
		t.Fatalf("the manifest's plan does not carry the vocabulary: %+v", m.Plan.Vocabulary)
	}
	if card, _ := os.ReadFile(filepath.Join(dir, "README.md")); !strings.Contains(string(card), "- Vocabulary: a user's file of 16 nouns and 16 verbs") {
		t.Error("the card does not name the vocabulary file")
	}
	train, val, test := readHeldOut(t, dir, "train"), readHeldOut(t, dir, "validation"), readHeldOut(t, dir, "test")
	checkVocabularyHoldout(t, m, train, val, test)
	for _, sp := range []heldOutSplit{train, val, test} {
		for w := range sp.words {
			if !words[w] {
				t.Fatalf("the split uses %q, not a word of the vocabulary file", w)
			}
		}
	}
	if code, _, stderr := nlsat(ctx, "", args...); code == 0 || !strings.Contains(stderr, "not empty") {
		t.Errorf("resuming with the built-in words: exit %d: %s", code, stderr)
	}
}
