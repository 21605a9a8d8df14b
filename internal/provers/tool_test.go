package provers_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/provers"
)

const smtHeader = "(set-logic UF)\n(declare-sort U 0)\n(declare-fun p (U) Bool)\n"

// inputCases are files each tool must accept or reject; line is the line
// the error must name (0: the file is fine), answer what Run must decide.
var inputCases = []struct {
	name   string
	tools  []provers.Tool
	text   string
	line   int
	answer string
}{
	{"smt missing argument", smtTools, smtHeader + "(assert (p))\n", 4, ""},
	{"smt undeclared", smtTools, "(set-logic UF)\n(declare-sort U 0)\n(assert (forall ((x U)) (p x)))\n", 3, ""},
	{"smt error after reset", smtTools, smtHeader + "(assert (! (forall ((x U)) (p x)) :named s1))\n(reset)\n" + smtHeader + "(assert (p))\n", 9, ""},
	{"smt sat", smtTools, smtHeader + "(assert (! (forall ((x U)) (p x)) :named s1))\n(check-sat)\n", 0, "sat"},
	{"smt unsat", smtTools, smtHeader + "(assert (forall ((x U)) (p x)))\n(assert (exists ((x U)) (not (p x))))\n(check-sat)\n", 0, "unsat"},
	{"tptp mixed connectives", eTool, "fof(a, axiom, p(a)).\nfof(b, axiom, p(a) & q(a) | r(a)).\n", 2, ""},
	{"tptp free variable", eTool, "fof(a, axiom, p(X)).\n", 1, ""},
	{"tptp arity clash", eTool, "fof(a, axiom, ![X]: p(X)).\nfof(b, axiom, ![X]: p(X,X)).\n", 2, ""},
	{"tptp sat", eTool, "fof(a, axiom, ![X]: p(X)).\n", 0, "sat"},
	{"tptp unsat", eTool, "fof(a, axiom, ![X]: p(X)).\nfof(b, axiom, ? [X]: ~ p(X)).\n", 0, "unsat"},
}

var (
	smtTools = []provers.Tool{provers.Z3, provers.CVC5}
	eTool    = []provers.Tool{provers.E}
)

// TestInputErrors shows every tool broken files and good ones, through
// both Run and Parse: the detector must flag exactly the broken ones, at
// the right line, and Run must decide the good ones.
func TestInputErrors(t *testing.T) {
	ctx := context.Background()
	for _, c := range inputCases {
		for _, tool := range c.tools {
			t.Run(tool.Name+"/"+c.name, func(t *testing.T) {
				requireTool(t, tool)
				run, err := tool.RunText(ctx, c.text, 5*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				checkInputError(t, run, c.line)
				if c.answer != "" {
					if got := answerOf(tool, run); got != c.answer {
						t.Errorf("got %s, want %s\n%v", got, c.answer, run)
					}
				}
				if parse, err := tool.ParseText(ctx, withoutCheckSat(c.text), 5*time.Second); err != nil {
					t.Fatal(err)
				} else {
					checkInputError(t, parse, c.line)
				}
			})
		}
	}
}

func checkInputError(t *testing.T, run provers.Run, wantLine int) {
	t.Helper()
	line, msg, bad := run.InputError()
	switch {
	case wantLine == 0 && bad:
		t.Errorf("input error %q at line %d in a good file\n%v", msg, line, run)
	case wantLine > 0 && !bad:
		t.Errorf("broken file not flagged\n%v", run)
	case wantLine > 0 && (line != wantLine || msg == ""):
		t.Errorf("error %q at line %d, want a message at line %d\n%v", msg, line, wantLine, run)
	}
}

func answerOf(tool provers.Tool, run provers.Run) string {
	if tool.Ext == ".p" {
		return provers.SZSAnswer(run.Stdout)
	}
	return provers.SMTAnswer(run.Stdout)
}

func withoutCheckSat(text string) string {
	return strings.Replace(text, "(check-sat)\n", "", 1)
}

func requireTool(t *testing.T, tool provers.Tool) {
	t.Helper()
	if err := tool.Missing(); err != nil {
		t.Skip(err)
	}
}

// TestRunCanceled checks that an ended context is an error, not a Run.
func TestRunCanceled(t *testing.T) {
	requireTool(t, provers.Z3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := provers.Z3.RunText(ctx, smtHeader+"(check-sat)\n", time.Second)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// TestMissing checks the message for a program that is not installed.
func TestMissing(t *testing.T) {
	tool := provers.Z3
	tool.Name, tool.Install = "nlsat-no-such-prover", "do not install"
	if tool.Available() {
		t.Fatal("a made-up program is available")
	}
	want := "nlsat-no-such-prover not installed: do not install"
	if err := tool.Missing(); err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if _, err := tool.RunText(context.Background(), "", time.Second); err == nil {
		t.Error("running a missing program is not an error")
	}
}

// TestZeroTool checks that a Tool made by hand fails instead of running.
func TestZeroTool(t *testing.T) {
	var zero provers.Tool
	if _, err := zero.RunText(context.Background(), "", time.Second); err == nil {
		t.Error("the zero Tool ran")
	}
	if _, _, bad := (provers.Run{Stdout: `(error "x")`}).InputError(); bad {
		t.Error("a Run of the zero Tool reports an input error")
	}
}
