package main

// promptHelp describes, for nlsat prompt's help, what the command does.
const promptHelp = `Prompt renders every record of FILE (stdin if none is given, or for -;
usually the zero-shot set; or DIR, a dataset directory, and its --split)
into the two prompts of the paper's Appendix C and writes one JSONL row
per record with both:

  prompt_sat  "Q: Given the following set of sentences, tell me whether they
              are satisfiable or not. Generate satisfiable if they are and
              unsatisfiable if they are not. Set of sentences: <text>" then a
              blank line and "A:"; target_sat is "satisfiable" or
              "unsatisfiable".
  prompt_tf   the same question asking for True or False, first about one
              worked example with its answer, then about <text>; target_tf is
              "True" or "False".

Each row also keeps id, fragment, text, label (1 sat, 0 unsat), label_text,
m, n1, n2 and example_id; every key is in every row with one type, so
HuggingFace datasets loads the file as it is. <text> is the record's
sentences joined by spaces. As in the paper, the second question of the
True/False prompt has no "Q:".

The worked example is the paper's Figure 1 instance ("Every scholar is a
poet. Every poet loves some musician. Some scholar does not love any
musician.", answer False) unless --example names a file whose first record
is used instead (take it from another split). It may not be one of the
evaluated instances (same id, or same sentences in any order): that is an
error.

Beside OUT it writes four lm-evaluation-harness task files, TAG_satunsat,
TAG_truefalse (multiple_choice: the likelier answer after "A: " is the
model's) and TAG_satunsat_gen, TAG_truefalse_gen (generate_until, exact match
of the answer extracted from the generation, as the paper scored its
models), all tagged TAG. data_files is relative to the working directory
lm_eval runs in: run it from OUT's directory (--include_path .), or write
absolute paths with --absolute-paths. nlsat eval --gold FILE scores the
samples_TASK_DATE.jsonl that lm_eval --log_samples writes, as they are;
each task file's header gives that command with FILE's path as seen from
OUT's directory.

Beside OUT it also writes OUT.fewshot.jsonl, the prompts of other
records, which every task declares as its fewshot_split, so that lm_eval
--num_fewshot K never draws its demonstrations from the scored records:
the validation split of FILE's dataset, else its train split, else the
records --fewshot names; without any, the worked example alone.

Every record must be labelled (label -1 is an error naming the line).

`

// cotUsage is the help of prompt --cot.
const cotUsage = "add target_cot to every row, a chain-of-thought target: for unsat the record's checked proof as nlsat solve prints it (numbered steps citing earlier ones, \"by 1, 4\"), then \"Answer: unsatisfiable\"; for sat a sentence saying no contradiction follows, then \"Answer: satisfiable\"; \"\" for unsat without a proof within the budget (the records must be written with --proofs); also write the task TAG_satunsat_cot, whose target is target_cot (score its samples with nlsat eval --chains)"

// promptEntailHelp describes, for nlsat prompt's help, the entailment
// prompts.
const promptEntailHelp = `FILE may instead hold entailment records (generate --task entailment; schema
nlsat-entail/1), or be a dataset directory of them (its --split, test by
default). The kind is the record_schema of the dataset's manifest.json
when there is one, else told by the first record's keys (premises and
hypothesis). Each row then has id, fragment, premises_text, hypothesis,
label (0 entailment, 1 neutral, 2 contradiction, MNLI's order),
label_text, label_binary (0 entailed, 1 not entailed), label_binary_text,
m, n1, n2, subset_size, example_ids and the prompts:

  prompt_entail   "Q: Given the following premises and hypothesis, tell me
                  whether the hypothesis follows from the premises.
                  Generate entailment if it follows from the premises (...),
                  neutral if the premises leave it open (...), and
                  contradiction if it conflicts with the premises (...)."
                  then "Premises: <premises>", "Hypothesis: <hypothesis>"
                  and "A:", a blank line between; target_entail is the
                  label's name.
  prompt_entail_binary  the same asking for entailed or not entailed;
                  target_entail_binary is "entailed" or "not entailed".
  prompt_entail_fewshot, prompt_entail_binary_fewshot  the same with three
                  worked examples before the problem, one per label, from
                  the record's own fragment: the first record of each label
                  in the train split (of the directory, or the file or
                  directory --example names), from three premise sets
                  where the split has them. A prompted record with a worked
                  example's premises is an error; without train records
                  (a file and no --example) these are "".

The tasks are TAG_entail and TAG_entail_binary (multiple_choice over
entailment, neutral, contradiction with target label, and over entailed,
not entailed with target label_binary), the same with _gen
(generate_until), and with worked examples TAG_entail_fewshot,
TAG_entail_binary_fewshot and their _gen. nlsat eval scores their samples.

`

// promptSplitUsage is the help of prompt --split.
const promptSplitUsage = "with a dataset directory: the split to prompt (the worked examples of entailment records come from train)"
