package audit

import (
	"math"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// feature is one surface measurement of a record: a field of the record or
// a count in its text. bin discretises a value for the mutual information
// and the single-feature lookups.
type feature struct {
	name, about string
	bin         func(v float64) int
	binAbout    string
}

// The surface features, in report order. The token counts come from
// tokens: every occurrence of the word (any case) counts, so "Every" and
// "every" are both counted.
var features = [numFeatures]feature{
	{"m", "number of sentences (the record's m)", countBin, "as is"},
	{"n1", "distinct nouns (the record's n1)", countBin, "as is"},
	{"n2", "distinct verbs (the record's n2)", countBin, "as is"},
	{"alpha", "m / n1 (the record's alpha)", ratioBin, "bins of width 0.5"},
	{"beta", "m / n2 (the record's beta)", ratioBin, "bins of width 0.5"},
	{"every", `occurrences of the word "every"`, countBin, "as is"},
	{"some", `occurrences of the word "some"`, countBin, "as is"},
	{"no", `occurrences of the word "no"`, countBin, "as is"},
	{"not", `occurrences of the word "not"`, countBin, "as is"},
	{"non-", `words starting with "non-"`, countBin, "as is"},
	{"who", `occurrences of the word "who"`, countBin, "as is"},
	{"him", `occurrences of the word "him"`, countBin, "as is"},
	{"existential", `share of sentences whose first word is "Some" (an ∃x formula)`, shareBin, "tenths"},
}

// Indices into a feature vector for the features counted in the text.
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

func countBin(v float64) int { return int(v) }
func ratioBin(v float64) int { return int(math.Floor(v / 0.5)) }
func shareBin(v float64) int { return min(int(math.Floor(v*10)), 9) }

// surface returns the feature vector of r.
func surface(r *dataset.Record, text string) [numFeatures]float64 {
	var x [numFeatures]float64
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
