// Package canon gives problem instances keys for deduplication: Key is
// equal for two instances exactly when they are the same problem up to
// the names of the words and the order of the sentences, and ExactKey is
// equal exactly when they have the same sentences as written.
//
// # Definition
//
// An instance is read as the fragment it was sampled from and the set of
// its sentences (a sentence written twice counts once; Instance.Nouns and
// Instance.Verbs are ignored, so words drawn but used in no sentence do
// not matter). A sentence is its shape (template, quantifier and clause
// variant), the polarity of each noun role O, P and Q, the noun filling
// each role O, P, Q (or none) and the verb filling each role R, S (or
// none). Two instances I and J are isomorphic iff they have the same
// fragment and there are bijections α from the nouns used in I's
// sentences onto those used in J's and β likewise for verbs such that
// renaming I's sentences by α and β gives exactly J's set of sentences.
// Polarity is part of a sentence and is never renamed away; a noun may fill
// two roles of one sentence (sampled with Params.Distinct off), and the
// renaming keeps that. Nouns and verbs are renamed separately, even if the
// same string were both.
//
//   - Key(I) == Key(J) iff I and J are isomorphic.
//   - ExactKey(I) == ExactKey(J) iff I and J have the same fragment and the
//     same set of sentences, word for word.
//
// Both keys are compact binary strings, meant as map keys; Digest turns a
// key into a printable SHA-256 for records and manifests.
//
// # Method
//
// The sentences form a coloured hypergraph whose vertices are the nouns and
// verbs used; a sentence is a hyperedge labelled by its shape and
// polarities, with a role on each end. Key runs individualisation–
// refinement as in nauty and Traces (McKay and Piperno, "Practical graph
// isomorphism II", 2014): colour refinement to a stable ordered partition,
// then a branch on each vertex of the first smallest non-singleton cell,
// down to discrete partitions (leaves). Each node of the search tree has a
// trace, a hash of how its refinement split the cells. A leaf numbers the
// nouns 0…k−1 and the verbs 0…l−1; renaming the sentences by it and
// sorting them gives the leaf's encoding. Leaves are ordered by the
// sequence of traces on their path (a proper prefix first), then by
// encoding, and the key is the fragment and the encoding of the least leaf.
//
// Why the key is exact: every step (refinement, the order of cells, the
// choice of target cell, the traces) is computed from colours alone, so an
// isomorphism maps the search tree of I onto that of J, preserving traces
// and encodings; the two trees have the same least leaf value, hence the
// same key. Conversely a leaf encoding is the instance itself under a
// renaming, so equal keys give the renaming that makes the instances
// equal. Hashes (of neighbourhoods in refinement, of splits in traces) are
// only ever compared as invariants: a collision can make a cell coarser or
// two traces tie, which costs time, never exactness, since encodings are
// compared in full.
//
// # Pruning and the cap
//
// Three prunings drop only subtrees whose leaves cannot be less than the
// least leaf seen, so the result is unchanged. A node whose traces already
// exceed those of the best leaf so far is cut. Two leaves with the same
// encoding give an automorphism; when a leaf is equivalent to the first or
// the best leaf, the search returns to the node where their paths diverge
// (the rest of that subtree is the image of one already searched). And at
// every node a child is skipped when an automorphism found so far that
// fixes the node's individualised vertices maps it onto a child already
// searched.
//
// The search refines at most MaxNodes partitions. If an instance needs more
// (no test or benchmark instance comes near), or cannot be encoded (a
// shape field out of range, or more than 1022 nouns or verbs), Key returns
// a fallback key: a marker byte and the ExactKey. Fallback keys equal each
// other only for the same sentences as written and never equal a canonical
// key, so they can only cause missed duplicates, never false ones.
// Canonical reports it per instance and CapHits counts it for the process.
package canon
