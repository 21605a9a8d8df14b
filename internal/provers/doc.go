// Package provers runs the command-line provers z3, cvc5 and E (eprover)
// on problem files and reads their answers. It exists for tests and
// checks that compare nlsat's printers and backends with independent
// programs: the SMT-LIB printout must be read by z3 and cvc5, the TPTP
// printout by E, and where two deciders answer they must agree.
//
// # Tools
//
// Z3, CVC5 and E describe the three programs: how to call each with a
// time limit (Tool.Run), how to make it only read its input (Tool.Parse),
// and how it reports an input error (Run.InputError). A program that is
// not on the PATH is reported by Tool.Missing with the command that
// installs it, so a test can skip with a useful message.
//
// # Errors
//
// Tool.Run returns an error only when the program cannot be started or
// the caller's context ends; a program that rejects its input, gives up
// or is killed at its time limit is a Run, not an error. An input error
// is recognised from the output, not the exit status: cvc5 exits with 0
// after an (error …) line, E exits with 3 and names the place on stderr.
// Each tool's detector is exercised by this package's tests on a
// deliberately broken file, so a test that relies on "no input error"
// can fail.
//
// # Answers
//
// SMTAnswer and SMTAnswers read the sat/unsat/unknown lines of an SMT-LIB
// solver's output (a timeout counts as unknown), SMTCore the names of an
// unsat core, SZSStatus and SZSAnswer the SZS status line of E. Answers
// are plain strings, "sat", "unsat" or "unknown", so that the package
// needs nothing of nlsat: it imports only the standard library, which
// lets the fol package's own tests use it without an import cycle.
//
// # Batches
//
// Starting a process costs tens of milliseconds, so tests put many
// problems in one file (SMT-LIB problems separated by (reset), TPTP
// formulas under distinct names). Batch remembers where each problem
// starts so that the line an input error names leads back to the
// problem.
package provers
