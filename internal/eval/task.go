package eval

import (
	"encoding/json"
	"strings"
	"unicode"
)

// Task is what the driver needs of a task: how its gold records and its
// answers are read, and what its report holds. Reading predictions
// (plain JSONL or lm-evaluation-harness samples), matching them with
// gold, scoring, and writing the reports and the per-record file are the
// same for every task. A task's own package implements it.
type Task interface {
	// Spec describes the task's labels, the keys its predictions carry
	// and its report. It is the same value at every call.
	Spec() *Spec
	// ReadGold reads the records file name, of the split file split (""
	// for a single file), and calls fn with each record as gold, in file
	// order. Its errors name the file and line; a record without a label
	// cannot be gold.
	ReadGold(name, split string, fn func(Gold) error) error
	// ReadKey reads the answer a prediction gives under key, one of
	// Spec.Keys; a value it cannot read is an error (the driver adds the
	// prediction's id), one it reads as no label is an answer with
	// Label Unparseable.
	ReadKey(key string, raw json.RawMessage) (Answer, error)
	// ReadText reads a free-text answer with the answer words of set
	// ("" the task's default set); an unknown set is an error.
	ReadText(text, set string) (Answer, error)
	// ReadChoice reads the answer of a multiple-choice lm-eval sample
	// whose choice k is the likeliest; choices are the continuations
	// ("" where the sample does not give them).
	ReadChoice(choices []string, k int) (Answer, error)
}

// Spec is what a task's evaluation is: its labels and answers, the keys
// of its predictions and the parts of its report.
type Spec struct {
	// Name is the task's name, for messages and, with Head, the report.
	Name string
	// Labels names the labels, by their index.
	Labels []string
	// Kind says what an answer naming a label is ("three-way"), when
	// Head gives it.
	Kind string
	// Binary, if set, is a coarser labelling into which every label maps,
	// scored beside the labels; an answer may give only it.
	Binary *Binary
	// Keys are the keys of a prediction that hold its answer as a value
	// (ReadKey), in order of preference, before the free-text ones
	// (TextFields).
	Keys []string
	// TextKeys are the keys of a prediction, or of an lm-eval doc, that
	// carry the record's text, which must be gold's (Gold.Text). A
	// prediction that names one of them as its answer is not checked.
	TextKeys []string
	// OtherText says, in the error about a prediction made for another
	// dataset, what it carries ("another instance text").
	OtherText string
	// Invalid is what an answer that is no label is called
	// ("unparseable").
	Invalid string
	// Breakdowns are the report's groupings, in order; Gold.Groups holds
	// a record's group in each.
	Breakdowns []Breakdown
	// Head heads the report with the task's name, the kind of its
	// answers and the labels scored.
	Head bool
	// PerLabel adds precision, recall and F1 per label, macro-F1 and the
	// confusion matrix.
	PerLabel bool
	// Pairs adds the minimal pairs' section (Gold.PairID).
	Pairs bool
	// Chains says that free-text answers may be checked as chains of
	// thought against the records' sentences (Gold.Sentences, labels as
	// dataset's: 0 unsat, 1 sat).
	Chains bool
	// Plot names the breakdown the figure draws, whose groups are a
	// curve and a number (fragment and n); "" for no figure.
	Plot string
}

// Binary is a task's coarser labelling.
type Binary struct {
	// Kind says what a binary answer is ("binary").
	Kind string
	// Labels names the binary labels, and Of gives each label's.
	Labels []string
	Of     []int
	// Samples marks the lm-eval tasks whose samples are scored as binary:
	// a predictions file named samples_..., Samples and "_" or "." in
	// its name.
	Samples string
}

// Breakdown is one grouping of a report: a table of the text report and a
// list of rows in the JSON one.
type Breakdown struct {
	// Name is the JSON key of its rows ("by_fragment").
	Name string
	// Title heads its table.
	Title string
	// Parts are the parts of a group, each a key of a row and a column of
	// the table.
	Parts []Part
	// Binned says that the group, one number, is binned by
	// Options.MBinWidth (1..w, w+1..2w, and so on).
	Binned bool
}

// Part is one part of a breakdown's groups.
type Part struct {
	// Field is its key in a JSON row ("key"), and Column its column's
	// head in a table.
	Field, Column string
	// Number writes it as a JSON number.
	Number bool
	// Order orders its values.
	Order func(x, y string) int
}

// Answer is a prediction's answer as its task reads it.
type Answer struct {
	// Label is the label it names, or Unparseable; Binary the binary
	// label it names when it names no label (set by the driver from
	// Label otherwise), or Unparseable.
	Label, Binary int
	// Text is the answer as read, when it is no free text (which the
	// driver keeps itself), and Phrase the words of it that decided.
	Text, Phrase string
}

// NoAnswer is an answer that names no label.
var NoAnswer = Answer{Label: Unparseable, Binary: Unparseable}

// Unparseable is the label of an answer that names none.
const Unparseable = -1

// Token is a word of a free-text answer, lower-cased, and where it is:
// text[Start:End]. Boundary says that a clause ends after it (at . , ;
// : ! ? ( ) [ ] or a line break), Slash that a "/" follows it.
type Token struct {
	Word            string
	Start, End      int
	Boundary, Slash bool
}

// Tokenize splits a free-text answer into its words, for tasks' readers:
// maximal runs of letters, digits, underscores and apostrophes, without
// the quotes that apostrophes at either end make ('satisfiable'), curly
// apostrophes made straight.
func Tokenize(text string) []Token {
	var toks []Token
	start := -1
	for i, r := range text + " " {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			toks = appendWord(toks, text, start, i)
			start = -1
		}
		if len(toks) > 0 {
			t := &toks[len(toks)-1]
			t.Boundary = t.Boundary || strings.ContainsRune(".,;:!?()[]\n", r)
			t.Slash = t.Slash || r == '/'
		}
	}
	return toks
}

// appendWord appends text[start:end] as a word, without the quotes that
// apostrophes at either end make.
func appendWord(toks []Token, text string, start, end int) []Token {
	for _, q := range []string{"'", "’"} {
		for strings.HasPrefix(text[start:end], q) {
			start += len(q)
		}
		for strings.HasSuffix(text[start:end], q) {
			end -= len(q)
		}
	}
	if start >= end {
		return toks
	}
	w := strings.ToLower(strings.ReplaceAll(text[start:end], "’", "'"))
	return append(toks, Token{Word: w, Start: start, End: end})
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '\'' || r == '’'
}
