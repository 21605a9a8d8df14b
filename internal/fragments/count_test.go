package fragments

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// bruteCount enumerates every sentence of f over the first n1 nouns and n2
// verbs, every shape, every filling (repeats allowed) and every polarity,
// keeps those Sample could draw under p, and counts distinct English.
func bruteCount(f Fragment, p Params, n1, n2 int) int {
	nouns, verbs := nounWords(Default())[:n1], verbWords(Default())[:n2]
	seen := map[string]bool{}
	for _, t := range drawable(f, p) {
		l := layoutOf(t)
		for _, sh := range t.Shapes() {
			for _, ns := range tuples(nouns, len(l.nouns)) {
				for _, vs := range tuples(verbs, l.verbs) {
					if p.Distinct && (hasDup(ns) || hasDup(vs)) {
						continue
					}
					for mask := 0; mask < 1<<len(l.neg); mask++ {
						if p.NegProb == 0 && mask != 0 || p.NegProb == 1 && mask != 1<<len(l.neg)-1 {
							continue
						}
						s := Sentence{Shape: sh}
						for i, r := range l.nouns {
							s.term(r).Noun = ns[i]
						}
						for i, r := range l.neg {
							s.term(r).Neg = mask>>i&1 == 1
						}
						s.R, s.S = at(vs, 0), at(vs, 1)
						seen[s.English()] = true
					}
				}
			}
		}
	}
	return len(seen)
}

func at(ws []string, i int) string {
	if i < len(ws) {
		return ws[i]
	}
	return ""
}

// tuples returns all k-tuples over ws.
func tuples(ws []string, k int) [][]string {
	out := [][]string{{}}
	for i := 0; i < k; i++ {
		var next [][]string
		for _, t := range out {
			for _, w := range ws {
				next = append(next, append(append([]string(nil), t...), w))
			}
		}
		out = next
	}
	return out
}

func TestCountSentences(t *testing.T) {
	def := DefaultParams()
	def.Equivalent = true // sentences, not propositions, are counted here
	loose, noNeg, allNeg, own := def, def, def, def
	loose.Distinct = false
	noNeg.NegProb = 0
	allNeg.NegProb = 1
	own.OwnShare = 1
	tests := []struct {
		f      Fragment
		p      Params
		n1, n2 int
	}{
		{S, def, 2, 0}, {S, loose, 2, 0}, {S, noNeg, 3, 0}, {W, def, 3, 0}, {W, allNeg, 4, 0},
		{V, def, 3, 1}, {V, loose, 2, 2}, {V, own, 2, 1}, {Z, def, 3, 1}, {A, def, 3, 2}, {A, loose, 2, 1},
	}
	for _, tc := range tests {
		got, want := CountSentences(tc.f, tc.p, tc.n1, tc.n2), bruteCount(tc.f, tc.p, tc.n1, tc.n2)
		if got != want {
			t.Errorf("CountSentences(%v, %+v, %d, %d) = %d, enumeration gives %d", tc.f, tc.p, tc.n1, tc.n2, got, want)
		}
		if got > 2000 {
			continue
		}
		// Every countable sentence is reachable: asking for all of them works.
		in, err := Sample(rand.New(rand.NewPCG(9, 9)), tc.f, tc.p, got, tc.n1, tc.n2)
		if err != nil || len(in.Sentences) != got {
			t.Errorf("Sample(m = %d = count) for %v: %d sentences, %v", got, tc.f, len(in.Sentences), err)
		}
	}
	// With distinct propositions (the default) every one is reachable
	// too, and one more is refused. hasPropositions, which stops
	// enumerating early, agrees with the count on both sides of it, from
	// an empty memo.
	propCounts.Clear()
	for _, tc := range tests {
		p := tc.p
		p.Equivalent = false
		var early []bool
		for _, m := range []int{1, 7, 50, 500} {
			early = append(early, hasPropositions(tc.f, p, tc.n1, tc.n2, m))
		}
		c := CountPropositions(tc.f, p, tc.n1, tc.n2)
		for i, m := range []int{1, 7, 50, 500} {
			if early[i] != (m <= c) {
				t.Errorf("hasPropositions(%v, m = %d) = %v, but %d propositions", tc.f, m, early[i], c)
			}
		}
		for _, m := range []int{c - 1, c, c + 1} {
			propCounts.Clear()
			if got := hasPropositions(tc.f, p, tc.n1, tc.n2, m); got != (m <= c) {
				t.Errorf("hasPropositions(%v, m = %d) = %v, but %d propositions", tc.f, m, got, c)
			}
		}
		in, err := Sample(rand.New(rand.NewPCG(9, 9)), tc.f, p, c, tc.n1, tc.n2)
		if err != nil || len(in.Sentences) != c {
			t.Errorf("Sample(m = %d propositions) for %v: %d sentences, %v", c, tc.f, len(in.Sentences), err)
		}
		if err := Validate(tc.f, p, c+1, tc.n1, tc.n2); err == nil || !strings.Contains(err.Error(), "has only") {
			t.Errorf("Validate(m = %d + 1) for %v: %v", c, tc.f, err)
		}
	}
	if c := CountSentences(A, loose, 1<<40, 1<<40); c != math.MaxInt {
		t.Errorf("CountSentences does not saturate: %d", c)
	}
}

// TestTemplateShares checks the template-choice statistics of the sampler
// against the spec: own templates with probability OwnShare, uniform within
// a group, and each free negation with probability NegProb. Tolerances are
// about five standard deviations for 30,000 draws with this fixed seed.
func TestTemplateShares(t *testing.T) {
	const n = 30000
	nouns, verbs := nounWords(Default())[:8], verbWords(Default())[:8]
	for _, tc := range []struct {
		f        Fragment
		own, neg float64
	}{{S, 0.5, 0.5}, {W, 0.5, 0.5}, {V, 0.5, 0.3}, {Z, 0.8, 0.5}, {A, 0.5, 0.5}, {A, 0.2, 0.9}} {
		p := SamplerParams{OwnShare: tc.own, NegProb: tc.neg, Distinct: true}.Params()
		rng := rand.New(rand.NewPCG(11, uint64(tc.f)))
		counts := map[Template]int{}
		negs, slots := 0, 0
		for i := 0; i < n; i++ {
			s := drawSentence(rng, tc.f, p, nouns, verbs)
			counts[s.Template]++
			for _, r := range layoutOf(s.Template).neg {
				slots++
				if s.term(r).Neg {
					negs++
				}
			}
		}
		for _, tpl := range tc.f.Templates() {
			want := tc.own / 3
			if tc.f == S {
				want = 1.0 / 3
			} else if tpl.Fragment() != tc.f {
				want = (1 - tc.own) / float64(len(tc.f.Inherited()))
			}
			checkShare(t, tc.f.String()+" "+tpl.String(), counts[tpl], n, want)
		}
		checkShare(t, tc.f.String()+" negation", negs, slots, tc.neg)
	}
}

func checkShare(t *testing.T, what string, k, n int, want float64) {
	t.Helper()
	got := float64(k) / float64(n)
	if tol := 5 * math.Sqrt(want*(1-want)/float64(n)); math.Abs(got-want) > tol {
		t.Errorf("%s: share %.4f, want %.4f ± %.4f", what, got, want, tol)
	}
}
