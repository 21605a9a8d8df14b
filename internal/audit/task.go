package audit

import (
	"math"

	"github.com/nlsat/nlsat/internal/textfeat"
)

// Task is what the audit needs of a task: how one of its records is read
// into a Row, and (Spec) its labels, surface features, own baselines and
// sections and its lines of the report. Everything else (reading the
// splits, the generic baselines, scores, folds, strata, metadata, order,
// the reports) is the same for every task: Run is its one driver. A
// task's own package implements Task.
type Task interface {
	// Spec describes the task's records to the audit.
	Spec() *Spec
	// Read decodes and checks a record, a non-blank line of a split
	// file, into row, whose PatternNames the audit may have set. Its
	// errors are about the record; the audit names the file and line.
	Read(line []byte, row *Row) error
}

// Spec is what the audit of a task's records reads and reports beyond
// the generic baselines and sections.
type Spec struct {
	// Labels names the labels, by number. Two labels are audited as one
	// binary problem whose report calls label 1 sat and label 0 unsat;
	// more as one binary problem per pair of labels (the first label of
	// each playing sat) and the vote of the pairs' models (see
	// PairwiseReport).
	Labels []string
	// Name and Schema name the records in the report of a pairwise
	// audit, and Text says there what the n-gram baselines read of a
	// record.
	Name, Schema, Text string
	// Summary opens the summary: what was run on how many records of
	// train, up to "a shortcut is an accuracy whose ..." (which the audit
	// adds), given the number of surface features and train's name and
	// size.
	Summary func(features int, train string, records int) string
	// Features are the surface features, in report order: Row.X holds
	// their values.
	Features []Feature
	// Prefixes mark the tokens of Row.Texts: the tokens of Texts[k] are
	// prefixed with Prefixes[k] (none past the end), so that the n-gram
	// models tell one text's words from another's. No bigram spans two
	// texts.
	Prefixes []string
	// GroupBySeed says the records that share a seed's instance index
	// are one group (as the records of an entailment triple, which share
	// their premises), which scores out of fold together.
	GroupBySeed bool
	// Baselines are the task's own baselines, trained and scored with
	// the generic ones and reported after bow-logreg.
	Baselines []Baseline
	// SentencePairs adds the sentence-pairs section to a binary report
	// (the PairModels on Row.Patterns, scored on the records without a
	// one-step refutation, Row.Step); Difficulty adds the difficulty
	// profile (Row.Core and Row.Step).
	SentencePairs, Difficulty bool
}

// Row is what a task reads of one record for the audit.
type Row struct {
	// Label is the record's label, an index of Spec.Labels.
	Label int
	// Fragment, M, N1 and N2 place the record in its strata.
	Fragment  string
	M, N1, N2 int
	// ID and Seed are the record's id and seed: the metadata and order
	// sections read the numbers they end in (after "-" and ":").
	ID, Seed string
	// X are the values of Spec.Features.
	X []float64
	// Texts are what the n-gram baselines read (see Spec.Prefixes).
	Texts []string
	// Skeletons and Stats are what gbm-structure reads: sentence
	// skeletons and structural statistics (textfeat.Structure).
	Skeletons []uint64
	Stats     [textfeat.NumStats]float64
	// Patterns are the keys of the record's sentence-pair patterns
	// (textfeat.PairPatterns) of pairs sharing at least one and at least
	// two content words; the pattern baselines read them, and, where
	// PatternNames is not nil, the text of each key goes to it (the audit
	// asks for the texts only of the few patterns it names).
	Patterns     [2][]uint64
	PatternNames map[uint64]string
	// Core is the size of the record's certified core (the MUS of an
	// unsat instance), 0 for none; Step says whether the record holds a
	// refutation one step of inference finds (two sentences that
	// contradict each other).
	Core int
	Step Step
}

// Step says whether a record holds a certified one-step refutation.
type Step int8

const (
	// StepUnknown: the record does not say.
	StepUnknown Step = iota
	// StepNone: it holds none.
	StepNone
	// StepFound: it holds one.
	StepFound
)

// Feature is one surface measurement of a record. Bin discretises a value
// for the mutual information and the single-feature lookups; Binning
// says how, in the report.
type Feature struct {
	Name, About string
	Bin         func(v float64) int
	Binning     string
}

// The binnings of features: counts as they are, ratios in bins of width
// 0.5, shares in tenths.
func CountBin(v float64) int { return int(v) }
func RatioBin(v float64) int { return int(math.Floor(v / 0.5)) }
func ShareBin(v float64) int { return min(int(math.Floor(v*10)), 9) }

// Baseline is a task's own baseline: a logistic regression (L2, L-BFGS)
// the audit trains on train beside the generic ones, on the n-grams
// Grams keeps (log(1 + count), penalty LambdaBoW) or, when Grams is nil,
// on the presence of each pattern of Row.Patterns[Patterns] found in at
// least MinCount train records (penalty LambdaBoW).
type Baseline struct {
	Name, About string
	// Grams keeps an n-gram of the vocabulary by its name as reported
	// (tokens with their prefix, a bigram's joined by a space).
	Grams    func(name string) bool
	Patterns int
}
