// Package fol is the first-order formula syntax tree that every other nlsat
// package speaks: its nodes, a walker, printers for several syntaxes, a
// parser for the toolkit's own plain-text syntax, and an evaluator over
// finite structures.
//
// # Signature
//
// Formulas use unary predicates (nouns) and binary predicates (verbs) over
// variables; there are no constants, functions or equality. Predicate names
// are single lower-case words. A name is used with one arity only.
//
// # Semantics
//
// Standard first-order semantics over a non-empty finite domain. The
// evaluator is the reference against which every model a solver returns is
// checked before it is trusted, so its reference is a tree walker written
// to be obviously correct rather than fast. Structures of at most 64
// elements are evaluated by a second evaluator over bitsets (a set of
// elements is a word, so ∀x∀y costs one pass per element); it hands every
// formula it is not sure of (free variables, odd arities, nil nodes) to
// the tree walker, and its agreement with the tree walker is tested on
// random formulas and structures.
//
// # Syntax
//
// The toolkit's plain text (String, and the ASCII form from ASCII) writes
// quantifier bodies always in brackets, ∀x(…), and binary connectives
// with precedence ¬, then ∧, then ∨, then → (right-associative), bracketing
// only where precedence requires. Parse reads both forms back: the round
// trip holds for trees built with Conj and Disj, which flatten nested
// conjunctions and disjunctions. Every printer validates its input first
// and writes nothing for a malformed tree.
//
// # Dependencies
//
// fol imports nothing else of nlsat's.
package fol
