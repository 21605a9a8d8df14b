// Package eval scores a model's predictions against gold records and
// breaks the accuracy down as the records' task reads it. The driver
// (Run: read gold and predictions, match, score, write the reports and
// the per-record file) is the same for every task; a task says, as a
// Task, how its gold records and answers are read and what its report
// holds (its labels, a binary labelling scored beside them, its
// breakdowns, per-label scores, minimal pairs, chains, a figure). The
// tasks' own packages implement it.
//
// The sat/unsat task's report reads as the paper does: per fragment (its
// Tables 1 and 2), per number of predicates n = n1 + n2 (its Figure 3
// and, with a generalisation split, Table 3), per number of sentences,
// per gold label and per difficulty; and, for the minimal pairs of nlsat
// pairs, how often a model gets both twins right. The entailment task's
// adds the binary accuracy (entailed or not), precision, recall and F1
// per label, macro-F1 and the confusion matrix in MNLI's order.
//
// # Predictions
//
// A predictions file is JSONL, one object per line with an "id" naming a
// gold record and one answer, read in this order of preference:
//
//   - the task's keys that hold an answer as a value (Spec.Keys), read by
//     Task.ReadKey: for sat/unsat "label", 1 (sat) or 0 (unsat), and
//     "label_text", "sat" or "unsat";
//   - free text from a language model in the first of "prediction",
//     "response", "output" and "answer" that is present, or in the one key
//     a caller names (PredOptions.Field), read by Task.ReadText.
//
// Other keys are ignored, so a file of gold records is itself a file of
// (perfect) predictions. A null value counts as an absent key, except in a
// named free-text field, where it is an empty answer.
//
// A line may instead be a sample of lm-evaluation-harness's --log_samples
// output (samples_TASK_DATE.jsonl, one line per document and filter, with
// "doc_id", "doc", "arguments", "resps", "filtered_resps" and "filter"),
// for the tasks that package prompt writes: the doc is a prompt row, whose
// "id" names the gold record. A generation is read from its raw text
// (resps), or with PredOptions.Filter from what that filter of the task
// left (filtered_resps), by the task's ReadText; the lines of one
// document under several filters count once. A multiple-choice sample
// answers with its choice of highest log-likelihood (Task.ReadChoice).
// See readSample.
//
// # Free-text answers
//
// A task reads free text as a person would; Tokenize gives its readers
// the words. The sat/unsat task's reader (satunsat.ReadAnswer) takes the
// first answer word, whole words only, negated by a "not", "cannot" or
// "n't" before it in its clause with only filler words between ("The
// sentences are not satisfiable." is unsat), and skipped when it is
// offered as an alternative ("True or False?"). An answer that names no
// label is counted (as "unparseable" or, for entailment, "invalid"),
// listed in Report.Unparsed, scored as wrong in Score.Accuracy, and left
// out of Score.AccuracyParseable.
//
// This differs from the generate_until tasks' regex filters, which take
// the first answer word literally and so read "not satisfiable" as sat;
// reading an lm-eval file with PredOptions.Filter gives the harness's
// reading.
//
// # Gold records
//
// Gold is one file of records or a dataset directory: its split files
// DIR/data/*.jsonl (or DIR/*.jsonl without a data directory), each a
// split named after its file, each read by Task.ReadGold. Every gold
// record must be labelled and ids must be unique across the files.
// Sat/unsat records may carry the keys "pair_id" and "pair_role"
// ("original" or "edited") of nlsat pairs; a record where both are
// absent, null or empty is not part of a pair.
//
// # Matching
//
// Every prediction must name a gold record, and each id may be predicted
// once. A gold record without a prediction is an error (a *MissingError)
// unless Options.AllowMissing, which leaves it out of every score and
// counts it in Report.Missing.
//
// Predictions made for another dataset are refused. nlsat's ids carry the
// digest of the configuration that built the data (dataset.FormatID), so a
// prediction for another seed's or other flags' record names an id that is
// not gold, and the error says which dataset it was made for. A prediction
// that carries the record's text (Spec.TextKeys: "text", or "premises_text"
// and "hypothesis"; or the lm-eval doc's) must carry gold's, whitespace
// aside, and an lm-eval doc's label must be gold's: that catches
// predictions for another dataset even where ids agree, as they did
// before ids carried digests. The report says what was checked
// (Report.Datasets, Report.TextsChecked).
//
// # Groups
//
// Every score has its count and a 95% Wilson interval. A record's group
// in each breakdown is its task's (Gold.Groups); a binned breakdown (the
// sat/unsat task's m) groups in bins of Options.MBinWidth: 1..w,
// w+1..2w, and so on. Unsat gold records are grouped by the size of the
// minimal unsatisfiable subset in their certificate, sat ones by the size
// of the checked model; a size of 0 (no certificate) is the group
// "unknown".
//
// With a binary labelling (Spec.Binary; entailment: entailed or not),
// every score has its binary score beside; when some answer names only a
// binary label ("not entailed"), or the predictions are lm-eval's samples
// of a binary task, every answer is scored as binary.
//
// # Determinism
//
// A Report depends only on the gold records and the predictions, not on
// the order of either file: every section is sorted, fragments S, W, V, Z,
// A first, split files train, validation, test, generalisation, zero-shot
// first, numbers in increasing order with "unknown" last.
package eval
