package audit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// Entailment records. The audit decodes only the few fields it needs of
// schema nlsat-entail/1 (entailrec.Record holds them all) into a struct
// of its own, which skips the formulas and certificates.

// EntailSchema is the record schema of the entailment datasets the audit
// reads.
const EntailSchema = entailrec.Schema

// EntailLabels are the names of the entailment labels, by label.
var EntailLabels = entailrec.LabelNames

// entailRecord holds the fields of an entailment record the audit uses.
type entailRecord struct {
	ID         string   `json:"id"`
	Fragment   string   `json:"fragment"`
	Premises   []string `json:"premises"`
	Hypothesis string   `json:"hypothesis"`
	Label      *int     `json:"label"`
	LabelText  string   `json:"label_text"`
	M          int      `json:"m"`
	N1         int      `json:"n1"`
	N2         int      `json:"n2"`
	Seed       string   `json:"seed"`
}

// hypothesisPrefix marks the hypothesis's tokens, so that the n-gram
// models tell "h:no" in the hypothesis from "no" in the premises. No token
// holds a colon, so the two never meet; no bigram spans the two texts.
const hypothesisPrefix = "h:"

func isHypothesisGram(name string) bool { return strings.HasPrefix(name, hypothesisPrefix) }

// decodeEntail decodes and checks an entailment record, and returns its
// item (label 0, 1 or 2; without n-grams) and its texts: the premises
// joined by single spaces, then the hypothesis.
func decodeEntail(line []byte) (item, []string, error) {
	var r entailRecord
	if err := json.Unmarshal(line, &r); err != nil {
		return item{}, nil, fmt.Errorf("not a record: %w", err)
	}
	switch {
	case r.ID == "" || len(r.Premises) == 0 || r.Hypothesis == "":
		return item{}, nil, fmt.Errorf("entailment record %q lacks an id, premises or a hypothesis", r.ID)
	case r.Label == nil:
		return item{}, nil, fmt.Errorf("entailment record %s has no label; the audit needs labelled records", r.ID)
	case *r.Label < 0 || *r.Label > 2 || r.LabelText != EntailLabels[*r.Label]:
		return item{}, nil, fmt.Errorf("entailment record %s: label %d and label_text %q do not agree (0 entailment, 1 neutral, 2 contradiction)", r.ID, *r.Label, r.LabelText)
	case r.M != len(r.Premises):
		return item{}, nil, fmt.Errorf("entailment record %s: m is %d but it has %d premises", r.ID, r.M, len(r.Premises))
	}
	premises := strings.Join(r.Premises, " ")
	it := item{label: int8(*r.Label), fragment: r.Fragment, n1: r.N1, n2: r.N2, m: r.M,
		x: entailSurface(&r, premises), index: trailingNumber(r.Seed, ":"), idNum: trailingNumber(r.ID, "-"), pair: -1}
	it.group = max(it.index, 0)
	// The structure model sees the hypothesis's skeleton, and the
	// statistics of premises and hypothesis together (how the hypothesis's
	// words are used in the premises). The premises' own skeletons are
	// left out: a triple shares them, so they say nothing of the label.
	it.skel, _ = textfeat.Structure([]string{r.Hypothesis})
	_, it.st = textfeat.Structure(append(r.Premises[:len(r.Premises):len(r.Premises)], r.Hypothesis))
	it.sentences = append(r.Premises[:len(r.Premises):len(r.Premises)], r.Hypothesis)
	return it, []string{premises, r.Hypothesis}, nil
}

// entailFeatures are the surface features of an entailment record, in
// report order: the premises' sizes, then the hypothesis's words. They
// take the slots of features (alpha and beta become h-words and
// h-overlap), so every index but those two means the same word.
var entailFeatures = [numFeatures]feature{
	{"m", "premises (the record's m)", countBin, "as is"},
	{"n1", "distinct nouns (the record's n1)", countBin, "as is"},
	{"n2", "distinct verbs (the record's n2)", countBin, "as is"},
	{"h-words", "tokens of the hypothesis (words, non- and its full stop)", countBin, "as is"},
	{"h-overlap", "share of the hypothesis's unigrams and bigrams that occur in the premises", shareBin, "tenths"},
	{"h-every", `occurrences of "every" in the hypothesis`, countBin, "as is"},
	{"h-some", `occurrences of "some" in the hypothesis`, countBin, "as is"},
	{"h-no", `occurrences of "no" in the hypothesis`, countBin, "as is"},
	{"h-not", `occurrences of "not" in the hypothesis`, countBin, "as is"},
	{"h-non-", `words of the hypothesis starting with "non-"`, countBin, "as is"},
	{"h-who", `occurrences of "who" in the hypothesis`, countBin, "as is"},
	{"h-him", `occurrences of "him" in the hypothesis`, countBin, "as is"},
	{"h-existential", `1 when the hypothesis's first word is "Some" (an ∃x formula)`, countBin, "as is"},
}

const (
	fHWords   = fAlpha
	fHOverlap = fBeta
)

// entailSurface returns the feature vector of r, whose premises joined
// are premises.
func entailSurface(r *entailRecord, premises string) [numFeatures]float64 {
	var x [numFeatures]float64
	x[fM], x[fN1], x[fN2] = float64(r.M), float64(r.N1), float64(r.N2)
	shared, grams := textfeat.NewGrams(premises).OverlapEach(r.Hypothesis, func(w string) {
		if x[fHWords] == 0 && w == "some" {
			x[fExistential] = 1
		}
		x[fHWords]++
		if i, ok := tokenFeature[w]; ok {
			x[i]++
		}
	})
	x[fHOverlap] = float64(shared) / float64(max(grams, 1))
	return x
}
