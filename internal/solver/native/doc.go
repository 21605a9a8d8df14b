// Package native is nlsat's own complete decision procedure for the five
// fragments S ⊂ W ⊂ V ⊂ Z ⊂ A. Its design, with the proof that it is sound
// and complete, is docs/design/decider.md; "the design" in this package's
// comments is that document, and "section N", "§N" and "Theorem 1" are
// its parts. The fragments themselves are docs/fragments.md.
//
// # Input
//
// Each sentence is a fol formula ∀x φ or ∃x φ (any variable names) whose
// sub-formulas ∀y ψ / ∃y ψ are quantifier-free over unary atoms and binary
// atoms r(x,y), r(y,x). The translation to the design's normal form
// (monadic clauses M, ∀∀-clauses C, requirements Q, one fresh predicate per
// existential sentence) is generic: it works on formulas however they were
// produced and does not look at template ids. Items whose guard is
// inconsistent (p ∧ ¬p, from repeated words) are dropped as vacuous.
// Anything else (two quantified sub-formulas in one clause, deeper nesting,
// reflexive atoms r(x,x), a disjunction under ∃y, more than two binary
// literals in a ∀∀-clause, arity above 2) is an error wrapping
// ErrUnsupported that names the sentence, never an answer. Because
// sentences repeat a few shapes with different words, the translation of
// a shape (the formula with its words and variables numbered by first
// occurrence) is computed once and reused as a recipe; it yields item for
// item what the generic translation of the sentence yields.
//
// # Decision
//
// Problems without C and Q items take the monadic path: one small DPLL call
// per existential sentence over the universal clauses (one call if there is
// none: the domain is not empty). The others take the type search of the
// design's Theorem 1: a non-empty set T of noun patterns that are locally
// consistent, pairwise compatible (T is a clique, not a mere fixpoint),
// witnessed, and cover every existential. Conflicts between members are
// repaired by branching on the guards of a minimal unsatisfiable set of
// ground clauses.
//
// The search is lazy: the patterns still allowed are described by clauses
// over the nouns (M's clauses, the guards forbidden on the branch, and
// learnt nogoods) and explored by queries: DPLL for a key of an
// existential, SAT (package sat) for a witness, over one pattern, the pair
// atoms between it and a fixed key, and activation literals for the pair
// clauses that key switches on. A key found not viable (a requirement
// without witness that it cannot witness itself) gives a nogood: the
// guards named by the failed assumptions of the queries that refuted it,
// which exclude every key failing for the same reason. The viable region is
// thus approached from above as by the explicit greatest fixpoint, region
// by region; memory and work grow with the clauses and nogoods, not with
// 2^nouns (see Many nouns for how wide a pattern may be).
//
// Without a node budget, the depth-first search runs for at most
// regionNodes nodes; past them the problem goes to the region loop
// (regionSearch, the design's section 4.3), which makes the same choices,
// which regions (sides of conflicts) to forbid, with a SAT solver of its
// own over one variable per region and the nouns of a key per
// existential, and keeps as clauses the conflicts, the refutations and
// the nogoods that the depth-first tree forgets when it leaves a branch.
// It ends because every round adds a clause its own choice violates.
//
// Options.Explicit selects the design's explicit search instead, a second
// opinion for cross-checks: bitsets over all 2^nouns patterns (at most
// Options.ExplicitNouns nouns), the greatest fixpoint of viability on
// them, pair questions from the lifted resolution closure CL or, when CL
// would exceed Options.MaxClosure clauses (or with Options.Ground), from
// ground 2-SAT per class of patterns with equal pair problems.
//
// # Budget and fallback
//
// Past Options.MaxNodes nodes of clique repair, a problem of at most
// Options.ExplicitNouns nouns whose explicit pattern space fits the memory
// budget is decided by the one-shot SAT encoding of the design's section 8
// (oneShot): the keys of the root's greatest fixpoint and the viable keys
// of each existential, with variables for membership, reflexive atoms,
// self-witnessing and shared witnesses, conflicts excluded through their
// sides; its type set goes to the usual builder and its model is checked
// like any other. (Its size is polynomial in the pattern space, so it is
// no help where that space is huge; there the lazy search with
// backjumping is the exact method.) Where the one-shot encoding does not
// apply (more nouns, or its explicit pattern space would not fit the
// memory budget), the lazy search runs without a node budget from the
// start (unbounded); where it fails (its conflict classes or witness
// clauses would not fit the memory budget), the lazy search runs again
// unbounded. That search (the depth-first tree, then the region loop) is
// exact, and stops only for the context or the memory budget. The node
// budget only chooses when to try the one-shot encoding; no problem is
// left undecided by it.
//
// # Unknown
//
// The answer is Unknown, never a guess, when the explicit search is asked
// for more than Options.ExplicitNouns nouns (GaveUp), or when the context
// ends (Canceled, or Timeout for Problem.Timeout).
//
// # Many nouns
//
// A noun pattern is a bit per noun in an array of 64-bit words, and the
// search, the normal form and the model builder take its type as a type
// parameter (pat). A problem is first normalized with one-word patterns,
// which is all a problem of at most 64 nouns ever uses: that instance
// compiles each pattern operation to the single-word one, with no loop
// and no indirect call. A problem with more nouns is normalized again
// with the narrowest array that holds them (2 to 128 words, so up to 8192
// nouns) and decided by the same code, whose answers, cores and models do
// not depend on the width (the nouns are visited in the same order). The
// explicit search and the one-shot encoding need the 2^nouns pattern
// space and never run past 64 nouns. A problem without verbs (S and W)
// past 64 nouns is decided by wideMonadic instead: per existential one
// SAT call on the Tseitin encoding of the sentences, exact at any number
// of nouns. Wide problems are bounded, like the others, by the memory
// budget; only a problem with verbs and more than 8192 nouns is an error
// wrapping ErrUnsupported.
//
// # Memory
//
// Options.MaxMemory (default 2 GiB) bounds what one Solve may hold: the
// lazy search's SAT solver, tables, nogoods, witness answers and region
// loop (estimated as they grow, checked before every BUILD and every
// member it processes), the explicit search's bitsets (estimated from
// 2^nouns before it starts) and the model (estimated from its elements
// before each is added). A problem past the budget is an error wrapping
// ErrMemory that names the stage and the budget: never an answer, never
// an out-of-memory kill.
//
// # Certificates
//
// A Sat answer carries a finite model built from T by the compact builder
// (witnesses reused where the pair's 2-SAT allows, clones otherwise; the
// proof's three-copies construction if that exceeds 3·|T|·J elements),
// converted to a structure over the problem's whole signature and checked
// with solver.CheckModel against the original formulas; a model that fails
// is returned as an error. An Unsat answer's Core is, on the monadic path,
// the sentences of the refuted SAT call (the universal sentences with
// clauses binding the failing existential, plus that existential's
// sentence); on the type search, the sentences the refutation used: every
// clause of the lazy search's queries is switched on by an activation
// literal of its sentence (or of its nogood, or of its branch, which carry
// the sentences they were derived from), so a failed query's assumptions
// name them. (The explicit search does not track its refutation; its
// unsat answers take their core from the lazy search, which must agree.)
// solver.MinimalCore shrinks the core to a certified minimal
// unsatisfiable subset.
//
// # Concurrency
//
// A Backend holds only its options; every Solve call keeps its own state,
// so one Backend may be used from many goroutines. The state's buffers
// (nodes of the negation normal form, the recipes of sentence shapes, the
// search's signature table, arenas, caches, 2-SAT and SAT solvers, the
// lazy search's clauses and nogoods) live in a workspace taken from a
// free list for the call and returned at its end, so consecutive calls
// reuse memory instead of allocating; nothing a call returns points into
// its workspace. (A problem with verbs past 64 nouns is decided in a
// workspace of its own width, made for the call.)
package native
