package satunsat

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// Audit is the task's part of the shortcut audit: one binary problem
// (sat, unsat) on the record's text, with the sentence-pairs section and
// the difficulty profile.
var Audit audit.Task = auditTask{}

type auditTask struct{}

var auditSpec = &audit.Spec{
	Labels: []string{"unsat", "sat"},
	Summary: func(features int, train string, records int) string {
		return fmt.Sprintf("Shortcut audit (nlsat audit): majority class, logistic regression on %d surface features and on\n"+
			"unigrams and bigrams, gradient-boosted trees on the structure of the text, trained on %s\n(%d records); ", features, train, records)
	},
	Features:      features,
	SentencePairs: true,
	Difficulty:    true,
}

func (auditTask) Spec() *audit.Spec { return auditSpec }

// The surface features, in report order. The token counts come from
// textfeat.Tokens: every occurrence of the word (any case) counts, so
// "Every" and "every" are both counted.
var features = []audit.Feature{
	feature("m", "number of sentences (the record's m)", audit.CountBin, "as is"),
	feature("n1", "distinct nouns (the record's n1)", audit.CountBin, "as is"),
	feature("n2", "distinct verbs (the record's n2)", audit.CountBin, "as is"),
	feature("alpha", "m / n1 (the record's alpha)", audit.RatioBin, "bins of width 0.5"),
	feature("beta", "m / n2 (the record's beta)", audit.RatioBin, "bins of width 0.5"),
	feature("every", `occurrences of the word "every"`, audit.CountBin, "as is"),
	feature("some", `occurrences of the word "some"`, audit.CountBin, "as is"),
	feature("no", `occurrences of the word "no"`, audit.CountBin, "as is"),
	feature("not", `occurrences of the word "not"`, audit.CountBin, "as is"),
	feature("non-", `words starting with "non-"`, audit.CountBin, "as is"),
	feature("who", `occurrences of the word "who"`, audit.CountBin, "as is"),
	feature("him", `occurrences of the word "him"`, audit.CountBin, "as is"),
	feature("existential", `share of sentences whose first word is "Some" (an ∃x formula)`, audit.ShareBin, "tenths"),
}

// Indices into a feature vector.
const (
	fM = iota
	fN1
	fN2
	fAlpha
	fBeta
	fEvery
	fSome
	fNo
	fNot
	fNon
	fWho
	fHim
	fExistential
	numFeatures
)

var tokenFeature = map[string]int{"every": fEvery, "some": fSome, "no": fNo, "not": fNot, "non-": fNon, "who": fWho, "him": fHim}

// slimRecord holds the fields of a record the audit uses; decoding only
// these skips building the formulas, nouns and verbs.
type slimRecord struct {
	ID        string   `json:"id"`
	Fragment  string   `json:"fragment"`
	Text      string   `json:"text"`
	Sentences []string `json:"sentences"`
	Label     int      `json:"label"`
	LabelText string   `json:"label_text"`
	M         int      `json:"m"`
	N1        int      `json:"n1"`
	N2        int      `json:"n2"`
	Alpha     float64  `json:"alpha"`
	Beta      float64  `json:"beta"`
	Seed      string   `json:"seed"`
	// For the difficulty profile: the MUS, and the contradictory pair
	// (nil when the record does not say).
	Certificate struct {
		MUS []int `json:"mus"`
	} `json:"certificate"`
	Difficulty struct {
		UnsatPair []int `json:"unsat_pair"`
	} `json:"difficulty"`
}

// Read decodes and checks a labelled sat/unsat record. Its text is what
// the n-gram models read; its sentences give the skeletons, statistics
// and sentence-pair patterns.
func (auditTask) Read(line []byte, row *audit.Row) error {
	var sr slimRecord
	if err := json.Unmarshal(line, &sr); err != nil {
		return fmt.Errorf("not a record: %w", err)
	}
	rec := &dataset.Record{ID: sr.ID, Fragment: sr.Fragment, Text: sr.Text, Sentences: sr.Sentences, Label: sr.Label,
		LabelText: sr.LabelText, M: sr.M, N1: sr.N1, N2: sr.N2, Alpha: dataset.Float(sr.Alpha), Beta: dataset.Float(sr.Beta)}
	if err := rec.Validate(); err != nil {
		return err
	}
	if rec.Label == dataset.LabelAbsent {
		return fmt.Errorf("record %s has no label (-1); the audit needs labelled records", rec.ID)
	}
	text := recordText(rec)
	row.Label, row.Fragment, row.M, row.N1, row.N2, row.ID, row.Seed = rec.Label, rec.Fragment, rec.M, rec.N1, rec.N2, sr.ID, sr.Seed
	row.X = surface(rec, text)
	row.Texts = []string{text}
	row.Skeletons, row.Stats = textfeat.Structure(rec.Sentences)
	row.Patterns[0], row.Patterns[1] = textfeat.PairPatterns(rec.Sentences, row.PatternNames)
	row.Core, row.Step = len(sr.Certificate.MUS), audit.StepUnknown
	if p := sr.Difficulty.UnsatPair; p != nil {
		row.Step = audit.StepNone
		if len(p) > 0 {
			row.Step = audit.StepFound
		}
	}
	return nil
}

// surface returns the feature vector of r, whose text is text.
func surface(r *dataset.Record, text string) []float64 {
	x := make([]float64, numFeatures)
	x[fM], x[fN1], x[fN2] = float64(r.M), float64(r.N1), float64(r.N2)
	x[fAlpha], x[fBeta] = float64(r.Alpha), float64(r.Beta)
	textfeat.Tokens(text, func(tok []byte) {
		if i, ok := tokenFeature[string(tok)]; ok {
			x[i]++
		}
	})
	some := 0
	for _, s := range r.Sentences {
		first := true
		textfeat.Tokens(s, func(tok []byte) {
			if first && string(tok) == "some" {
				some++
			}
			first = false
		})
	}
	x[fExistential] = float64(some) / float64(max(len(r.Sentences), 1))
	return x
}

// recordText is the record's text, or its sentences joined by single
// spaces, which is what the text is by the record specification
// (docs/records.md).
func recordText(r *dataset.Record) string {
	if r.Text != "" {
		return r.Text
	}
	return strings.Join(r.Sentences, " ")
}

func feature(name, about string, bin func(float64) int, binning string) audit.Feature {
	return audit.Feature{Name: name, About: about, Bin: bin, Binning: binning}
}
