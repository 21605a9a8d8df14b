// Package satunsat is the sat/unsat task: a set of sentences of one
// fragment, labelled satisfiable or unsatisfiable with a certificate.
package satunsat

import (
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/task"
)

// Name is the task's name.
const Name = "instance"

// Task is the sat/unsat task.
var Task = &task.Task{
	Name:     Name,
	Doc:      "sets of sentences labelled sat/unsat",
	Schemas:  []string{dataset.SchemaVersion, dataset.ProofSchemaVersion},
	Generate: generate.Instances,
	Audit:    Audit,
	Prompt:   prompter{},
	Eval:     Eval,
}
