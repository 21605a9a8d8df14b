package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
)

// TextFields are the keys searched, in this order, for a free-text answer
// when a prediction has neither label nor label_text and no field is named.
var TextFields = []string{"prediction", "response", "output", "answer"}

// Prediction is one line of a predictions file.
type Prediction struct {
	ID string
	// Label is dataset.LabelSat, dataset.LabelUnsat or Unparseable.
	Label int
	// Source says where the answer was read: "label", "label_text", the
	// free-text key, or for lm-evaluation-harness samples "resps",
	// "filtered_resps[FILTER]" or "loglikelihood".
	Source string
	// Answer is the free text read (empty for label and label_text; for
	// loglikelihood the choices with their log-likelihoods), and Phrase
	// the words of it that decided (see ReadAnswer).
	Answer, Phrase string
	// Where is "file:line", for messages.
	Where string

	// text is a hash of the instance text the line carries (its "text",
	// or an lm-eval doc's), if hasText; docLabel the gold label an lm-eval
	// doc carries, if hasDocLabel; filter the lm-eval filter of the line.
	text                 uint64
	hasText, hasDocLabel bool
	docLabel             int
	filter               string
}

// PredOptions says how predictions are read.
type PredOptions struct {
	// Field, if set, is the only key read: a free-text answer (a JSON
	// string; null counts as an empty answer, so as unparseable). A line
	// without the key is an error.
	Field string
	// Answers is the set of answer words free text is searched for.
	Answers AnswerSet
	// Filter, for lm-evaluation-harness samples, reads the responses after
	// the task's filter of this name (filtered_resps of the lines whose
	// "filter" it is) instead of the raw generations (resps).
	Filter string
}

// ReadPredictions reads a JSONL file of predictions. A line is either an
// object with an "id" and one answer: "label" (0 or 1, 0.0 and 1.0 too),
// else "label_text" ("sat" or "unsat"), else free text in the first of
// TextFields present, read by ReadAnswer; with opts.Field only that key is
// read, as free text, and otherwise a key whose value is null counts as
// absent. Or the line is a sample of lm-evaluation-harness's --log_samples
// output (see readSample). A line that carries the instance's text (a
// "text" key, or the lm-eval doc's) has it checked against gold's by
// Evaluate. Malformed lines, lines without an answer and duplicate ids are
// errors naming the line.
func ReadPredictions(r io.Reader, name string, opts PredOptions) ([]Prediction, error) {
	if opts.Answers == "" {
		opts.Answers = AnswersAny
	}
	if _, err := ReadAnswer("", opts.Answers); err != nil {
		return nil, err
	}
	var filters []string
	decode := func(b []byte, where string) (Prediction, bool, error) {
		p, skip, err := decodeLine(b, opts)
		if err == nil && p.filter != "" && !slices.Contains(filters, p.filter) {
			filters = append(filters, p.filter)
		}
		p.Where = where
		return p, skip, err
	}
	preds, err := readPredLines(r, name, opts.Filter, decode, func(p *Prediction) string { return p.ID }, sameSample)
	if err == nil && len(preds) == 0 {
		err = fmt.Errorf("%s: no lm-eval sample has the filter %q (the file has %s)", name, opts.Filter, strings.Join(quoted(filters), ", "))
	}
	if err != nil {
		return nil, err
	}
	return preds, nil
}

// readPredLines reads the lines of a predictions file with decode, which
// says where a line is and to skip it (an lm-eval sample of another
// filter than the one named), and keeps the first line for each id; again
// judges a later line for an id: an error, or nil to drop it (lm-eval
// writes a sample of a document per filter). Reading sat/unsat and
// entailment predictions differs only in decode and again. A file with no
// line to keep is an error when no filter is named; with one, preds is
// empty and the caller says which filters there are.
func readPredLines[P any](r io.Reader, name, filter string, decode func(b []byte, where string) (P, bool, error),
	id func(*P) string, again func(first, p P) error) ([]P, error) {
	var preds []P
	seen := map[string]int{}
	err := eachLine(r, name, func(b []byte, where string) error {
		p, skip, err := decode(b, where)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if skip {
			return nil
		}
		if i, dup := seen[id(&p)]; dup {
			return again(preds[i], p)
		}
		seen[id(&p)] = len(preds)
		preds = append(preds, p)
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case len(preds) == 0 && filter == "":
		return nil, fmt.Errorf("%s: no predictions", name)
	}
	return preds, nil
}

// sameSample accepts the second line for an id when both are lm-eval
// samples of one document under two filters (the harness writes a line
// per filter), with the same raw response; any other repeat is an error.
func sameSample(first, p Prediction) error {
	if first.filter == "" || p.filter == "" || first.filter == p.filter {
		return fmt.Errorf("%s: duplicate prediction for id %s (first at %s)", p.Where, p.ID, first.Where)
	}
	if first.Answer != p.Answer {
		return fmt.Errorf("%s: lm-eval sample for id %s under filter %q has another response than under %q (at %s)", p.Where, p.ID, p.filter, first.filter, first.Where)
	}
	return nil
}

func quoted(s []string) []string {
	out := []string{}
	for _, x := range s {
		out = append(out, fmt.Sprintf("%q", x))
	}
	if len(out) == 0 {
		out = append(out, "no filter")
	}
	return out
}

// decodeLine reads one line; skip says that it is an lm-eval sample of
// another filter than opts.Filter.
func decodeLine(b []byte, opts PredOptions) (p Prediction, skip bool, err error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return p, false, fmt.Errorf("not a prediction: %w", err)
	}
	if _, ok := obj["doc_id"]; ok {
		if _, ok := obj["doc"]; ok {
			return readSample(b, opts)
		}
	}
	if opts.Filter != "" {
		return p, false, fmt.Errorf("not an lm-eval sample (no doc_id and doc), but a filter was named")
	}
	p, err = decodePrediction(obj, opts)
	return p, false, err
}

func decodePrediction(obj map[string]json.RawMessage, opts PredOptions) (Prediction, error) {
	var p Prediction
	if err := json.Unmarshal(obj["id"], &p.ID); err != nil || p.ID == "" {
		return p, fmt.Errorf("prediction has no id (a non-empty string)")
	}
	if raw, ok := obj["text"]; ok && opts.Field != "text" {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			p.text, p.hasText = textSum(s), true
		}
	}
	raw, field := findAnswer(obj, opts.Field)
	p.Source = field
	switch field {
	case "":
		if opts.Field != "" {
			return p, fmt.Errorf("prediction %s has no %q", p.ID, opts.Field)
		}
		return p, fmt.Errorf("prediction %s has none of label, label_text, %s (name another key with --field)", p.ID, strings.Join(TextFields, ", "))
	case "label":
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil || (f != 0 && f != 1) {
			return p, fmt.Errorf("prediction %s: label %s is not 0 or 1", p.ID, raw)
		}
		p.Label = int(f)
	case "label_text":
		var s string
		json.Unmarshal(raw, &s)
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "sat":
			p.Label = dataset.LabelSat
		case "unsat":
			p.Label = dataset.LabelUnsat
		default:
			return p, fmt.Errorf("prediction %s: label_text %s is not \"sat\" or \"unsat\"", p.ID, raw)
		}
	default:
		if err := json.Unmarshal(raw, &p.Answer); err != nil {
			return p, fmt.Errorf("prediction %s: %s is not a string", p.ID, field)
		}
		return p, p.read(opts.Answers)
	}
	return p, nil
}

// read sets the label from the free-text answer.
func (p *Prediction) read(set AnswerSet) error {
	r, err := ReadAnswer(p.Answer, set)
	p.Label, p.Phrase = r.Label, r.Phrase
	return err
}

// findAnswer returns the key that holds the answer and its value. With a
// named field, a null value reads as an empty answer.
func findAnswer(obj map[string]json.RawMessage, field string) (json.RawMessage, string) {
	if field != "" {
		raw, ok := obj[field]
		switch {
		case !ok:
			return nil, ""
		case isNull(raw):
			return json.RawMessage(`""`), field
		}
		return raw, field
	}
	for _, k := range append([]string{"label", "label_text"}, TextFields...) {
		if raw, ok := obj[k]; ok && !isNull(raw) {
			return raw, k
		}
	}
	return nil, ""
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// textSum hashes an instance text with its runs of white space made one
// space, as records and prompt rows write it.
func textSum(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.Join(strings.Fields(s), " ")))
	return h.Sum64()
}
