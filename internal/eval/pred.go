package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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
	// Where is "file:line", for messages.
	Where string
}

// PredOptions says how predictions are read.
type PredOptions struct {
	// Field, if set, is the only key read: a free-text answer (a JSON
	// string; null counts as an empty answer, so as unparseable). A line
	// without the key is an error.
	Field string
	// Answers is the set of answer words free text is searched for.
	Answers AnswerSet
}

// ReadPredictions reads a JSONL file of predictions, each an object with
// an "id" and one answer: "label" (0 or 1), else "label_text" ("sat" or
// "unsat"), else free text in the first of TextFields present, mapped by
// ReadAnswer. With opts.Field only that key is read, as free text.
// Otherwise a key whose value is null counts as absent. Malformed lines, lines without an
// answer and duplicate ids are errors naming the line.
func ReadPredictions(r io.Reader, name string, opts PredOptions) ([]Prediction, error) {
	if opts.Answers == "" {
		opts.Answers = AnswersAny
	}
	if _, err := ReadAnswer("", opts.Answers); err != nil {
		return nil, err
	}
	var preds []Prediction
	seen := map[string]string{}
	err := eachLine(r, name, func(b []byte, where string) error {
		p, err := decodePrediction(b, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if first, dup := seen[p.ID]; dup {
			return fmt.Errorf("%s: duplicate prediction for id %s (first at %s)", where, p.ID, first)
		}
		seen[p.ID] = where
		p.Where = where
		preds = append(preds, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(preds) == 0 {
		return nil, fmt.Errorf("%s: no predictions", name)
	}
	return preds, nil
}

func decodePrediction(b []byte, opts PredOptions) (Prediction, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return Prediction{}, fmt.Errorf("not a prediction: %w", err)
	}
	var p Prediction
	if err := json.Unmarshal(obj["id"], &p.ID); err != nil || p.ID == "" {
		return p, fmt.Errorf("prediction has no id (a non-empty string)")
	}
	var err error
	switch raw, field := findAnswer(obj, opts.Field); field {
	case "":
		if opts.Field != "" {
			return p, fmt.Errorf("prediction %s has no %q", p.ID, opts.Field)
		}
		return p, fmt.Errorf("prediction %s has none of label, label_text, %s (name another key with --field)", p.ID, strings.Join(TextFields, ", "))
	case "label":
		if err := json.Unmarshal(raw, &p.Label); err != nil || (p.Label != dataset.LabelSat && p.Label != dataset.LabelUnsat) {
			return p, fmt.Errorf("prediction %s: label %s is not 0 or 1", p.ID, raw)
		}
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
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return p, fmt.Errorf("prediction %s: %s is not a string", p.ID, field)
		}
		var r Reading
		r, err = ReadAnswer(s, opts.Answers)
		p.Label = r.Label
	}
	return p, err
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
