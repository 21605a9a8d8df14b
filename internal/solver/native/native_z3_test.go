package native

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// TestAgainstZ3 samples instances at the paper's sizes with the project's
// sampler and asserts that native and Z3 (1 s limit) never disagree where
// Z3 decides. NLSAT_Z3_N sets the instances per fragment (default 10); a
// quarter of them allow repeated words within a sentence. NLSAT_Z3_GEN=1
// samples at the generalisation sizes instead (see sampleGen).
func TestAgainstZ3(t *testing.T) {
	if testing.Short() {
		t.Skip("Z3 cross-check skipped in -short mode")
	}
	if !z3.Available() {
		t.Skip("Z3 is not built in (noz3 or no cgo)")
	}
	zb, err := z3.New(z3.Options{Timeout: time.Second})
	if err != nil {
		t.Skipf("Z3 unavailable: %v", err)
	}
	defer zb.Close()
	per := 10
	if s := os.Getenv("NLSAT_Z3_N"); s != "" {
		if per, err = strconv.Atoi(s); err != nil {
			t.Fatalf("NLSAT_Z3_N: %v", err)
		}
	}
	gen := os.Getenv("NLSAT_Z3_GEN") != "" // generalisation sizes instead
	rng := rand.New(rand.NewPCG(2026, 11))
	nb := New(Options{})
	for _, f := range fragments.All() {
		var stat [3][3]int // [native][z3] by Status
		var musStat [3]int // Z3's answer on native MUSes
		for i := range per {
			// Every fourth instance allows repeated words in a sentence.
			in := sampleAt(t, rng, f, i%4 != 3)
			if gen {
				in = sampleGen(t, rng, f)
			}
			p := &solver.Problem{Sentences: in.Formulas()}
			nr, err := nb.Solve(context.Background(), p)
			if err != nil {
				t.Fatalf("%s: native: %v\n%v", f, err, in.English())
			}
			zr, err := zb.Solve(context.Background(), p)
			if err != nil {
				t.Fatalf("%s: z3: %v\n%v", f, err, in.English())
			}
			stat[nr.Status][zr.Status]++
			// Native-unsat answers that Z3 cannot decide, and the first 20
			// others, are confirmed by Z3 refuting their MUS.
			if nr.Status == solver.Unsat && (zr.Status == solver.Unknown || stat[2][0]+stat[2][1]+stat[2][2] <= 20) {
				musStat[checkMUSWithZ3(t, nb, zb, p)]++
			}
			if zr.Status != solver.Unknown && zr.Status != nr.Status {
				t.Errorf("%s: native %v, z3 %v:\n%v", f, nr.Status, zr.Status, in.English())
			}
			if zr.Status == solver.Sat {
				if err := solver.CheckModel(p, zr.Model); err != nil {
					t.Errorf("%s: z3 model: %v", f, err)
				}
			}
		}
		t.Logf("%s: native sat %d unsat %d unknown %d; z3 sat %d unsat %d unknown %d (z3 unknown where native sat %d)",
			f, stat[1][0]+stat[1][1]+stat[1][2], stat[2][0]+stat[2][1]+stat[2][2], stat[0][0]+stat[0][1]+stat[0][2],
			stat[0][1]+stat[1][1]+stat[2][1], stat[0][2]+stat[1][2]+stat[2][2], stat[0][0]+stat[1][0]+stat[2][0], stat[1][0])
		t.Logf("%s: native unsat with z3 unknown %d; MUSes refuted by z3 %d, z3 unknown %d", f, stat[2][0], musStat[2], musStat[0])
	}
}

// checkMUSWithZ3 shrinks a native-unsat problem to a MUS (certified
// minimal by native's checked models) and asks Z3 to refute the MUS.
func checkMUSWithZ3(t *testing.T, nb *Backend, zb *z3.Backend, p *solver.Problem) solver.Status {
	t.Helper()
	mus, err := solver.MinimalCore(context.Background(), nb, p, nil)
	if err != nil {
		t.Errorf("minimal core: %v", err)
		return solver.Unknown
	}
	sub := &solver.Problem{}
	for _, i := range mus {
		sub.Sentences = append(sub.Sentences, p.Sentences[i])
	}
	zr, err := zb.Solve(context.Background(), sub)
	if err != nil || zr.Status == solver.Sat {
		t.Errorf("MUS %v: z3 says %v (%v)", mus, zr.Status, err)
	}
	return zr.Status
}
