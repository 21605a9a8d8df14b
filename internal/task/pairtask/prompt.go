package pairtask

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/prompt"
)

// The pair task's prompt asks whether the two sentences can both be
// true, after a worked example of each label when a file of them is
// named.
const question = "Can the following two sentences both be true? Generate consistent if they can and inconsistent if they cannot."

var variant = prompt.Variant{Key: "pair", Prompt: "prompt", Target: "target", Choices: Labels,
	About: `Pair prompt: answer "consistent" or "inconsistent"`}

// promptRow is one line of the task's prompt file.
type promptRow struct {
	ID         string   `json:"id"`
	Fragment   string   `json:"fragment"`
	Text       string   `json:"text"`
	Label      int      `json:"label"`
	LabelText  string   `json:"label_text"`
	Prompt     string   `json:"prompt"`
	Target     string   `json:"target"`
	ExampleIDs []string `json:"example_ids"`
}

type prompter struct{}

func (r *Record) Problem() string { return prompt.ProblemKey(r.Pair) }

func (prompter) Has() prompt.Options { return prompt.Options{} }

func (prompter) TrainExamples() bool { return true }

// Read reads JSONL records, compressed or not, of a file or stdin.
func (prompter) Read(file string, stdin io.Reader, fn func(prompt.Record, string) error) error {
	var r io.Reader
	if file == "-" {
		rc, err := dataset.NewReader(stdin, "stdin")
		if err != nil {
			return err
		}
		defer rc.Close()
		r = rc
	} else {
		rc, err := dataset.OpenFile(file)
		if err != nil {
			return err
		}
		defer rc.Close()
		r = rc
	}
	sc, n := bufio.NewScanner(r), 0
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		where := fmt.Sprintf("%s:%d", file, line)
		var rec Record
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil || len(rec.Pair) != 2 || rec.Label < 0 || rec.Label >= len(Labels) {
			return fmt.Errorf("%s: not a pair record", where)
		}
		n++
		if err := fn(&rec, where); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%s: no records", file)
	}
	return nil
}

// Examples takes the first record of each label of file; none for "".
func (p prompter) Examples(file string, stdin io.Reader, _ prompt.Options) (prompt.Examples, error) {
	e := &examples{}
	if file == "" {
		return e, nil
	}
	byLabel := make([]*Record, len(Labels))
	err := p.Read(file, stdin, func(r prompt.Record, _ string) error {
		if rec := r.(*Record); byLabel[rec.Label] == nil {
			byLabel[rec.Label] = rec
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("worked examples: %w", err)
	}
	for _, r := range byLabel {
		if r == nil {
			return nil, fmt.Errorf("worked examples: %s has no record of each label", file)
		}
	}
	e.shots = byLabel
	return e, nil
}

type examples struct{ shots []*Record }

func (e *examples) About() string {
	var ids []string
	for _, s := range e.shots {
		ids = append(ids, s.ID)
	}
	return strings.Join(ids, " ")
}

func (e *examples) Check(r prompt.Record) error {
	if e.Shown(r) {
		return fmt.Errorf("record %s is a worked example's pair", r.(*Record).ID)
	}
	return nil
}

func (e *examples) Shown(r prompt.Record) bool {
	for _, s := range e.shots {
		if s.ID == r.(*Record).ID || s.Problem() == r.Problem() {
			return true
		}
	}
	return false
}

func (e *examples) row(r *Record, shots []*Record) promptRow {
	var b strings.Builder
	b.WriteString("Q: " + question)
	row := promptRow{ID: r.ID, Fragment: r.Fragment, Text: r.Text, Label: r.Label, LabelText: Labels[r.Label], Target: Labels[r.Label], ExampleIDs: []string{}}
	for _, s := range shots {
		b.WriteString("\n\nSentences: " + s.Text + "\n\nA: " + Labels[s.Label])
		row.ExampleIDs = append(row.ExampleIDs, s.ID)
	}
	row.Prompt = b.String() + "\n\nSentences: " + r.Text + "\n\nA:"
	return row
}

func (e *examples) Row(r prompt.Record) (any, error) { return e.row(r.(*Record), e.shots), nil }

func (e *examples) Rows() ([]any, string) {
	var rows []any
	for _, s := range e.shots {
		rows = append(rows, e.row(s, nil))
	}
	return rows, "the worked examples alone"
}

func (e *examples) Tasks(tag string) []prompt.HarnessTask {
	v := variant
	v.Shots = len(e.shots) > 0
	return prompt.HarnessTasks(tag, v)
}
