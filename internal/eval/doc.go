// Package eval scores a model's predictions against gold instance records
// and breaks the accuracy down the way the paper reads it: per fragment
// (its Tables 1 and 2), per number of predicates n = n1 + n2 (its Figure 3
// and, with a generalisation split, Table 3), per number of sentences, per
// gold label and per difficulty; and, for the minimal pairs of nlsat
// pairs, how often a model gets both twins right.
//
// # Predictions
//
// A predictions file is JSONL, one object per line with an "id" naming a
// gold record and one answer, read in this order of preference:
//
//   - "label": 1 (sat) or 0 (unsat), as integers or as 1.0 and 0.0;
//   - "label_text": "sat" or "unsat";
//   - free text from a language model in the first of "prediction",
//     "response", "output" and "answer" that is present, or in the one key
//     a caller names (PredOptions.Field).
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
// left (filtered_resps), by the rule below; the lines of one document
// under several filters count once. A multiple-choice sample answers with
// its choice of highest log-likelihood. See readSample.
//
// # Free-text answers
//
// Appendix C asks for "satisfiable" or "unsatisfiable" (prompt a) and
// "True" or "False" (prompt b). ReadAnswer reads an answer as a person
// would: the first answer word decides, whole words only, negated by a
// "not", "cannot" or "n't" before it in its clause with only filler words
// between ("The sentences are not satisfiable." is unsat), and skipped
// when it is offered as an alternative ("True or False?"). Its doc comment
// states the rule; answer_test.go reads a table of answers as models give
// them. An answer with no answer word is unparseable: it is counted,
// listed in Report.UnparseableAnswers, scored as wrong in Score.Accuracy,
// and left out of Score.AccuracyParseable.
//
// This differs from the generate_until tasks' regex filters, which take
// the first answer word literally and so read "not satisfiable" as sat;
// reading an lm-eval file with PredOptions.Filter gives the harness's
// reading.
//
// # Gold records
//
// Gold is one JSONL file of records or a dataset directory: its split
// files DIR/data/*.jsonl (or DIR/*.jsonl without a data directory), each a
// split named after its file. Every gold record must be labelled and ids
// must be unique across the files. Records may carry the keys "pair_id"
// and "pair_role" ("original" or "edited") of nlsat pairs; a record where
// both are absent, null or empty is not part of a pair.
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
// that carries the instance's text (a "text" key, or the lm-eval doc's)
// must carry gold's, whitespace aside, and an lm-eval doc's label must be
// gold's: that catches predictions for another dataset even where ids
// agree, as they did before ids carried digests. The report says what was
// checked (Report.Datasets, Report.TextsChecked).
//
// # Groups
//
// Every score has its count and a 95% Wilson interval. m is grouped in
// bins of Options.MBinWidth sentences: 1..w, w+1..2w, and so on. Unsat
// gold records are grouped by the size of the minimal unsatisfiable subset
// in their certificate, sat ones by the size of the checked model; a size
// of 0 (no certificate) is the group "unknown".
//
// # Entailment
//
// Gold records of schema nlsat-entail/1 (RecordSchema tells them, by the
// dataset's manifest or the first record's keys) are scored by RunEntail:
// accuracy and binary accuracy overall, per split file, fragment,
// difficulty (difficulty.subset_size) and split and fragment; precision,
// recall and F1 per label and macro-F1; the confusion matrix in MNLI's
// order. Answers are read by ReadEntailAnswer and ReadEntailPredictions;
// an answer that is no label is invalid, counted as wrong, like an
// unparseable one. Matching is as above, the premises and hypothesis
// standing for the text.
//
// # Determinism
//
// A Report depends only on the gold records and the predictions, not on
// the order of either file: every section is sorted, fragments S, W, V, Z,
// A first, split files train, validation, test, generalisation, zero-shot
// first, numbers in increasing order with "unknown" last.
package eval
