package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fragments"
)

// hardInstances returns two V instances that the native decider takes many
// seconds to refute (18 s and 22 s on the 2-core development machine):
// many nouns, one verb, none of the universal monadic templates, so the
// clique-repair search has a large space to cover. They are the fifth draw
// of rand.NewPCG(48, 1) (n1 = 48, m = 144) and the fourth of
// rand.NewPCG(64, 1) (n1 = 64, m = 192).
func hardInstances(t *testing.T) [][]string {
	params := fragments.DefaultParams()
	params.Exclude = []fragments.Template{fragments.S1, fragments.S2, fragments.W1, fragments.W2}
	var out [][]string
	for _, c := range []struct{ n, draw int }{{48, 4}, {64, 3}} {
		rng := rand.New(rand.NewPCG(uint64(c.n), 1))
		for i := 0; i <= c.draw; i++ {
			in, err := fragments.Sample(rng, fragments.V, params, 3*c.n, c.n, 1)
			if err != nil {
				t.Fatal(err)
			}
			if i == c.draw {
				out = append(out, in.English())
			}
		}
	}
	return out
}

// TestSigtermStopsSolve runs nlsat label in a child process on instances
// that take the native decider many seconds each, sends SIGTERM a second
// into the first one, and checks that the process exits within a second,
// with status 130, saying it was interrupted, and without an output file.
func TestSigtermStopsSolve(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the program in a child process")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "hard.jsonl"), filepath.Join(dir, "labelled.jsonl")
	var b bytes.Buffer
	for _, sents := range hardInstances(t) {
		line, _ := json.Marshal(map[string]any{"sentences": sents})
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "label", in, "-j", "1", "-q", "--out", out)
	cmd.Env = append(os.Environ(), "NLSAT_TEST_RUN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("label finished before the signal (%v): the instances are no longer hard; pick harder ones", err)
	case <-time.After(time.Second):
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("label ignored SIGTERM for 10 s")
	}
	if took := time.Since(sent); took > time.Second {
		t.Errorf("label took %v to stop after SIGTERM, want at most 1 s", took)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("got %v, stderr %q; want exit %d, interrupted", err, stderr.String(), exitInterrupted)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an output file was written: %v", err)
	}
}
