package provers

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Run is the outcome of one prover process.
type Run struct {
	// Tool is the prover that ran.
	Tool Tool
	// Args are the program's arguments.
	Args []string
	// Stdout and Stderr are the program's output.
	Stdout, Stderr string
	// ExitCode is the exit status; -1 when the process was killed.
	ExitCode int
	// Killed reports that the process outlived its limit and was killed.
	Killed bool
	// Elapsed is the wall-clock time of the process.
	Elapsed time.Duration
}

// InputError reports whether the program rejected its input, with the
// 1-based line the program names (0 when it names none) and its message.
// It covers syntax and sort errors and a command the program could not
// carry out (z3 and cvc5 answer such a command with an (error "…") line
// and carry on; E stops with exit status 3).
func (r Run) InputError() (line int, msg string, ok bool) {
	if r.Tool.call == nil {
		return 0, "", false
	}
	return r.Tool.call.detect(r)
}

// String returns the command line, exit status and output of r, for
// test failure messages.
func (r Run) String() string {
	return fmt.Sprintf("%s %s (exit %d, %v)\nstdout:\n%s\nstderr:\n%s",
		r.Tool.Name, strings.Join(r.Args, " "), r.ExitCode, r.Elapsed.Round(time.Millisecond), r.Stdout, r.Stderr)
}

var (
	smtError  = regexp.MustCompile(`\(error "((?:[^"]|"")*)"\)`)
	z3Place   = regexp.MustCompile(`^line (\d+) column \d+: `)
	cvc5Place = regexp.MustCompile(`^(?:Parse Error: )?[^\n]*?:(\d+)\.\d+: `)
	ePlace    = regexp.MustCompile(`eprover: [^\n]*?:(\d+):\(Column \d+\):\s*([^\n]*)`)
)

// z3Error finds z3's first (error "line L column C: msg") line.
func z3Error(r Run) (int, string, bool) { return smtErrorAt(r, z3Place) }

// cvc5Error finds cvc5's first (error "Parse Error: file:L.C: msg").
func cvc5Error(r Run) (int, string, bool) { return smtErrorAt(r, cvc5Place) }

// smtErrorAt returns the first SMT-LIB error response of r, with the line
// that place finds at the start of its message.
func smtErrorAt(r Run, place *regexp.Regexp) (int, string, bool) {
	m := smtError.FindStringSubmatch(r.Stdout + r.Stderr)
	if m == nil {
		return 0, "", false
	}
	msg := strings.ReplaceAll(m[1], `""`, `"`)
	line := 0
	if p := place.FindStringSubmatch(msg); p != nil {
		line, _ = strconv.Atoi(p[1])
		msg = msg[len(p[0]):]
	}
	msg, _, _ = strings.Cut(msg, "\n")
	return line, strings.TrimSpace(msg), true
}

// eError recognises E's input errors: exit status 3 (a syntax error) or
// an "eprover: file:L:(Column C): msg" line (also used for free
// variables and arity clashes).
func eError(r Run) (int, string, bool) {
	if m := ePlace.FindStringSubmatch(r.Stderr); m != nil {
		line, _ := strconv.Atoi(m[1])
		return line, strings.TrimSpace(m[2]), true
	}
	if r.ExitCode != 3 {
		return 0, "", false
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(r.Stderr), "\n")
	if msg == "" {
		msg = "exit status 3"
	}
	return 0, strings.TrimPrefix(msg, "eprover: "), true
}
