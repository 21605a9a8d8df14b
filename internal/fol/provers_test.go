package fol

// Helpers that run the command-line provers on files this package prints.
// They are unexported test helpers so that the lead can copy or reuse them
// for fragment instances without making them part of any API.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// proverTool describes one command-line prover: how to call it on a file
// with a time limit, and how it reports an input error.
type proverTool struct {
	name    string
	install string // how to get it, for the skip message
	args    func(file string, limit time.Duration) []string
	// errLine finds the 1-based line number an input error names; its
	// first group is the number.
	errLine *regexp.Regexp
	// failed reports whether a run's output reports an input error.
	failed func(r proverRun) bool
}

// proverRun is the outcome of one prover process.
type proverRun struct {
	stdout, stderr string
	code           int // exit status; -1 if killed
}

var z3Tool = proverTool{
	name:    "z3",
	install: "apt-get install z3",
	args: func(file string, limit time.Duration) []string {
		return []string{"-smt2", "-T:" + strconv.Itoa(int(limit.Seconds()+0.999)), file}
	},
	errLine: regexp.MustCompile(`\(error "line (\d+) column \d+`),
	failed:  func(r proverRun) bool { return strings.Contains(r.stdout+r.stderr, "(error ") },
}

var cvc5Tool = proverTool{
	name:    "cvc5",
	install: "apt-get install cvc5",
	args: func(file string, limit time.Duration) []string {
		return []string{"--lang", "smt2", "--finite-model-find",
			"--tlimit=" + strconv.FormatInt(limit.Milliseconds(), 10), file}
	},
	errLine: regexp.MustCompile(`\.smt2:(\d+)\.\d+:`),
	failed:  func(r proverRun) bool { return strings.Contains(r.stdout+r.stderr, "(error ") },
}

// eproverTool reads TPTP. E exits with 3 on a syntax error and on a
// formula with free variables, and names the place as file:line:(Column n).
var eproverTool = proverTool{
	name:    "eprover",
	install: "apt-get install eprover",
	args: func(file string, limit time.Duration) []string {
		return []string{"--auto", "--silent", "--cpu-limit=" + strconv.Itoa(int(limit.Seconds()+0.999)), file}
	},
	errLine: regexp.MustCompile(`\.p:(\d+):\(Column \d+\)`),
	failed: func(r proverRun) bool {
		return r.code == 3 || strings.Contains(r.stderr, "(Column ")
	},
}

// eproverParseArgs makes E only parse and clausify (--cnf), which is
// enough to check syntax and takes no search time.
func eproverParseArgs(file string, _ time.Duration) []string {
	return []string{"--cnf", file}
}

// requireProver skips the test when p is not installed.
func requireProver(t *testing.T, p proverTool) {
	t.Helper()
	if _, err := exec.LookPath(p.name); err != nil {
		t.Skipf("%s not installed: %s", p.name, p.install)
	}
}

// runProver runs p on file with the given time limit (the process is
// killed a few seconds after it, should the prover ignore its own limit).
func runProver(t *testing.T, p proverTool, file string, limit time.Duration) proverRun {
	t.Helper()
	return runCommand(t, p.name, p.args(file, limit), limit)
}

func runCommand(t *testing.T, name string, args []string, limit time.Duration) proverRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit+5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := proverRun{stdout: out.String(), stderr: errb.String(), code: cmd.ProcessState.ExitCode()}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// errorLine returns the line number p's error message names, or 0.
func (p proverTool) errorLine(r proverRun) int {
	m := p.errLine.FindStringSubmatch(r.stdout + r.stderr)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// writeTemp writes content to a new file name in dir and returns its path.
func writeTemp(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// smtAnswer returns the first sat, unsat or unknown line of an SMT-LIB
// solver's output, or "" if there is none.
func smtAnswer(stdout string) string {
	for _, line := range strings.Split(stdout, "\n") {
		switch line = strings.TrimSpace(line); line {
		case "sat", "unsat", "unknown":
			return line
		}
	}
	return ""
}

// smtCore returns the names in the (get-unsat-core) answer that follows
// an unsat line in stdout: "(s1 s3)" on one line (z3) or one per line
// (cvc5).
func smtCore(stdout string) []string {
	_, after, ok := strings.Cut(stdout, "unsat\n")
	if !ok {
		return nil
	}
	open, close := strings.Index(after, "("), strings.Index(after, ")")
	if open < 0 || close < open {
		return nil
	}
	return strings.Fields(after[open+1 : close])
}

// szsAnswer maps E's "# SZS status X" line to sat, unsat or "" (unknown):
// for a set of axioms without a conjecture, Satisfiable and Unsatisfiable.
func szsAnswer(stdout string) string {
	_, after, ok := strings.Cut(stdout, "SZS status ")
	fields := strings.Fields(after)
	if !ok || len(fields) == 0 {
		return ""
	}
	switch fields[0] {
	case "Satisfiable":
		return "sat"
	case "Unsatisfiable":
		return "unsat"
	}
	return ""
}
