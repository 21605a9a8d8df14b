package provers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"time"
)

// Tool is one command-line prover: its program name, the syntax it reads
// and how it is called. The zero Tool is not usable; use Z3, CVC5 or E.
// Tools are comparable: run.Tool == provers.E tells which program ran.
type Tool struct {
	// Name is the program's name on the PATH, e.g. "z3".
	Name string
	// Ext is the file extension of the syntax the tool reads: ".smt2" for
	// SMT-LIB 2, ".p" for TPTP.
	Ext string
	// Install is the command that installs the program, for messages.
	Install string

	call *calling
}

// calling is how a Tool's program is called and read.
type calling struct {
	args      func(file string, limit time.Duration) []string
	parseArgs func(file string) []string
	detect    func(r Run) (line int, msg string, ok bool)
}

// Z3 is the z3 program reading SMT-LIB 2 (z3 -smt2 -T:seconds file).
// Z3 has no parse-only mode: Parse runs the file's commands, so a file
// meant only to be parsed should not contain (check-sat).
var Z3 = Tool{
	Name: "z3", Ext: ".smt2", Install: "apt-get install z3", call: &calling{
		args: func(file string, limit time.Duration) []string {
			return []string{"-smt2", "-T:" + ceilSeconds(limit), file}
		},
		parseArgs: func(file string) []string { return []string{"-smt2", file} },
		detect:    z3Error,
	}}

// CVC5 is the cvc5 program reading SMT-LIB 2 with finite model finding
// on, so that it can answer sat for quantified problems.
var CVC5 = Tool{
	Name: "cvc5", Ext: ".smt2", Install: "apt-get install cvc5", call: &calling{
		args: func(file string, limit time.Duration) []string {
			return []string{"--lang", "smt2", "--finite-model-find",
				"--tlimit=" + strconv.FormatInt(max(limit.Milliseconds(), 1), 10), file}
		},
		parseArgs: func(file string) []string { return []string{"--lang", "smt2", "--parse-only", file} },
		detect:    cvc5Error,
	}}

// E is the E prover (eprover) reading TPTP FOF in automatic mode. Its
// Parse only clausifies (--cnf), which reads and checks the whole input
// and does no search.
var E = Tool{
	Name: "eprover", Ext: ".p", Install: "apt-get install eprover", call: &calling{
		args: func(file string, limit time.Duration) []string {
			return []string{"--auto", "--silent", "--cpu-limit=" + ceilSeconds(limit), file}
		},
		parseArgs: func(file string) []string { return []string{"--cnf", "--silent", file} },
		detect:    eError,
	}}

// ceilSeconds returns d in whole seconds, rounded up, at least 1.
func ceilSeconds(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}

// Available reports whether t's program is on the PATH.
func (t Tool) Available() bool {
	_, err := exec.LookPath(t.Name)
	return err == nil
}

// Missing returns nil when t's program is on the PATH, and otherwise an
// error that says how to install it, fit for t.Skip.
func (t Tool) Missing() error {
	if t.Available() {
		return nil
	}
	return fmt.Errorf("%s not installed: %s", t.Name, t.Install)
}

// errZeroTool is the error of running a Tool that is not Z3, CVC5 or E.
var errZeroTool = errors.New("provers: the zero Tool cannot run; use Z3, CVC5 or E")

// killGrace is how long after its own limit a program is left running
// before it is killed, should it ignore the limit.
const killGrace = 5 * time.Second

// Run runs t on file with the time limit passed to the program itself
// (rounded up to whole seconds for z3 and E). The process is killed
// killGrace after the limit should it still run; the Run then has Killed
// set. The error is non-nil only if the program cannot be started or ctx
// ends first.
func (t Tool) Run(ctx context.Context, file string, limit time.Duration) (Run, error) {
	if t.call == nil {
		return Run{}, errZeroTool
	}
	return t.exec(ctx, t.call.args(file, limit), limit+killGrace)
}

// Parse runs t on file so that it only reads the input, where the
// program has such a mode (see Z3, CVC5, E); limit bounds the process.
func (t Tool) Parse(ctx context.Context, file string, limit time.Duration) (Run, error) {
	if t.call == nil {
		return Run{}, errZeroTool
	}
	return t.exec(ctx, t.call.parseArgs(file), limit)
}

// RunText is Run on a temporary file holding text, removed afterwards.
func (t Tool) RunText(ctx context.Context, text string, limit time.Duration) (Run, error) {
	return t.withTemp(text, func(file string) (Run, error) { return t.Run(ctx, file, limit) })
}

// ParseText is Parse on a temporary file holding text, removed afterwards.
func (t Tool) ParseText(ctx context.Context, text string, limit time.Duration) (Run, error) {
	return t.withTemp(text, func(file string) (Run, error) { return t.Parse(ctx, file, limit) })
}

func (t Tool) withTemp(text string, run func(file string) (Run, error)) (Run, error) {
	f, err := os.CreateTemp("", "nlsat-provers-*"+t.Ext)
	if err != nil {
		return Run{}, fmt.Errorf("%s input: %w", t.Name, err)
	}
	defer os.Remove(f.Name())
	_, werr := f.WriteString(text)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return Run{}, fmt.Errorf("%s input: %w", t.Name, werr)
	}
	return run(f.Name())
}

// exec runs the program with args, killing it after hard.
func (t Tool) exec(ctx context.Context, args []string, hard time.Duration) (Run, error) {
	kctx, cancel := context.WithTimeout(ctx, hard)
	defer cancel()
	cmd := exec.CommandContext(kctx, t.Name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Run{Tool: t, Args: args, Stdout: out.String(), Stderr: errb.String(), Elapsed: time.Since(start)}
	if ctx.Err() != nil {
		return r, fmt.Errorf("%s: %w", t.Name, ctx.Err())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return r, fmt.Errorf("%s: %w", t.Name, err)
	}
	r.ExitCode = cmd.ProcessState.ExitCode()
	r.Killed = kctx.Err() != nil
	return r, nil
}
