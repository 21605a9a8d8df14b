// Package prompt renders instance records into the zero-shot prompts of the
// paper's Appendix C, and writes lm-evaluation-harness task files that
// score a model on them.
//
// # Wording
//
// Both prompts follow Appendix C word for word. Where the paper leaves a
// choice open, this package decides as follows.
//
//   - The set {s1, s2, ..., sm} is written as the sentences joined by single
//     spaces (the record's text), in the order generated: the braces and
//     commas are the paper's set notation, not text shown to the model.
//   - Paragraphs are separated by one blank line, as the paper lays them
//     out. In prompt (a) "Set of sentences:" stays in the paragraph of the
//     question, as printed; in prompt (b) it starts a paragraph of its own.
//   - In prompt (b) the question about the evaluated instance has no "Q:",
//     exactly as the paper prints it; only the worked example has one.
//   - Both prompts end with "A:" and no space: lm-evaluation-harness puts
//     its target delimiter, a space, before the answer, so that the worked
//     example's "A: False" and the scored "A: True" have the same shape.
//
// # The worked example
//
// Prompt (b) shows one solved instance before the evaluated one. By default
// it is the unsatisfiable instance of the paper's Figure 1 (Figure1), whose
// label the figure's caption proves; its answer is "False". Any other
// labelled record can be used instead. The example must not be one of the
// evaluated instances: callers check that with SameInstance.
//
// # Rows
//
// A Row has every key in every row with one JSON type, so HuggingFace
// datasets (and so lm-evaluation-harness, through dataset_path: json) loads
// a file of rows without a schema and without glue code. Both prompts are
// in the same row, so one file serves all tasks.
//
// # Entailment
//
// Entailment records (schema nlsat-entail/1) become EntailRows: the
// question states what each answer means in plain words (entailment: the
// hypothesis follows from the premises; neutral: the premises leave it
// open; contradiction: it conflicts with them), then the premises joined
// by spaces, the hypothesis and "A:", in the layout of the prompts above.
// The binary prompt asks for entailed or not entailed. The few-shot
// prompts show a worked example per label before the problem, taken from
// training records of the evaluated record's own fragment (Shots), so each
// fragment has its own prompt and every prompt is label-balanced; a
// prompted record with an example's premises is refused (CheckShot), as
// the example would give its triple's answers away. EntailTasks are the
// lm-evaluation-harness tasks, in the same schema as Tasks.
//
// # Scoring
//
// A row keeps the record's id, which names the configuration digest of the
// data it came from, and its text. lm-evaluation-harness's --log_samples
// output repeats the row as each sample's doc, so package eval reads that
// output as it is and checks both against the gold records. The task
// files' comments say how: run lm_eval with --log_samples, then nlsat eval.
package prompt
