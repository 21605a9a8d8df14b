// Package proof turns the certified minimal unsatisfiable subset (MUS) of
// an unsatisfiable instance into a refutation a person can follow: a list
// of steps, each citing earlier steps, naming a rule of a small sound
// set, and stating its conclusion as a formula and in English; the last
// step is a contradiction. Find searches for a proof within a Budget;
// Check verifies one step by step without that search (CheckStep checks
// one step); Fprint writes the text form and Proof's MarshalJSON the JSON
// form; ParseConclusion reads a conclusion's English back to its formula.
//
// # Steps
//
// The first steps repeat the sentences of the MUS (rule given); every
// other step cites earlier steps only. Step and sentence numbers count
// from 1 in the text and JSON forms and from 0 in Step. Individuals are
// named #1, #2, … in English and c1, c2, … in formulas (free variables).
// Depth is the longest chain of inferences to the contradiction.
//
// # Rules
//
// Each rule is sound by the semantics of docs/fragments.md:
// standard first-order semantics over a non-empty domain, and no
// existential import ("Every p is a q" does not say there is a p).
//
//   - given: a sentence of the input, as it is.
//   - chain: from two universal statements over one element, read as
//     clauses C ∨ l and D ∨ ¬l (∀x(p(x) → q(x)) is ¬p ∨ q), conclude
//     C ∨ D, said with one literal as the head: "Every scholar is a poet"
//     and "No musician is a poet" give "No scholar is a musician". Chain
//     is resolution; it contains contraposition, since a clause may be
//     said from either end. A unit clause is "Everyone is a p" or "No one
//     is a p"; more than two conditions are joined by "and" ("Every
//     artist who is a baker and is not a carpenter is a dentist").
//   - anyone: name an individual #k with no property: the domain is not
//     empty.
//   - instance: from an existential statement ∃v φ (a sentence, a fact, or
//     a conjunct of one) conclude φ of a new individual #k, the next
//     number. It is a naming step, sound because #k is fresh: the proof
//     then holds for whichever element #k is.
//   - apply: from a universal statement (a sentence ∀x …, or a fact
//     "#1 loves every musician") and facts about individuals, conclude one
//     fact about them ("By 1 and 4, #1 is a poet").
//   - witnessed: from facts about individuals conclude an existential fact
//     they witness ("#2 is a musician" and "#1 loves #2" give "#1 loves
//     some musician").
//   - contradiction: the cited steps cannot all be true.
//
// # Checking
//
// Check is the authority: Find returns only proofs that pass it. For each
// step it checks that the premises are earlier steps, that the rule's
// schema holds (its number of premises; for chain the resolution on the
// clauses; for instance the fresh name and the substitution; a given
// step's formula and English are the sentence's), that the English is
// right (a conclusion that is a sentence of the fragments parses back to
// its formula; any other is what Render writes for it), and for chain,
// apply, witnessed and contradiction that it is a one-step entailment:
// solver.Decide finds the cited formulas with the negated conclusion (for
// contradiction, the cited formulas alone) unsatisfiable. Facts about
// individuals reach the decider through guard predicates (see encode.go),
// an encoding under which unsatisfiability implies the entailment.
//
// # Monadic proofs
//
// A MUS of S and W sentences (of any fragment) has at most one
// existential sentence. Find chains the universal sentences, smallest
// clauses first with subsumption, until it derives a clause that the
// existential denies (then the contradiction cites the two) or, without an
// existential, two opposite unit clauses. This is complete: every
// unsatisfiable S or W set gets a proof. A conclusion of two literals is
// a sentence of S and one of three a sentence of W; one literal reads
// "Everyone is a p" or "No one is a p", more than three W's form with
// "and" between the conditions.
//
// # Tableau proofs
//
// Any other MUS (V, Z, A) gets a tableau over named individuals: each
// existential sentence names an individual, each universal sentence said
// of a named individual is a clause over facts about individuals, and so
// is a fact "#1 loves every musician" said of a named individual. When
// every disjunct of such a clause but one is known false the last one
// follows (apply); when all are, the proof ends (contradiction). A derived
// existential fact ("#1 loves some musician") names a new individual
// unless a named one already witnesses it, the oldest first, after
// propagation has reached its fixpoint. The search never splits cases: an
// instance whose refutation needs one has no tableau proof (ErrNoProof),
// and coverage is measured (docs/measurements.md, scripts/proofs.sh). The
// steps the contradiction does not use are dropped and the individuals
// renumbered.
//
// # Chains
//
// CheckChain checks a chain of thought a model wrote in the text form of
// Fprint: it reads the numbered steps (leniently: spacing, "3)" for "3.",
// text around the steps, no answer line), parses each step's English with
// the lexicon (a sentence of the fragments, or ParseConclusion's forms),
// takes its rule from its justification ("sentence 2", "chaining 1, 3",
// "naming someone new, by 1", "witnessed by …", "by …", "the world is
// not empty"; a step whose English says "contradiction" is one), and
// checks each step with CheckStep. It reports the first step that is
// unread, cites a step that is not before it, repeats another sentence
// than the one it names, or does not follow; a chain is valid when every
// step follows up to a contradiction.
//
// # Budget
//
// A proof has at most Budget.Steps steps. An instance without a proof
// within the budget gets ErrNoProof, never a partial proof.
package proof
