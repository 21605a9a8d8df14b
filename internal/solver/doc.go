// Package solver defines how nlsat asks a decision procedure whether a set
// of first-order sentences is satisfiable, and what it gets back.
//
// # Contract
//
// A Backend answers Sat, Unsat or Unknown. Unknown is the zero value and is
// never a label: a timeout, a resource limit, a solver that gives up or a
// canceled context all give Unknown with a Reason. An error means the
// problem could not be posed (a malformed formula) or a certificate failed
// its check; it is a bug report, not an answer.
//
// # Certificates
//
// A Sat result carries a finite model that the backend has checked with
// fol's evaluator against the original formulas. An Unsat result carries a
// core: indices into Problem.Sentences of sentences that are unsatisfiable
// together. MinimalCore shrinks a core to a minimal unsatisfiable subset and
// certifies its minimality with checked models.
//
// # Deciding
//
// Decide is the one way nlsat turns a problem into a label: it resets the
// backend, solves, shrinks a Sat model (Shrink: the least size of any model
// when one of at most MaxGround elements exists) and checks it with
// CheckModel and, when asked, certifies an Unsat answer with a MUS. Its Verdict is what every command
// and package that labels works with; dataset.NewRecord turns an
// instance and its verdict into a record.
package solver
