package prompt

import (
	"io"
	"slices"
	"strings"
)

// Task is what a prompt run needs of a task: how its records are read,
// where its worked examples come from, and, through its Examples, how a
// record becomes a row of prompts and which lm-evaluation-harness tasks
// score those rows. The run itself (inputs and splits, the few-shot
// split, refusing a record that is a worked example or a few-shot record
// that is a scored one, writing the rows and the task files) is the same
// for every task.
type Task interface {
	// Has says which of Options the task has; a run that asks for
	// another is refused.
	Has() Options
	// TrainExamples reports whether, when no worked examples are named,
	// those of a dataset directory's records come from its train split.
	TrainExamples() bool
	// Read calls fn on each record of file ("-" for stdin) in order, with
	// "file:line" for messages. A file without records is an error; fn's
	// errors are returned as they are.
	Read(file string, stdin io.Reader, fn func(r Record, where string) error) error
	// Examples reads the worked examples from the records of file ("-"
	// for stdin), or returns the task's own when file is "" (built-in
	// ones, or none). Its errors are the user's.
	Examples(file string, stdin io.Reader, o Options) (Examples, error)
}

// Record is a record as a task's Read gives it.
type Record interface {
	// Problem identifies what the record asks about (a set of sentences,
	// a set of premises), whatever its order, as ProblemKey does: no
	// few-shot row has a scored record's problem.
	Problem() string
}

// Examples are the worked examples of a run's prompts, and what renders
// records with them.
type Examples interface {
	// About names them in the task files' headers ("" for none).
	About() string
	// Check refuses a record to prompt: one that is a worked example or
	// has one's problem (it would give its answer away), or one the
	// examples cannot serve. The error does not say where r is.
	Check(r Record) error
	// Shown reports whether r is a worked example or has one's problem:
	// a few-shot record that is left out.
	Shown(r Record) bool
	// Row renders r into its row: a value whose JSON is its line in the
	// prompt file, with every key in every row and one type per key.
	// With Options.CoT it has the chain-of-thought target target_cot.
	Row(r Record) (any, error)
	// Rows are the rows of the worked examples themselves, the few-shot
	// split when there is no other, and what they are in the task
	// files' headers ("the worked example X alone"); none when there
	// are no worked examples.
	Rows() (rows []any, source string)
	// Tasks are the lm-evaluation-harness tasks over the rows, named
	// after tag (HarnessTasks), with Options.CoT the chain-of-thought
	// task too (CoTTask).
	Tasks(tag string) []HarnessTask
}

// Options are the choices of a run that only some tasks have (Task.Has).
type Options struct {
	// CoT adds to every row a chain-of-thought target, target_cot, and
	// a task whose target it is.
	CoT bool
}

// OptionCoT names Options.CoT in an OptionError.
const OptionCoT = "chain-of-thought targets"

// OptionError refuses a run's option that its task does not have.
type OptionError struct {
	// Option is what the option adds (OptionCoT).
	Option string
}

func (e *OptionError) Error() string { return "the records' task has no " + e.Option }

// check refuses the options of o that has lacks.
func (o Options) check(has Options) error {
	if o.CoT && !has.CoT {
		return &OptionError{Option: OptionCoT}
	}
	return nil
}

// ProblemKey identifies a set of sentences whatever their order and
// repeats, and the spaces around them.
func ProblemKey(sentences []string) string {
	out := slices.Clone(sentences)
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	slices.Sort(out)
	return strings.Join(slices.Compact(out), "\n")
}
