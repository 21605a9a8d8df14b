// Package task describes the tasks nlsat builds datasets of, as plug-ins
// of its generic drivers. A task is one value of Task: its name, its
// classes, and the parts of it each driver runs (generate's draw of a
// unit, ...). A task's own package assembles its Task from the builds
// and analyses that implement those parts, and the face registers it;
// the drivers never name a task.
//
// The built-in tasks are satunsat (sets of sentences labelled
// satisfiable or not) and entailment (premises, a hypothesis and a
// three-way label).
package task

import (
	"slices"
	"strings"
	"sync"

	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// Task is one task: what it is called, how its records are counted, and
// its part for each driver.
type Task struct {
	// Name is the task's name, as --task gives it.
	Name string
	// Doc says in a line what the task's records are.
	Doc string
	// Classes names the classes a run's progress counts, by the index
	// Generate.Class gives; nil for a task whose records are counted as
	// sat, unsat and undecided (by solver.Status).
	Classes []string
	// Generate draws and decides the units of generate's run.
	Generate generate.Task
}

var (
	mu    sync.Mutex
	tasks []*Task
)

// Register adds tasks to the registry. A name registered twice panics:
// registration is the program's, at start.
func Register(ts ...*Task) {
	mu.Lock()
	defer mu.Unlock()
	for _, t := range ts {
		if slices.ContainsFunc(tasks, func(u *Task) bool { return u.Name == t.Name }) {
			panic("task: " + t.Name + " registered twice")
		}
		tasks = append(tasks, t)
	}
}

// Lookup returns the task registered as name.
func Lookup(name string) (*Task, error) {
	mu.Lock()
	defer mu.Unlock()
	for _, t := range tasks {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, inputerr.Errorf("no task %q; the tasks are %s", name, strings.Join(namesLocked(), ", "))
}

// Names returns the registered tasks' names, in the order registered.
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	return namesLocked()
}

func namesLocked() []string {
	out := make([]string, len(tasks))
	for i, t := range tasks {
		out[i] = t.Name
	}
	return out
}

// String returns the task's name.
func (t *Task) String() string { return t.Name }
