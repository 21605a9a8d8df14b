package entailment

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/entail"
	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// Audit is the task's part of the shortcut audit: a binary problem per
// pair of labels (a pair is balanced whenever the dataset is, as records
// come in triples, one per label, on one premise set) on the premises
// and the hypothesis, with two baselines of its own: hypothesis-only and
// premise-pairs. The records are decoded into a struct of the few fields
// the audit needs of schema nlsat-entail/1 (entailrec.Record holds them
// all), which skips the formulas and certificates.
var Audit audit.Task = auditTask{}

type auditTask struct{}

// hypothesisPrefix marks the hypothesis's tokens, so that the n-gram
// models tell "h:no" in the hypothesis from "no" in the premises. No token
// holds a colon, so the two never meet.
const hypothesisPrefix = "h:"

var auditSpec = &audit.Spec{
	Labels: entailrec.LabelNames[:],
	Name:   entail.TaskName,
	Schema: entailrec.Schema,
	Text:   "the premises and the hypothesis, the hypothesis's tokens prefixed h: (hypothesis-only reads them alone)",
	Summary: func(features int, train string, records int) string {
		return fmt.Sprintf("Shortcut audit (nlsat audit) of entailment records (%s) as three binary problems, one per\n"+
			"pair of labels: majority class, logistic regression on %d surface features, on unigrams and bigrams\n"+
			"of premises and hypothesis and of the hypothesis alone, gradient-boosted trees on the structure\n"+
			"of the text, trained on %s (%d records); ", entailrec.Schema, features, train, records)
	},
	Features:    features,
	Prefixes:    []string{"", hypothesisPrefix},
	GroupBySeed: true,
	Baselines: []audit.Baseline{
		{Name: HypothesisOnly, About: "logistic regression on log(1 + count) of each unigram and bigram of the hypothesis alone in the vocabulary, L2, L-BFGS",
			Grams: func(name string) bool { return strings.HasPrefix(name, hypothesisPrefix) }},
		{Name: PremisePairs, About: "logistic regression on the presence of each pattern of a premise and the hypothesis sharing content words (shared words X0, X1, others _) in at least two train records, L2, L-BFGS",
			Patterns: 0},
	},
}

// The task's own baselines: bow-logreg on the hypothesis's n-grams alone,
// and logistic regression on the patterns of a premise and the
// hypothesis that share content words.
const (
	HypothesisOnly = "hypothesis-only"
	PremisePairs   = "premise-pairs"
)

func (auditTask) Spec() *audit.Spec { return auditSpec }

// features are the surface features of an entailment record, in report
// order: the premises' sizes, then the hypothesis's words. They take the
// slots of the sat/unsat task's (alpha and beta become h-words and
// h-overlap), so every index but those two means the same word.
var features = []audit.Feature{
	feature("m", "premises (the record's m)", audit.CountBin, "as is"),
	feature("n1", "distinct nouns (the record's n1)", audit.CountBin, "as is"),
	feature("n2", "distinct verbs (the record's n2)", audit.CountBin, "as is"),
	feature("h-words", "tokens of the hypothesis (words, non- and its full stop)", audit.CountBin, "as is"),
	feature("h-overlap", "share of the hypothesis's unigrams and bigrams that occur in the premises", audit.ShareBin, "tenths"),
	feature("h-every", `occurrences of "every" in the hypothesis`, audit.CountBin, "as is"),
	feature("h-some", `occurrences of "some" in the hypothesis`, audit.CountBin, "as is"),
	feature("h-no", `occurrences of "no" in the hypothesis`, audit.CountBin, "as is"),
	feature("h-not", `occurrences of "not" in the hypothesis`, audit.CountBin, "as is"),
	feature("h-non-", `words of the hypothesis starting with "non-"`, audit.CountBin, "as is"),
	feature("h-who", `occurrences of "who" in the hypothesis`, audit.CountBin, "as is"),
	feature("h-him", `occurrences of "him" in the hypothesis`, audit.CountBin, "as is"),
	feature("h-existential", `1 when the hypothesis's first word is "Some" (an ∃x formula)`, audit.CountBin, "as is"),
}

// Indices into a feature vector.
const (
	fM = iota
	fN1
	fN2
	fHWords
	fHOverlap
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

// auditRecord holds the fields of an entailment record the audit uses.
type auditRecord struct {
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

// Read decodes and checks a labelled entailment record. The n-gram
// models read the premises joined by single spaces, then the hypothesis.
func (auditTask) Read(line []byte, row *audit.Row) error {
	var r auditRecord
	if err := json.Unmarshal(line, &r); err != nil {
		return fmt.Errorf("not a record: %w", err)
	}
	labels := entailrec.LabelNames
	switch {
	case r.ID == "" || len(r.Premises) == 0 || r.Hypothesis == "":
		return fmt.Errorf("entailment record %q lacks an id, premises or a hypothesis", r.ID)
	case r.Label == nil:
		return fmt.Errorf("entailment record %s has no label; the audit needs labelled records", r.ID)
	case *r.Label < 0 || *r.Label >= len(labels) || r.LabelText != labels[*r.Label]:
		return fmt.Errorf("entailment record %s: label %d and label_text %q do not agree (0 entailment, 1 neutral, 2 contradiction)", r.ID, *r.Label, r.LabelText)
	case r.M != len(r.Premises):
		return fmt.Errorf("entailment record %s: m is %d but it has %d premises", r.ID, r.M, len(r.Premises))
	}
	premises := strings.Join(r.Premises, " ")
	row.Label, row.Fragment, row.M, row.N1, row.N2, row.ID, row.Seed = *r.Label, r.Fragment, r.M, r.N1, r.N2, r.ID, r.Seed
	row.X = surface(&r, premises)
	row.Texts = []string{premises, r.Hypothesis}
	// The structure model sees the hypothesis's skeleton, and the
	// statistics of premises and hypothesis together (how the hypothesis's
	// words are used in the premises). The premises' own skeletons are
	// left out: a triple shares them, so they say nothing of the label.
	all := append(r.Premises[:len(r.Premises):len(r.Premises)], r.Hypothesis)
	row.Skeletons, _ = textfeat.Structure([]string{r.Hypothesis})
	_, row.Stats = textfeat.Structure(all)
	row.Patterns[0], row.Patterns[1] = textfeat.PremisePatterns(r.Premises, r.Hypothesis, row.PatternNames)
	return nil
}

// surface returns the feature vector of r, whose premises joined are
// premises.
func surface(r *auditRecord, premises string) []float64 {
	x := make([]float64, numFeatures)
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

func feature(name, about string, bin func(float64) int, binning string) audit.Feature {
	return audit.Feature{Name: name, About: about, Bin: bin, Binning: binning}
}
