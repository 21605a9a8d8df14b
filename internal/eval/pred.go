package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strings"
)

// TextFields are the keys searched, in this order, for a free-text answer
// when a prediction has none of its task's Spec.Keys and no field is
// named.
var TextFields = []string{"prediction", "response", "output", "answer"}

// Prediction is one line of a predictions file.
type Prediction struct {
	ID string
	// Label is the label the answer names, or Unparseable; Binary the
	// binary label it names (with Spec.Binary; else Label).
	Label, Binary int
	// Source says where the answer was read: a key of Spec.Keys, the
	// free-text key, or for lm-evaluation-harness samples "resps",
	// "filtered_resps[FILTER]" or "loglikelihood".
	Source string
	// Answer is the answer read (the free text; a value's text, as the
	// task keeps it; for loglikelihood the choices with their
	// log-likelihoods), and Phrase the words of it that decided.
	Answer, Phrase string
	// Where is "file:line", for messages.
	Where string

	// text is TextSum of the record's text the line carries (its
	// Spec.TextKeys, or an lm-eval doc's), if hasText; docLabel the gold
	// label an lm-eval doc carries, if hasDocLabel; filter the lm-eval
	// filter of the line.
	text                 uint64
	hasText, hasDocLabel bool
	docLabel             int
	filter               string
}

// PredOptions says how predictions are read.
type PredOptions struct {
	// Field, if set, is the only key read: a free-text answer (a JSON
	// string; null counts as an empty answer, so as unparseable), or a
	// value when it is one of the task's Spec.Keys. A line without the
	// key is an error.
	Field string
	// Answers names the set of answer words free text is searched for
	// (Task.ReadText); "" is the task's default.
	Answers string
	// Filter, for lm-evaluation-harness samples, reads the responses after
	// the task's filter of this name (filtered_resps of the lines whose
	// "filter" it is) instead of the raw generations (resps).
	Filter string
}

// ReadPredictions reads a JSONL file of predictions for gold of t. A line
// is either an object with an "id" and one answer: the first of t's
// Spec.Keys present, read by t.ReadKey, else free text in the first of
// TextFields present, read by t.ReadText; with opts.Field only that key
// is read, and otherwise a key whose value is null counts as absent. Or
// the line is a sample of lm-evaluation-harness's --log_samples output
// (see readSample). A line that carries the record's text (Spec.TextKeys,
// or the lm-eval doc's) has it checked against gold's by Evaluate.
// Malformed lines, lines without an answer and duplicate ids are errors
// naming the line.
func ReadPredictions(r io.Reader, name string, t Task, opts PredOptions) ([]Prediction, error) {
	if _, err := t.ReadText("", opts.Answers); err != nil {
		return nil, err
	}
	rd := reader{t: t, spec: t.Spec(), opts: opts}
	var preds []Prediction
	var filters []string
	seen := map[string]int{}
	err := EachLine(r, name, func(b []byte, where string) error {
		p, skip, err := rd.decodeLine(b)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if p.filter != "" && !slices.Contains(filters, p.filter) {
			filters = append(filters, p.filter)
		}
		if skip {
			return nil
		}
		p.Where = where
		if i, dup := seen[p.ID]; dup {
			return sameSample(preds[i], p)
		}
		seen[p.ID] = len(preds)
		preds = append(preds, p)
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case len(preds) == 0 && opts.Filter == "":
		return nil, fmt.Errorf("%s: no predictions", name)
	case len(preds) == 0:
		return nil, fmt.Errorf("%s: no lm-eval sample has the filter %q (the file has %s)", name, opts.Filter, strings.Join(quoted(filters), ", "))
	}
	return preds, nil
}

// reader reads the lines of a predictions file for gold of a task.
type reader struct {
	t    Task
	spec *Spec
	opts PredOptions
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
func (rd *reader) decodeLine(b []byte) (p Prediction, skip bool, err error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return p, false, fmt.Errorf("not a prediction: %w", err)
	}
	if _, ok := obj["doc_id"]; ok {
		if _, ok := obj["doc"]; ok {
			return rd.readSample(b)
		}
	}
	if rd.opts.Filter != "" {
		return p, false, fmt.Errorf("not an lm-eval sample (no doc_id and doc), but a filter was named")
	}
	p, err = rd.decodePrediction(obj)
	return p, false, err
}

func (rd *reader) decodePrediction(obj map[string]json.RawMessage) (Prediction, error) {
	var p Prediction
	if err := json.Unmarshal(obj["id"], &p.ID); err != nil || p.ID == "" {
		return p, fmt.Errorf("prediction has no id (a non-empty string)")
	}
	if !slices.Contains(rd.spec.TextKeys, rd.opts.Field) {
		p.text, p.hasText = rd.textOf(obj)
	}
	raw, field := findAnswer(obj, rd.opts.Field, rd.spec.Keys)
	p.Source = field
	switch {
	case field == "" && rd.opts.Field != "":
		return p, fmt.Errorf("prediction %s has no %q", p.ID, rd.opts.Field)
	case field == "":
		return p, fmt.Errorf("prediction %s has none of %s (name another key with --field)", p.ID, strings.Join(append(slices.Clone(rd.spec.Keys), TextFields...), ", "))
	case slices.Contains(rd.spec.Keys, field):
		a, err := rd.t.ReadKey(field, raw)
		if err != nil {
			return p, fmt.Errorf("prediction %s: %w", p.ID, err)
		}
		p.Answer = a.Text
		rd.set(&p, a)
		return p, nil
	}
	if err := json.Unmarshal(raw, &p.Answer); err != nil {
		return p, fmt.Errorf("prediction %s: %s is not a string", p.ID, field)
	}
	return p, rd.read(&p)
}

// read sets the labels from the free-text answer.
func (rd *reader) read(p *Prediction) error {
	a, err := rd.t.ReadText(p.Answer, rd.opts.Answers)
	rd.set(p, a)
	return err
}

// set gives p the labels and phrase of a, and the binary label of its
// label.
func (rd *reader) set(p *Prediction, a Answer) {
	p.Label, p.Binary, p.Phrase = a.Label, a.Binary, a.Phrase
	switch {
	case rd.spec.Binary == nil:
		p.Binary = p.Label
	case p.Label >= 0:
		p.Binary = rd.spec.Binary.Of[p.Label]
	}
}

// textOf returns TextSum of the record's text that obj (a line or an
// lm-eval doc) carries: its Spec.TextKeys' strings joined by line breaks,
// if it has them all.
func (rd *reader) textOf(obj map[string]json.RawMessage) (uint64, bool) {
	parts := make([]string, len(rd.spec.TextKeys))
	for i, k := range rd.spec.TextKeys {
		if json.Unmarshal(obj[k], &parts[i]) != nil {
			return 0, false
		}
	}
	return TextSum(strings.Join(parts, "\n")), len(parts) > 0
}

// findAnswer returns the key that holds the answer and its value: the
// named field, or the first of keys and TextFields present. With a named
// field, a null value reads as an empty answer.
func findAnswer(obj map[string]json.RawMessage, field string, keys []string) (json.RawMessage, string) {
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
	for _, k := range append(slices.Clone(keys), TextFields...) {
		if raw, ok := obj[k]; ok && !isNull(raw) {
			return raw, k
		}
	}
	return nil, ""
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// TextSum hashes an instance text with its runs of white space made one
// space, as records and prompt rows write it.
func TextSum(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.Join(strings.Fields(s), " ")))
	return h.Sum64()
}
