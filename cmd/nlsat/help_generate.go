package main

import "github.com/nlsat/nlsat/internal/dataset"

// generateHelp describes, for nlsat generate's help, what the command does.
const generateHelp = `Generate samples instances of one fragment with the paper's Algorithm 1 and
labels each with a decision procedure. Each record carries the sentences,
their templates and formulas, the label with its certificate (the size of a
checked model, or a certified minimal unsatisfiable subset), and the seed it
came from. The same flags and seed give the same bytes for any -j.

An instance the solver cannot decide (z3 only) is never written: generate
draws further instances until --count are decided and reports the unknowns
per (m, n1, n2) point on stderr.

Distractors. --distractors K adds K sentences to every instance at seeded
positions, chosen so that they provably keep its label (--distractor-mode
fresh: over nouns and verbs the instance does not use, satisfiable on their
own; implied: over its own words, entailed by its sentences, or by a
maximal consistent subset of them if they are unsat). The label is decided
before and after, then the whole instance is labelled and certified as
usual; the record lists the added sentences in distractors. An instance
for which K distractors cannot be found is counted and replaced.

An output file is written beside its name (.NAME.partial, with a
checkpoint .NAME.checkpoint.json) and moved into place when complete; if
the run is interrupted or killed, the same command resumes it and ends in
the same bytes.

`

// proofsUsage is the help of the --proofs flag of generate and split.
const proofsUsage = "give every record a checked step-by-step proof: the fields proof (steps with premises, rule, sentence, formula, english; [] for sat and for unsat without a proof within the budget) and difficulty.proof_depth (the longest chain; 0 for sat, -1 without a proof), record schema " + dataset.ProofSchemaVersion + "; without it records are as before"
