// Command proofstats reads labelled records (JSONL on stdin), finds and
// checks a proof (internal/proof) for each of the first N unsatisfiable
// ones from its certified MUS, and prints one line of coverage and proof
// lengths: how many got a proof within proof.DefaultBudget, the median
// and 95th percentile of their steps and depth, and why the others got
// none. scripts/proofs.sh runs it per fragment.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/proof"
	"github.com/nlsat/nlsat/internal/solver/native"
)

var digits = regexp.MustCompile(`[0-9]+`)

type record struct {
	Fragment    string   `json:"fragment"`
	Sentences   []string `json:"sentences"`
	Label       int      `json:"label"`
	Certificate struct {
		MUS []int `json:"mus"`
	} `json:"certificate"`
}

func main() {
	n := flag.Int("n", 5000, "unsatisfiable records to prove")
	flag.Parse()
	if err := run(*n); err != nil {
		fmt.Fprintln(os.Stderr, "proofstats:", err)
		os.Exit(1)
	}
}

func run(n int) error {
	b := native.New(native.Options{})
	lx := fragments.Default()
	var steps, depths []int
	reasons := map[string]int{}
	frag, unsat := "", 0
	start := time.Now()
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() && unsat < n {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return err
		}
		if r.Label != 0 {
			continue
		}
		frag = r.Fragment
		unsat++
		sents := make([]fragments.Sentence, len(r.Sentences))
		for i, s := range r.Sentences {
			var err error
			if sents[i], err = lx.Parse(s); err != nil {
				return err
			}
		}
		p, err := proof.Find(context.Background(), b, lx, sents, r.Certificate.MUS, proof.DefaultBudget)
		switch {
		case errors.Is(err, proof.ErrNoProof):
			reason := err.Error()
			reason = reason[strings.LastIndex(reason, ": ")+2:]
			reason = digits.ReplaceAllString(reason, "N")
			reasons[reason]++
			continue
		case err != nil:
			return fmt.Errorf("%q: %w", strings.Join(r.Sentences, " "), err)
		}
		steps = append(steps, p.Len())
		depths = append(depths, p.Depth())
	}
	if unsat < n {
		return fmt.Errorf("only %d unsatisfiable records in the input, want %d", unsat, n)
	}
	fmt.Printf("%s\t%d\t%d\t%.1f%%\t%d\t%d\t%d\t%d\t%d\t%.1fs\t%v\n", frag, unsat, len(steps),
		100*float64(len(steps))/float64(unsat), pct(steps, 50), pct(steps, 95), pct(steps, 100),
		pct(depths, 50), pct(depths, 95), time.Since(start).Seconds(), reasons)
	return nil
}

// pct returns the q-th percentile of xs (nearest rank), 0 for none.
func pct(xs []int, q int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	return s[max(0, (q*len(s)+99)/100-1)]
}
