package main

// evalHelp describes, for nlsat eval's help, what the command does.
const evalHelp = `Eval scores a predictions file against gold records and prints the accuracy
overall, per split file (when --gold is a directory), per fragment, per
n = n1 + n2, per bin of m, per gold label, per size of the minimal
unsatisfiable subset (unsat gold) and of the checked model (sat gold), per
fragment and n (the paper's Figure 3) and per split file and fragment, each
with its count and a 95% Wilson interval. When the gold records carry the
pair_id and pair_role keys of nlsat pairs, it also prints the share of
minimal pairs whose twins are both predicted right, and the share whose
prediction changes between the twins.

Predictions are JSONL objects with an "id" and one answer: "label" (1 sat,
0 unsat), else "label_text" ("sat" or "unsat"), else free text from a
language model in "prediction", "response", "output" or "answer" (or the
key --field names). Or they are the samples_TASK_DATE.jsonl that lm_eval
--log_samples writes for the tasks of nlsat prompt, as they are: the doc's
id names the gold record; a generation is read from resps (or, with
--filter, from the filter's filtered_resps), a multiple-choice answer is
the choice of highest log-likelihood.

Free text is read as a person would: the first of "satisfiable", "sat",
"consistent", "True" and their opposites decides (--answers narrows the
words to one prompt's), whole words only, flipped by a negation before it
in its clause ("not satisfiable", "cannot all be true"); "True or False"
is no answer. Answers without such a word are unparseable: counted as
wrong, listed, and left out of the accuracy over parseable answers.

Ids carry the digest of the configuration that built the data, and a
prediction that carries the instance's text (a "text" key, lm_eval's doc)
has it compared with gold's: predictions made for another seed or other
flags are refused. So are a prediction for an id that is not gold, a
duplicate id and a gold record without a prediction (exit 2, naming the
file and line); --allow-missing scores the predicted records.

--chains also checks, step by step, the chain of thought in every free-text
answer, in the form nlsat prompt --cot teaches (numbered steps, each with
its justification: "sentence 3", "by 1, 4"): each step's English is read
back to a formula with the vocabulary (--vocab for another than the
built-in one) and must follow from what it cites by the check nlsat
proofs pass. It prints, for unsat and sat gold, the share of chains valid
to a contradiction, the share that claim one (for sat gold every such
claim fails somewhere), why the others fail and at which step first;
--per-record adds each record's result.

`

// chainsUsage is the help of nlsat eval --chains.
const chainsUsage = "also check the chain of thought in each free-text answer step by step (the form of prompt --cot): share valid, first unsupported step"

// evalEntailHelp describes, for nlsat eval's help, the scoring of entailment
// records.
const evalEntailHelp = `When the gold records are entailment records (generate --task entailment:
the record_schema of the dataset's manifest.json, else the first record
has premises and hypothesis), eval prints the accuracy overall, per split
file, per fragment, per difficulty (difficulty.subset_size, 0 for
neutral) and per split file and fragment, each with the binary accuracy
(entailed against not entailed, neutral and contradiction being not
entailed); precision, recall and F1 per label and their mean, macro-F1;
and the confusion matrix, rows gold and columns answer, in MNLI's order
(entailment, neutral, contradiction), with a column of invalid answers.
Answers are "label" (0, 1, 2), else "label_binary" (0 entailed, 1 not
entailed), else "label_text" or free text, whose first answer word
decides, whole words and case aside: entailment or entailed, neutral,
contradiction, or not entailed. An answer that is none of these is
invalid: counted as wrong and listed. lm_eval's samples of the tasks of
nlsat prompt's entailment rows are read as for sat/unsat. When an answer
is binary only (not entailed, label_binary, a choice of a _binary task),
or the file is named samples_TAG_entail_binary..., every answer is scored
as binary: the labels are then entailed and not entailed.

`
