// Command nlsat builds natural-language satisfiability datasets: it samples
// sets of controlled-English sentences from five fragments of English,
// decides them with a complete procedure, and writes them as JSONL.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}
