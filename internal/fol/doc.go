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
// checked before it is trusted, so it is written to be obviously correct
// rather than fast.
//
// # Dependencies
//
// fol imports nothing else of nlsat's.
package fol
