// Package distract adds distractors to a problem instance: k sentences of
// the instance's fragment that provably do not change its label, so that
// a model's robustness to irrelevant or redundant sentences can be
// measured (issue 7 item 5; CLUTRR's noise facts).
//
// # Modes
//
// Fresh adds sentences over fresh words: nouns and verbs of the lexicon
// that the instance does not use (neither in its Nouns and Verbs lists
// nor in any sentence). The distractors share words among themselves but
// never with the instance. They are drawn together by the project's
// sampler (fragments.Sample, so with the dataset's template mix and
// negation probability) over a small fresh vocabulary — the fewest nouns
// and verbs the fragment's templates need, plus (k-1)/2 of each — and
// the draw is repeated until the distractor set alone is satisfiable
// (decided, model checked).
//
// Implied adds sentences over the instance's own words that are entailed
// by its premises: all the sentences of a sat instance, and for an unsat
// instance a maximal satisfiable subset (built greedily in sentence
// order). Entailment is proved by refutation: Φ ⊨ ψ iff Φ ∪ {¬ψ} is
// unsat, and ¬ψ is itself a sentence of the fragment (Negate; each
// fragment's templates are closed under negation by the readings of
// docs/fragments.md),
// so the same decider proves it. Candidates are mostly derived from a
// premise by simple valid rules (derive: conversion, contraposition,
// reordering, dropping a conjunct under ∃, adding one under ∀), the rest
// drawn by the sampler; none is used unproved. Result.Premises records
// the premises.
//
// Why premises and not the whole instance for unsat instances: an unsat
// set entails every sentence, so "implied by the instance" would let an
// unsat instance's distractors be arbitrary while a sat instance's are
// constrained — a difference between the classes that a model could
// learn. Entailment by a satisfiable subset is a non-vacuous, uniform
// definition: in both classes each distractor follows from consistent
// premises the instance states.
//
// # Soundness
//
// Implied: if Φ is sat and Φ ⊨ ψ for each added ψ, then Φ ∪ Ψ has exactly
// the models of Φ, so it is sat. If Φ is unsat, so is every superset.
//
// Fresh: if Φ is unsat, so is Φ ∪ Δ. If Φ and Δ are sat, over disjoint
// signatures σ1 and σ2, let M1 (domain D1) be a model of Φ and M2
// (domain D2) one of Δ. Build M on the product D1 × D2: a predicate of σ1
// holds of pairs whose first components satisfy it in M1, one of σ2 of
// pairs whose second components satisfy it in M2. The projection
// π1: M → M1 is surjective and preserves and reflects every atom of σ1,
// so by induction on formulas, for every formula φ over σ1 without
// equality and every assignment g, M ⊨ φ[g] iff M1 ⊨ φ[π1∘g]; the
// quantifier step uses surjectivity (each element of D1 is the image of
// one in D1 × D2, D2 being non-empty). Likewise for σ2 and π2. So M is a
// model of Φ ∪ Δ, with a non-empty domain. The argument needs no
// restriction on the quantifier structure: universal sentences ("Every p
// is a q") and existential ones ("Some r is an s") of either set survive,
// because the product duplicates each element of one model once per
// element of the other, and duplication is invisible to formulas without
// equality — which is what the fragments are (no "=", no counting). A
// plain disjoint union of domains would not do in general: a universal
// of Φ would then have to hold of D2's elements too.
//
// # Certificates
//
// In every mode the instance is decided before and after (the backend
// reset each time, a Sat model checked with solver.CheckModel), and Add
// returns an error if the label changed: that should never happen, and
// the re-decision is the check. An Unknown answer anywhere is an error
// wrapping solver.ErrUndecided; failing to find k distractors within the
// draw budget is an error wrapping ErrNoDistractor. Either way the caller
// skips the instance and counts it.
//
// # Placement and words
//
// Distractors are interleaved: their k positions among the m+k are drawn
// uniformly, the original sentences keep their order, and Result.Added
// lists the positions. Every added sentence is distinct (by English) from
// the instance's and from the others, belongs to the instance's fragment
// and renders to English that parses back to it. The output instance's
// Nouns and Verbs are the input's followed by any new word a distractor
// uses, in first-use order (fresh words, in Fresh mode).
//
// # Determinism
//
// Randomness comes only from the *rand.Rand passed in; with the same
// generator state, arguments and a deterministic backend, Add returns the
// same result. No map is iterated where order matters.
package distract
