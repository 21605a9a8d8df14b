// Package sat is a small CDCL SAT solver for the propositional problems
// the native decider poses: thousands of tiny incremental queries per
// instance (a noun pattern and a pair of elements, under assumptions),
// and the occasional large one-shot encoding of the native decider's
// design (docs/design/decider.md, section 8).
//
// # Why our own
//
// The queries are small (tens of variables) and many, so the cost per
// call is what matters: a Solver is reused from query to query without
// allocating, clauses are added between calls, and an Unsat answer under
// assumptions says which assumptions it needed (Core), which the decider
// turns into generalised nogoods and unsat cores. gophersat v1.4.0, the
// pure-Go solver the module proxy offers, has neither failed-assumption
// cores nor cancellation, and allocates on every Assume.
//
// # Algorithm
//
// Conflict-driven clause learning in the MiniSat mould: two watched
// literals (binary clauses watched implicitly), first-UIP learning with
// local minimisation, VSIDS with phase saving, Luby restarts, and
// reduction of learnt clauses by literal block distance. Assumptions are
// decided first, one per level; an assumption found false is analysed
// back to the assumptions that imply it.
//
// # Determinism
//
// The solver draws no random numbers; the same sequence of calls gives
// the same answers, models and cores, whatever was solved before Reset.
//
// # Cancellation
//
// Solve calls Options.Stop every few conflicts and returns Unknown when
// it reports true, or when Options.MaxConflicts is exceeded.
package sat
