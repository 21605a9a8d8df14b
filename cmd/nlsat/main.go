// Command nlsat builds natural-language satisfiability datasets: it samples
// sets of controlled-English sentences from five fragments of English,
// decides them with a complete procedure, and writes them as JSONL.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/nlsat/nlsat/internal/memlimit"
)

// profileEnv names a file to write a CPU profile of the whole command to,
// for measuring where a build spends its time (go tool pprof reads it).
const profileEnv = "NLSAT_CPUPROFILE"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfile := startProfile(os.Getenv(profileEnv))
	stopLimit := memlimit.Follow()
	code := run(ctx, os.Args[1:], streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stopLimit()
	stopProfile()
	stop()
	os.Exit(code)
}

// startProfile starts a CPU profile written to path, if path is not
// empty, and returns the function that ends it.
func startProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "nlsat: %s: %v\n", profileEnv, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "nlsat: %s: %v\n", profileEnv, err)
		}
	}
}
