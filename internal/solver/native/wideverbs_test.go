package native

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/z3"
)

// wideLexicon is a lexicon of 300 nouns and four verbs, for instances with
// more nouns than the built-in vocabulary has.
func wideLexicon(t testing.TB) *fragments.Lexicon {
	var nouns []fragments.Noun
	for i := range 300 {
		nouns = append(nouns, fragments.Noun{Word: "thing" + string(rune('a'+i/26%26)) + string(rune('a'+i%26)) + "x"[:i/676], Article: "a"})
	}
	lex, err := fragments.NewLexicon(nouns, fragments.Verbs()[:4])
	if err != nil {
		t.Fatal(err)
	}
	return lex
}

// solveWith decides p with noun patterns of type P, whatever its number of
// nouns (at most P's), as Solve does with the width it picks.
func solveWith[P pat](t testing.TB, b *Backend, p *solver.Problem) solver.Result {
	t.Helper()
	res, err := solveWidth[P](b, context.Background(), p)
	if err != nil {
		t.Fatalf("width %d: %v", patBits[P](), err)
	}
	return res
}

// TestWidthsAgree decides V, Z and A instances of at most 64 nouns with
// one-word patterns and again with patterns of 2, 4 and 8 words: the
// search visits the nouns in the same order whatever the width, so the
// answers, cores, models and search statistics must be the very same.
// This checks the wide instantiations against the one-word path, which
// the other tests check against brute force and Z3.
func TestWidthsAgree(t *testing.T) {
	per := 40
	if testing.Short() {
		per = 10
	}
	tests := []struct {
		name   string
		sample func(rng *rand.Rand, f fragments.Fragment) fragments.Instance
	}{
		{"paper sizes", func(rng *rand.Rand, f fragments.Fragment) fragments.Instance { return sampleAt(t, rng, f, true) }},
		{"generalisation sizes", func(rng *rand.Rand, f fragments.Fragment) fragments.Instance { return sampleGen(t, rng, f) }},
		{"40 to 64 nouns", func(rng *rand.Rand, f fragments.Fragment) fragments.Instance {
			n1 := 40 + rng.IntN(25)
			in, err := fragments.Sample(rng, f, fragments.DefaultParams(), n1+rng.IntN(n1), n1, 3)
			if err != nil {
				t.Fatal(err)
			}
			return in
		}},
	}
	b := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			counts := map[solver.Status]int{}
			for _, f := range []fragments.Fragment{fragments.V, fragments.Z, fragments.A} {
				rng := rand.New(rand.NewPCG(65, uint64(f)))
				for i := range per {
					p := &solver.Problem{Sentences: tt.sample(rng, f).Formulas()}
					want := solveWith[p1](t, b, p)
					for w, got := range []solver.Result{solveWith[[2]uint64](t, b, p), solveWith[[4]uint64](t, b, p), solveWith[[8]uint64](t, b, p)} {
						want.Elapsed, got.Elapsed = 0, 0
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("%s instance %d: %d words give %v %v %v, one word %v %v %v", f, i, 2<<w,
								got.Status, got.Core, got.Stats, want.Status, want.Core, want.Stats)
						}
					}
					counts[want.Status]++
				}
			}
			t.Logf("%v", counts)
		})
	}
}

// TestWideVerbs decides V, Z and A instances of 65 to 200 nouns, which
// used to be refused (ErrUnsupported), and checks every answer against an
// independent one:
//   - padded: an instance of at most 64 nouns behind a chain of universal
//     sentences over 65 to 150 fresh nouns, which come first so that the
//     instance's own nouns lie past the first word. The chain is satisfiable
//     with every fresh noun empty and shares no word with the instance, so
//     the answer is the instance's own, and an unsat core leaves the chain
//     out;
//   - sampled: instances over 65 to 200 nouns, against Z3 where it decides
//     within its time limit (and Z3 is built in), and against the same
//     instance decided with patterns twice as wide.
//
// Every sat answer's model is checked by Solve; every unsat answer's core
// must be unsat.
func TestWideVerbs(t *testing.T) {
	var zb *z3.Backend
	if z3.Available() && !testing.Short() {
		var err error
		if zb, err = z3.New(z3.Options{Timeout: 5 * time.Second}); err != nil {
			t.Logf("Z3 unavailable: %v", err)
		} else {
			defer zb.Close()
		}
	}
	lex := wideLexicon(t)
	per := 6
	if testing.Short() {
		per = 2
	}
	tests := []struct {
		name   string
		frag   fragments.Fragment
		padded bool
		n1     [2]int // nouns drawn in [n1[0], n1[1])
		ratio  float64
	}{
		{"V padded", fragments.V, true, [2]int{8, 13}, 2.5},
		{"Z padded", fragments.Z, true, [2]int{8, 13}, 2.5},
		{"A padded", fragments.A, true, [2]int{8, 13}, 2.5},
		{"V 70-128", fragments.V, false, [2]int{70, 129}, 2},
		{"Z 70-128", fragments.Z, false, [2]int{70, 129}, 2},
		{"A 70-128", fragments.A, false, [2]int{70, 129}, 1.5},
		{"V 129-200", fragments.V, false, [2]int{129, 201}, 1.6},
		{"A 129-200", fragments.A, false, [2]int{129, 201}, 1.2},
	}
	b := New(Options{})
	for ti, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(200, uint64(ti)))
			counts := map[string]int{}
			n := per
			if tt.n1[0] > 128 {
				n = (per + 1) / 2
			}
			for i := range n {
				n1 := tt.n1[0] + rng.IntN(tt.n1[1]-tt.n1[0])
				m := int(float64(n1) * (tt.ratio + 0.5*rng.Float64()))
				in, err := fragments.Sample(rng, tt.frag, fragments.DefaultSampler().WithLexicon(lex), m, n1, 3)
				if err != nil {
					t.Fatal(err)
				}
				fs := in.Formulas()
				var want solver.Status
				pad := 0
				if tt.padded {
					r, err := b.Solve(context.Background(), &solver.Problem{Sentences: fs})
					if err != nil {
						t.Fatal(err)
					}
					want = r.Status
					pad = 65 + rng.IntN(86)
					fs = append(freshChain(pad), fs...)
				}
				p := &solver.Problem{Sentences: fs}
				sig, _ := fol.SignatureOf(fs...)
				nouns := 0
				for _, k := range sig {
					if k == 1 {
						nouns++
					}
				}
				if nouns <= 64 {
					t.Fatalf("instance %d has only %d nouns", i, nouns)
				}
				got, err := b.Solve(context.Background(), p)
				switch {
				case errors.Is(err, ErrUnsupported):
					t.Fatalf("instance %d (%d sentences): refused: %v", i, len(fs), err)
				case err != nil:
					t.Fatalf("instance %d: %v", i, err)
				case got.Status == solver.Unknown:
					t.Fatalf("instance %d: unknown (%v)", i, got.Reason)
				case tt.padded && got.Status != want:
					t.Fatalf("instance %d: %v padded, %v alone", i, got.Status, want)
				case got.Status == solver.Unsat:
					checkUnsatCore(t, b, p, got.Core)
					if tt.padded && got.Core[0] < pad {
						t.Errorf("instance %d: the core %v uses the chain of fresh nouns", i, got.Core)
					}
				}
				counts[got.Status.String()]++
				if tt.padded {
					continue
				}
				wider := solveWith[[4]uint64](t, b, p)
				if tt.n1[0] > 128 {
					wider = solveWith[[8]uint64](t, b, p)
				}
				if wider.Status != got.Status || fmt.Sprint(wider.Stats) != fmt.Sprint(got.Stats) {
					t.Errorf("instance %d: %v %v, with wider patterns %v %v", i, got.Status, got.Stats, wider.Status, wider.Stats)
				}
				if zb != nil {
					zr, err := zb.Solve(context.Background(), p)
					if err != nil {
						t.Fatalf("instance %d: z3: %v", i, err)
					}
					counts["z3 "+zr.Status.String()]++
					if zr.Status != solver.Unknown && zr.Status != got.Status {
						t.Errorf("instance %d: native %v, z3 %v", i, got.Status, zr.Status)
					}
				}
			}
			t.Logf("%v", counts)
		})
	}
}

// freshChain returns ∀x(f_i(x) → f_{i+1}(x)) for i < k-1 and
// ∀x(f_{k-1}(x) ∧ f_0(x) → ¬f_1(x)), over k fresh nouns: satisfiable,
// with every f_i empty.
func freshChain(k int) []fol.Formula {
	f := func(i int) string { return fmt.Sprintf("fresh%03d", i) }
	var fs []fol.Formula
	for i := range k - 1 {
		fs = append(fs, every(ul(true, f(i), vx), ul(true, f(i+1), vx)))
	}
	return append(fs, every(fol.Conj(ul(true, f(k-1), vx), ul(true, f(0), vx)), ul(false, f(1), vx)))
}

// TestWideChain decides problems with verbs built to be sat or unsat over
// 65 to 200 nouns: some a is an n_0 that loves every m, n_i is a subset of
// n_{i+1} along a chain of k nouns, and some m is loved by no n_{k-1}.
// With the chain whole that is unsat and every sentence is needed; with a
// link missing it is sat.
func TestWideChain(t *testing.T) {
	b := New(Options{})
	for _, k := range []int{63, 64, 65, 70, 127, 128, 129, 200, 500} {
		for _, broken := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d nouns broken=%v", k+1, broken), func(t *testing.T) {
				fs := wideChain(k, broken)
				res, err := b.Solve(context.Background(), &solver.Problem{Sentences: fs})
				if err != nil {
					t.Fatal(err)
				}
				want := solver.Unsat
				if broken {
					want = solver.Sat
				}
				if res.Status != want {
					t.Fatalf("%v, want %v", res.Status, want)
				}
				if want == solver.Unsat {
					all := make([]int, len(fs))
					for i := range all {
						all[i] = i
					}
					core, err := solver.MinimalCore(context.Background(), b, &solver.Problem{Sentences: fs}, res.Core)
					if err != nil || !slices.Equal(core, all) {
						t.Errorf("minimal core %v (%v), want every sentence", core, err)
					}
				}
			})
		}
	}
}

// wideChain is TestWideChain's problem over nouns n_0..n_{k-1} and m;
// broken drops the link from n_{k/2}.
func wideChain(k int, broken bool) []fol.Formula {
	n := func(i int) string { return fmt.Sprintf("n%03d", i) }
	loves := func(x, y fol.Var) fol.Formula { return fol.Binary("love", x, y) }
	fs := []fol.Formula{
		// Some n_0 loves every m.
		some(ul(true, n(0), vx), all(vy, imp(ul(true, "m", vy), loves(vx, vy)))),
	}
	for i := range k - 1 {
		if broken && i == k/2 {
			continue
		}
		fs = append(fs, every(ul(true, n(i), vx), ul(true, n(i+1), vx)))
	}
	// Some m is loved by no n_{k-1}.
	return append(fs, some(ul(true, "m", vx), all(vy, imp(ul(true, n(k-1), vy), not(loves(vy, vx))))))
}
