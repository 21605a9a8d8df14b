// Package task describes the tasks nlsat builds datasets of, as plug-ins
// of its generic drivers. A task is one value of Task: its name, what
// tells its records, its classes, and the part of it each driver runs
// (generate's draw of a unit, the balanced split's unit, eval's reading
// of gold and answers, prompt's rows, the audit's rows). Each driver
// declares the interface of its part; a task's own package implements
// them from the builds and analyses below it and assembles its Task, and
// the face registers it. The drivers never name a task.
//
// The built-in tasks are satunsat (sets of sentences labelled
// satisfiable or not) and entailment (premises, a hypothesis and a
// three-way label).
package task

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/prompt"
	"github.com/nlsat/nlsat/internal/split/units"
)

// Task is one task: what it is called, how its records are counted, and
// its part for each driver.
type Task struct {
	// Name is the task's name, as --task gives it.
	Name string
	// Doc says in a line what the task's records are.
	Doc string
	// Schemas are the record_schema values of its datasets' manifests,
	// and Marks the fields whose presence in a record tells its records
	// from the others' (nil for the task whose records are told by
	// nothing: the default).
	Schemas []string
	Marks   []string
	// Classes names the classes a run's progress counts, by the index
	// Generate.Class gives; nil for a task whose records are counted as
	// sat, unsat and undecided (by solver.Status).
	Classes []string
	// Generate draws and decides the units of generate's run.
	Generate generate.Task
	// Units is split's part for a task whose units hold one record per
	// class, built balanced by construction (package split/units); nil
	// for the sat/unsat task, whose split is package split's own build.
	Units units.Task
	// Audit reads the task's records for the shortcut audit and says
	// how they are audited.
	Audit audit.Task
	// Prompt reads and renders the records of prompt's run, and names
	// the lm-evaluation-harness tasks that score them.
	Prompt prompt.Task
	// Eval reads the task's gold records and answers for eval's run, and
	// says what its report holds.
	Eval eval.Task
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

// Detect returns the task whose records path holds (a records file in
// any format, or a dataset directory): the one whose schema its
// dataset's manifest names, else the one whose marks its first record
// has, else the task without marks.
func Detect(path string) (*Task, error) {
	sn, err := dataset.Sniff(path)
	if err != nil {
		return nil, inputerr.Errorf("cannot read %s: %w", path, err)
	}
	return detect(sn, path)
}

// DetectLine returns the task of a record read from where (stdin, say),
// given its JSON line: the one whose marks it has, else the task without
// marks.
func DetectLine(line []byte, where string) (*Task, error) {
	return detect(dataset.Sniffed{Fields: dataset.LineFields(line)}, where)
}

// detect returns the task of what sn says of the records of where.
func detect(sn dataset.Sniffed, where string) (*Task, error) {
	mu.Lock()
	defer mu.Unlock()
	var plain *Task
	for _, t := range tasks {
		if sn.Schema != "" && slices.Contains(t.Schemas, sn.Schema) {
			return t, nil
		}
	}
	for _, t := range tasks {
		if t.Marks == nil {
			plain = cmp.Or(plain, t)
			continue
		}
		if len(sn.Fields) > 0 && !slices.ContainsFunc(t.Marks, func(f string) bool { return !sn.Fields[f] }) {
			return t, nil
		}
	}
	if plain == nil {
		return nil, inputerr.Errorf("%s: records of no registered task", where)
	}
	return plain, nil
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
