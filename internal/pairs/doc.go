// Package pairs builds minimal pairs: for a labelled instance, the
// smallest edit of one sentence that flips its label, and the two
// certified records (twins) that show it. A model that reasons should
// change its answer exactly when the logic does; a pair is the probe
// (RuleTaker's perturbation test, issue 7 item 4).
//
// # Edits
//
// An edit changes one sentence by one step of its logical form: it flips
// the polarity of one literal or swaps one quantifier ∀ ↔ ∃ with its scope
// kept. The words are never changed. There are three kinds, tried in this
// order:
//
//  1. negation: add or drop exactly one negation word. Roles O, P, Q flip
//     a noun polarity the template leaves free ("a non-artist", "is not a
//     baker", "who is not a poet"; the Q of S1, S2, W1, W2, Z1, Z2 is fixed
//     and not edited); role S flips A's anaphoric clause ("who admires
//     him" ↔ "who does not admire him").
//  2. quantifier: swap one quantifier. Role subject: Every ↔ Some ("Every
//     p is a q" ↔ "Some p is a q", "Every p r's …" ↔ "Some p r's …"), and
//     where the predicate is negated No ↔ Some … not ("No p is a q" ↔
//     "Some p is not a q", "No p r's any q" ↔ "Some p does not r any q").
//     Role object: the object's or Z's relative clause's determiner, every
//     ↔ some, and under "does not" any ↔ every.
//  3. predicate-negation: flip the predicate a determiner's scope ends in,
//     which the grammar writes with a changed determiner. Role Q: Every ↔
//     No in S, W and Z ("Every p is a q" ↔ "No p is a q"). Role R: the
//     main verb of V and A ("Every p r's every q" ↔ "No p r's any q",
//     "Some p r's some q" ↔ "Some p does not r every q", …) and Z's clause
//     verb ("who r's some p" ↔ "who does not r every p", "who r's every p"
//     ↔ "who does not r any p").
//
// The grammar has a shape for every such skeleton (each fragment's three
// templates are closed under these changes), so an edit never leaves the
// sentence's template family or fragment. Candidates lists a sentence's
// edits in kind order, then role order (O, P, Q, R, S; subject, object),
// leaving out one whose English equals an earlier one's (in S3, W3 and Z3
// the predicate flip of Q is the negation of Q). Edits lists an
// instance's edits by sentence index, then kind, then role, and keeps
// only admissible ones: the edited sentence renders to English that
// parses back to the same sentence, lies in the instance's fragment, and
// is not already one of the instance's sentences.
//
// # Search
//
// Find decides the instance and takes the first edit in Edits' order
// whose edited instance gets the opposite certified label. Edits that
// provably keep the label are passed over without solving — for a sat
// instance, one whose edited instance is true in a checked model met
// before (the instance's own, or that of an edited instance that stayed
// sat); for an unsat instance, one of a sentence outside its minimal
// unsatisfiable subset — which does not change which edit comes first.
// An instance with no flipping edit is not an error; the caller counts
// it.
//
// # Certificates
//
// Both twins carry certified labels (solver.Decide): sat with a model that
// solver.CheckModel accepted, unsat with a minimal unsatisfiable subset
// that solver.MinimalCore shrank and certified. An unsat answer whose MUS
// cannot be certified counts as undecided; no twin is written without its
// certificate.
//
// # Records (schema nlsat-pair/2)
//
// A pairs file holds the twins of each pair on consecutive lines, the
// original first. Each line is a Record: the fields of an instance record
// (dataset.SchemaVersion, in their order), then
//
//	pair_id    string  shared by both twins: the input record's id
//	pair_role  string  "original" or "edited"
//	edit       object  {"sentence": int, "kind": string, "role": string,
//	                    "from": string, "to": string}
//
// The edited twin's id is the input id with EditedSuffix appended. Its
// edit names the 0-based index of the edited sentence, the kind and role
// above, and the sentence before and after in English; the original's
// edit is {"sentence": -1, "kind": "", "role": "", "from": "", "to": ""}.
// Every key is present in every row with one JSON type, as HuggingFace
// datasets requires.
//
// # Determinism
//
// Find's result depends only on the instance, the fragment and the
// backend's answers; the backend is reset before each problem. With the
// native backend the output is a function of the input alone.
package pairs
