package main

import (
	"strings"

	"github.com/nlsat/nlsat/internal/task"
	"github.com/nlsat/nlsat/internal/task/entailment"
	"github.com/nlsat/nlsat/internal/task/satunsat"
)

// The tasks nlsat builds; a new task's package is registered here.
func init() { task.Register(satunsat.Task, entailment.Task) }

// newTaskEnum is the --task flag: a registered task's name, the sat/unsat
// task by default.
func newTaskEnum() *enumFlag { return newEnum(satunsat.Name, task.Names()...) }

// taskUsage is --task's usage: each task's name and what its records are.
func taskUsage() string {
	var parts []string
	for _, n := range task.Names() {
		t, _ := task.Lookup(n)
		parts = append(parts, n+": "+t.Doc)
	}
	return strings.Join(parts, "; ")
}
