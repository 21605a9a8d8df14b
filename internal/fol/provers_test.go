package fol

// Glue between this package's tests and internal/provers, which runs the
// command-line provers z3, cvc5 and E on the files the printers write.

import (
	"context"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/provers"
)

// requireTool skips the test when tool is not installed.
func requireTool(t *testing.T, tool provers.Tool) {
	t.Helper()
	if err := tool.Missing(); err != nil {
		t.Skip(err)
	}
}

// runTool runs tool on text with the time limit and fails the test if
// the program cannot be run.
func runTool(t *testing.T, tool provers.Tool, text string, limit time.Duration) provers.Run {
	t.Helper()
	run, err := tool.RunText(context.Background(), text, limit)
	if err != nil {
		t.Fatal(err)
	}
	return run
}
