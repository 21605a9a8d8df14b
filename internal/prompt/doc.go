// Package prompt renders records into prompts, and writes
// lm-evaluation-harness task files that score a model on them: one run
// (Run) for every task, given the task's part as a Task.
//
// # Tasks
//
// A Task reads its records, takes its worked examples from a file (or has
// its own, or none), and through them renders each record into a row and
// names the harness tasks over the rows, each a Variant (the row's
// columns of a prompt, its expected answer and its label, the answers
// in label order) scored as multiple_choice or generate_until. The run
// does the rest: it resolves a dataset directory's split, refuses a
// record that is a worked example or has one's problem (it would give
// its answer away), writes the rows, the few-shot rows and the task
// files, and refuses an option (Options) the task has not. The sat/unsat
// and entailment tasks implement Task in their own packages, with the
// wording of their prompts.
//
// # Rows
//
// A row has every key in every row with one JSON type, so HuggingFace
// datasets (and so lm-evaluation-harness, through dataset_path: json)
// loads a file of rows without a schema and without glue code. All of a
// record's prompts are in the same row, so one file serves all tasks.
//
// # Scoring
//
// A row keeps the record's id, which names the configuration digest of the
// data it came from, and its text. lm-evaluation-harness's --log_samples
// output repeats the row as each sample's doc, so package eval reads that
// output as it is and checks both against the gold records. The task
// files' comments say how: run lm_eval with --log_samples, then nlsat eval.
package prompt
