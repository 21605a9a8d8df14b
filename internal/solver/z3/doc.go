// Package z3 is nlsat's own small cgo binding to the system Z3 library
// (libz3, found through pkg-config), used as a solver.Backend. It is the
// only cgo in the project. Built with -tags noz3 or without cgo, the
// package keeps its API but New reports that Z3 is not built in and
// Available returns false.
//
// # Translation
//
// Formulas go straight through the C API, with no SMT-LIB text in
// between: one uninterpreted sort U, a Boolean function per predicate
// (arity 1 or 2), quantifiers over constants of sort U
// (Z3_mk_forall_const, Z3_mk_exists_const). Each sentence is asserted
// under its own tracking literal (Z3_solver_assert_and_track), so an
// unsat answer comes with a core: Result.Core lists the sentences Z3
// used, sorted. A free variable, an arity clash or an arity other than 1
// or 2 is an error from Solve, never a label.
//
// # Certificates
//
// On sat the model's universe of U becomes the domain (one element when
// the model has none), every predicate of the problem is evaluated on
// every tuple with model completion, and the resulting fol.Structure is
// checked with solver.CheckModel. A model that fails the check is an
// error: a bug report, not a label.
//
// # Search
//
// Z3 4.8.12's quantifier instantiation is fragile on these fragments: it
// misses small models depending on the random seed, or for every seed.
// So one Solve is a sequence of attempts, each on a fresh solver: the
// first with Options.Seed and a budget of 100,000 resource units; if that
// gives up, a search for a model with 1 to 8 elements, grounding the
// sentences over that many constants (a propositional problem); then
// attempts with the next seeds and four times the budget each, until
// Options.RLimit units are spent or ten attempts are made.
// Result.Stats records "attempts", "rlimit-count" (units spent by this
// Solve) and "ground-size" (the domain size when the grounded search
// found the model, else 0), beside a few of Z3's own statistics of the
// last attempt ("time", "conflicts", "decisions",
// "quant-instantiations", "final-checks", "max-memory"). The schedule
// depends only on the problem and the Options, so answers cut by the
// resource limit repeat exactly (unless the wall clock cuts first).
//
// # Limits
//
// Three limits bound a Solve: Z3's own "timeout" and "rlimit" solver
// parameters, and a watchdog goroutine that calls Z3_interrupt when the
// wall-clock limit (plus 100 ms of grace for Z3's own timer) passes or
// the context is canceled. The watchdog exists because Z3 4.8.12's timer
// has been seen to overrun by minutes; in our tests it also missed a 3 s
// limit by more than the grace. Unknown answers carry a solver.Reason: Timeout,
// ResourceLimit, Canceled (the context), or GaveUp with Z3's own words in
// Result.Detail. An answer that comes back after a limit was reached is
// discarded as Unknown, because a canceled Z3 can answer sat wrongly.
//
// # Safety rules
//
// One Z3 context per Backend, reused across Solve calls; a Backend is for
// one goroutine at a time (one per worker), and a mutex serialises calls
// anyway. Different Backends may run in parallel.
//
// Z3's error handler is switched off (NULL), so an error never exits the
// process; the error code is checked after every call that can fail, and
// an error becomes a Go error carrying Z3_get_error_msg.
//
// The context is reference counted (Z3_mk_context_rc): every term,
// declaration, solver, model, vector and statistics object is inc_ref'd
// as soon as Z3 returns it and dec_ref'd when done. Terms made for one
// Solve are released at its end; the sort U, the declarations, the
// variable constants and the tracking literals are cached for the life of
// the context, bounded by the vocabulary and the largest instance, so
// memory stays flat over many instances. Each Solve uses fresh solver
// objects, so nothing of one instance reaches the next. Every C string is
// freed, and runtime.KeepAlive follows calls that read Go memory.
//
// Z3_interrupt is only ever called while a check is running (the
// watchdog and the check share a flag under a mutex). In Z3 4.8.12 an
// interrupt that arrives when no check is running leaves a cancel flag
// set, and the next check of the simple solver then answered sat for an
// unsatisfiable problem. For the same reason, after any solve that the
// watchdog interrupted, the Backend deletes its context and makes a fresh
// one (a few milliseconds): only an untouched context is trusted.
package z3
