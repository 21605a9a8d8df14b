package main

import (
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/pairs"
)

// pairsHelp describes, for nlsat pairs' help, what the command does.
const pairsHelp = `Pairs reads labelled records (stdin if no file or "-"), and for each instance
looks for the smallest edit of one sentence that flips its label. Edits are
tried in a fixed order: by sentence, then by kind, then by role:

  negation            add or drop one "non-", "not" or "does not"
                      (a noun polarity the template leaves free; A's "who
                      does not s him")
  quantifier          swap one quantifier: Every <-> Some (No <-> Some ... not
                      where the predicate is negated); the object's or
                      relative clause's every <-> some (any <-> every under
                      "does not")
  predicate-negation  Every <-> No; "r's" <-> "does not r" in the main clause
                      or Z's relative clause (with the determiner that keeps
                      the quantifier)

An edited sentence must parse back to itself, stay in the instance's
fragment and not repeat another sentence. Each edited instance is decided
afresh; the first whose label is the opposite is taken. Both twins are
written with certified labels (sat: the size of a checked model; unsat: a
certified minimal unsatisfiable subset), the original first, in input
order; the output is the same for any -j. Instances without a flipping
edit are counted on stderr, with the pairs per edit kind and the share of
instances per fragment that have one. An input label that the solver
contradicts is an error.

Records (schema ` + pairs.SchemaVersion + `): the instance record's fields (` + dataset.SchemaVersion + `),
then pair_id (the input id, shared by both twins), pair_role ("original" or
"edited") and edit {"sentence": 0-based index, "kind", "role", "from", "to"},
which is {"sentence": -1, "kind": "", "role": "", "from": "", "to": ""} in
the original. The edited twin's id is the input id + "` + pairs.EditedSuffix + `".

`
