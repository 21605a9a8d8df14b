package z3

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/solver"
)

// vmRSS returns the process's resident set size in KiB from
// /proc/self/status.
func vmRSS(t *testing.T) int {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("parsing VmRSS %q: %v", rest, err)
			}
			return kb
		}
	}
	t.Skip("no VmRSS line")
	return 0
}

// TestLeak solves 10,000 small instances (and 20 interrupted hard ones)
// on one Backend and checks that memory stays flat. It takes about a minute, so it runs only with
// NLSAT_Z3_LEAKTEST=1.
func TestLeak(t *testing.T) {
	if os.Getenv("NLSAT_Z3_LEAKTEST") != "1" {
		t.Skip("set NLSAT_Z3_LEAKTEST=1 to run the 10,000-instance leak test")
	}
	be := newBackend(t, Options{})
	rng := rand.New(rand.NewPCG(7, 7))
	var rss1k, heap1k int
	for i := 1; i <= 10_000; i++ {
		var fs []fol.Formula
		if i%500 == 0 {
			// An interrupted solve replaces the context; that must not
			// leak either.
			p := &solver.Problem{Sentences: hardProblem(), Timeout: 20 * time.Millisecond}
			if res, err := be.Solve(context.Background(), p); err != nil || res.Status != solver.Unknown {
				t.Fatalf("hard problem: got %v, %v; want unknown", res.Status, err)
			}
		}
		if i%5 == 0 {
			fs = solveCases[i/5%len(solveCases)].fs
		} else {
			fs = randProblem(rng)
		}
		solve(t, be, fs...)
		if i%1000 == 0 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			rss, heap := vmRSS(t), int(ms.HeapAlloc/1024)
			t.Logf("after %d instances: VmRSS %d KiB, Go heap %d KiB", i, rss, heap)
			if i == 1000 {
				rss1k, heap1k = rss, heap
			} else if i == 10_000 && rss > rss1k+rss1k/4+16*1024 || heap > 2*heap1k+4*1024 {
				t.Errorf("memory grew from %d to %d KiB RSS, %d to %d KiB heap", rss1k, rss, heap1k, heap)
			}
		}
	}
}
