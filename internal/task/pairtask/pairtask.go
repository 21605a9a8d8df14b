// Package pairtask is a small task that exists to show, in tests, that a
// task is a plug-in: is a pair of sentences consistent? A record holds
// two sentences of one fragment over shared words, labelled consistent
// or inconsistent by the solver. Nothing outside this package knows it;
// a test registers it beside the built-in tasks and runs every driver on
// it.
package pairtask

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/task"
)

// Name is the task's name.
const Name = "pair"

// Schema names the task's record layout.
const Schema = "nlsat-pairtask/1"

// Labels are the task's classes, by label.
var Labels = []string{"inconsistent", "consistent"}

// Record is one pair of sentences and its label.
type Record struct {
	ID        string   `json:"id" parquet:"id"`
	Fragment  string   `json:"fragment" parquet:"fragment,dict"`
	Pair      []string `json:"pair" parquet:"pair,list"`
	Text      string   `json:"text" parquet:"text"`
	Label     int      `json:"label" parquet:"label"`
	LabelText string   `json:"label_text" parquet:"label_text,dict"`
	// M, N1 and N2 are the point the pair was drawn at: the pair is the
	// first two of the M sentences of an instance there.
	M    int    `json:"m" parquet:"m"`
	N1   int    `json:"n1" parquet:"n1"`
	N2   int    `json:"n2" parquet:"n2"`
	Seed string `json:"seed" parquet:"seed"`
}

// SetID sets the record's id.
func (r *Record) SetID(id string) { r.ID = id }

// Normalize fills the derived fields.
func (r *Record) Normalize() {
	if r.Pair == nil {
		r.Pair = []string{}
	}
	r.Text = strings.Join(r.Pair, " ")
	r.LabelText = Labels[r.Label]
}

// Task is the pair task.
var Task = &task.Task{
	Name:     Name,
	Doc:      "two sentences labelled consistent or not (a task for tests)",
	Schemas:  []string{Schema},
	Marks:    []string{"pair"},
	Classes:  Labels,
	Generate: generator{},
	Prompt:   prompter{},
	Units:    splitter{},
	Eval:     evaluator{},
	Audit:    auditor{},
}

type generator struct{}

func (generator) Check(p *generate.Plan, out dataset.Output) error {
	switch {
	case p.Solver == "none":
		return inputerr.Errorf("the pair task needs a solver")
	case out.Minimal || p.Distractors > 0 || p.Proofs:
		return inputerr.Errorf("the pair task has no minimal layout, distractors or proofs")
	}
	return nil
}

func (generator) Digest(p *generate.Plan) string {
	sum := sha256.Sum256([]byte(p.Digest() + "\x00task=" + Name))
	return hex.EncodeToString(sum[:])
}

func (generator) Units(*generate.Plan) int { return -1 }

func (generator) Row(*generate.Plan) reflect.Type { return reflect.TypeFor[Record]() }

// Unit is the first two sentences of the plan's instance i, decided.
func (generator) Unit(ctx context.Context, p *generate.Plan, b solver.Backend, i int) (generate.Unit, error) {
	inst, err := p.Draw(i)
	if err != nil {
		return generate.Unit{}, err
	}
	if len(inst.Sentences) < 2 {
		return generate.Unit{}, fmt.Errorf("instance %s has %d sentences; the pair task needs 2", dataset.SeedString(p.Seed, i), len(inst.Sentences))
	}
	m := len(inst.Sentences)
	inst.Sentences = inst.Sentences[:2]
	v, err := solver.Decide(ctx, b, inst.Formulas(), solver.DecideOptions{})
	if err != nil {
		return generate.Unit{}, fmt.Errorf("pair %s: %w", dataset.SeedString(p.Seed, i), err)
	}
	u := generate.Unit{Point: [3]int{m, len(inst.Nouns), len(inst.Verbs)}, Status: v.Status, Reason: v.Reason.String()}
	if v.Status == solver.Unknown {
		return u, nil
	}
	r := &Record{Fragment: inst.Fragment.String(), Pair: inst.English(), M: m, N1: len(inst.Nouns), N2: len(inst.Verbs),
		Seed: dataset.SeedString(p.Seed, i)}
	if v.Status == solver.Sat {
		r.Label = 1
	}
	u.Reason = ""
	u.Records = []generate.Record{r}
	return u, nil
}

func (generator) Class(r generate.Record) int { return r.(*Record).Label }

func (generator) NewRecord() generate.Record { return new(Record) }
