// Package entailment is the entailment task: premises, a hypothesis of
// the same fragment, and a certified three-way label.
package entailment

import (
	"github.com/nlsat/nlsat/internal/entail"
	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/task"
)

// Task is the entailment task.
var Task = &task.Task{
	Name:     entail.TaskName,
	Doc:      "premises, a hypothesis and a three-way label",
	Schemas:  []string{entailrec.Schema},
	Marks:    []string{"premises", "hypothesis"},
	Classes:  entailrec.LabelNames[:],
	Generate: entail.Triples,
	Units:    entail.Split,
	Audit:    Audit,
	Prompt:   prompter{},
	Eval:     Eval,
}
