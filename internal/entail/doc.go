// Package entail builds entailment problems over the fragments: premises
// Φ (a satisfiable set of sentences of one fragment), a hypothesis ψ of
// the same fragment over the same words, and a certified three-way label
// in MNLI's order (ProofWriter's True / Unknown / False under the open
// world): entailment (Φ ⊨ ψ), neutral (neither) or contradiction
// (Φ ⊨ ¬ψ). Part 3 of issue 15.
//
// # Decision
//
// Φ ⊨ ψ iff Φ ∪ {¬ψ} is unsatisfiable, and every fragment says ¬ψ in one
// sentence of its own, neg ψ (fragments.Sentence.Negation). Decide runs
// solver.Decide on Φ ∪ {ψ} and on Φ ∪ {neg ψ}: the first unsatisfiable
// means contradiction, the second entailment, both satisfiable neutral.
// Both unsatisfiable means Φ is inconsistent (ErrInconsistent): such
// premises entail everything and are never used. Otherwise one side has
// a checked model, which is a model of Φ, so every labelled problem's
// premises are shown consistent.
//
// # Certificates
//
// Entailment and contradiction carry the premises of a certified minimal
// unsatisfiable subset of Φ ∪ {neg ψ} or Φ ∪ {ψ}: the MUS always holds
// the hypothesis side (Φ being consistent), and the rest is the subset of
// Φ that proves the label; no proper part of it does. Neutral carries two
// checked models, of Φ ∪ {ψ} and of Φ ∪ {neg ψ}. The difficulty of a
// problem is the size of its subset (0 for neutral).
package entail
