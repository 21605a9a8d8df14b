// Package fragments is the language of nlsat: the vocabulary, the
// sentence templates of the five English fragments S ⊂ W ⊂ V ⊂ Z ⊂ A,
// their first-order meaning, an English renderer, a strict parser that
// inverts it, and the sampler of problem instances (Algorithm 1 of the
// paper). The specification it implements is docs/fragments.md; "the
// spec" in this package's comments is that document.
//
// # Templates and ids
//
// Each fragment introduces three templates (S1–S3, W1–W3, V1–V3, Z1–Z3,
// A1–A3) and contains those of the fragments below it. A Shape is a
// template with its quantifier and clause variant; its ID, used in
// records, is the template, then the quantifier variant, then the clause
// variant, joined by dots. Noun polarities are not part of the id. The
// complete list of the 42 ids (testdata/templates.golden shows each with
// an English example and its formula):
//
//	S1  S2  S3  W1  W2  W3
//	V1.every-every  V1.every-some  V1.some-every  V1.some-some
//	V2.any  V2.every  V3.any  V3.every
//	Z1.some  Z1.every  Z1.not-any  Z1.not-every   (likewise Z2.*, Z3.*)
//	A1.every-every.who  A1.every-every.who-not  A1.every-some.who
//	A1.every-some.who-not  A1.some-every.who  A1.some-every.who-not
//	A1.some-some.who  A1.some-some.who-not
//	A2.any.who  A2.any.who-not  A2.every.who  A2.every.who-not
//	A3.any.who  A3.any.who-not  A3.every.who  A3.every.who-not
//
// For V1 and A1 the quantifier variant names the subject and object
// determiners; for V2/A2 ("No p r's …") and V3/A3 ("Some p does not r …")
// it names the object determiner. For Z the clause variant is the form of
// the subject's relative clause (who r's some p, who r's every p, who does
// not r any p, who does not r every p); for A it is the anaphoric clause
// on the object (p who s's him, p who does not s him).
//
// # Semantics
//
// Sentence.Formula builds exactly the formula of the spec's tables, with
// variables x (subject) and y (object), shaped as printed: ∀x(φ → ψ) is
// Forall{Implies}, a conjunction of n conjuncts is one n-ary And, and a
// conjunctive restrictor inside an existential is flattened, so
// ∃y(ARC(y,x) ∧ r(x,y)) is ∃y(±p(y) ∧ s(y,x) ∧ r(x,y)). The spec's fixed
// readings apply: "No p r's every q" is ∀x(p(x) → ∃y(q(y) ∧ ¬r(x,y))), the
// negation of "Some p r's every q"; Z's ∀¬ clause is "who does not r any p".
//
// # Surface form
//
// English and Parse are inverse bijections between well-formed sentences
// (Sentence.Check) over a lexicon and the strings Parse accepts: a
// capitalised determiner (Every, No, Some), single spaces, a final full
// stop, the vocabulary's article before a noun after "is" ("a"/"an" by
// sound), "non-" joined to a negated noun after a determiner, third-person
// verb forms, "does not" with the base form, and the pronoun "him". Two
// sentences are the same sentence iff their English is the same string.
//
// # Vocabulary
//
// Nouns (profession nouns with their articles) and Verbs (transitive verbs
// that take a person as object, base and third person) are the built-in
// lists; Default is the Lexicon made of them. A Lexicon has no duplicates,
// no word that is both a noun and a verb (a predicate name has one arity),
// and no reserved word: the grammar's function words and SMT-LIB/TPTP
// keywords (IsReserved).
//
// # Sampling
//
// Sample first validates its arguments (Validate), then draws the n1
// nouns and n2 verbs of the instance as the first steps of a Fisher–Yates
// shuffle of the lexicon's lists, then draws sentences until m distinct
// ones exist. One sentence draws, in this order: the template group (for
// fragments other than S, one Float64 compared with OwnShare; own if
// smaller), the template (IntN over the group), the variant (IntN over the
// template's shapes), each free polarity in role order O, P, Q (Float64 <
// NegProb), the nouns in role order, and the verbs in role order (IntN over
// the instance's words, redrawn on a repeat when Params.Distinct). A
// sentence that means what a sentence already drawn means (Sentence.Meaning:
// "No non-q is a p" after "Every p is a q") is discarded, or with
// Params.Equivalent, as the paper's sampler does, only one whose English
// was already drawn. CountSentences is the exact number of distinct
// sentences the parameters allow; Validate rejects m above it, and Sample
// gives up with an error after 1000·m + 100000 draws.
//
// # Negation
//
// Each fragment can say the negation of each of its sentences in one
// sentence of the same template family, over the same words with the
// same noun polarities in the restrictors (Sentence.Negation):
//
//	S1/W1/Z1  Every φ is a q          ↔  S3/W3/Z3  Some φ is not a q
//	S2/W2/Z2  No φ is a q             ↔  S3/W3/Z3  Some φ is a q
//	V1/A1     Every p r's every ψ     ↔  V3/A3     Some p does not r every ψ
//	V1/A1     Every p r's some ψ      ↔  V3/A3     Some p does not r any ψ
//	V1/A1     Some p r's every ψ      ↔  V2/A2     No p r's every ψ
//	V1/A1     Some p r's some ψ       ↔  V2/A2     No p r's any ψ
//
// where φ is the subject with its noun polarity and, in W and Z, its
// relative clause, and ψ the object with its polarity and, in A, its
// anaphoric clause; both are kept. No template is without a negation:
// the templates of each fragment are closed under it. TestNegation
// checks, for every shape and noun polarity, that s ∧ neg(s) and
// ¬s ∧ ¬neg(s) are unsatisfiable.
//
// # Determinism
//
// Randomness comes only from the *rand.Rand passed to Sample; the same
// generator state and arguments give the same Instance. No map is iterated
// where order matters.
package fragments
