package canon

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

// TestRenamingInvariance renames the words of sampled instances into other
// words of the vocabulary and shuffles their sentences: Key must not
// change, and ExactKey must change exactly when the set of sentences did.
func TestRenamingInvariance(t *testing.T) {
	loose := fragments.DefaultParams()
	loose.Distinct = false
	tests := []struct {
		name string
		p    fragments.Params
	}{
		{"distinct", fragments.DefaultParams()},
		{"repeats", loose},
	}
	trials := 300
	if testing.Short() {
		trials = 100
	}
	capsBefore := CapHits()
	maxNodes := 0
	for _, tt := range tests {
		for _, f := range fragments.All() {
			rng := rand.New(rand.NewPCG(uint64(f), 1))
			same, changed := 0, 0
			for trial := range trials {
				m, n1, n2 := sizes(rng, f)
				in := mustSample(t, rng, f, tt.p, m, n1, n2)
				r := rename(rng, in, nil, nil)
				if trial%10 == 0 { // also rename within the instance's own words
					r = rename(rng, in, usedWords(in, false), usedWords(in, true))
				}
				form := Canonical(in)
				maxNodes = max(maxNodes, form.Nodes)
				if got := Key(r); got != form.Key {
					t.Fatalf("%s %s: Key changed under renaming:\n%q\n%q", tt.name, f, in.Text(), r.Text())
				}
				unchanged := sameSet(sentenceSet(in), sentenceSet(r))
				if (ExactKey(in) == ExactKey(r)) != unchanged {
					t.Errorf("%s %s: ExactKey equal = %v, want %v", tt.name, f, !unchanged, unchanged)
				}
				if unchanged {
					same++
				} else {
					changed++
				}
			}
			if changed == 0 {
				t.Errorf("%s %s: no renaming changed the sentences", tt.name, f)
			}
		}
	}
	if n := CapHits() - capsBefore; n != 0 {
		t.Errorf("the cap was hit %d times", n)
	}
	t.Logf("most search nodes for one instance: %d", maxNodes)
}

// TestBruteForce compares Key equality with brute-force isomorphism on
// all pairs of pools of small instances, sampled ones and ones built from
// few shapes and words so that near misses are common.
func TestBruteForce(t *testing.T) {
	loose := fragments.DefaultParams()
	loose.Distinct = false
	tests := []struct {
		f                  fragments.Fragment
		p                  fragments.Params
		n1, n2, minN, maxM int
	}{
		{fragments.S, fragments.DefaultParams(), 3, 0, 2, 4},
		{fragments.S, loose, 3, 0, 1, 4},
		{fragments.W, fragments.DefaultParams(), 4, 0, 3, 3},
		{fragments.W, loose, 3, 0, 1, 3},
		{fragments.V, fragments.DefaultParams(), 4, 2, 3, 3},
		{fragments.V, loose, 3, 2, 1, 3},
		{fragments.Z, fragments.DefaultParams(), 4, 2, 3, 3},
		{fragments.Z, loose, 3, 2, 1, 3},
		{fragments.A, fragments.DefaultParams(), 4, 3, 3, 3},
		{fragments.A, loose, 3, 2, 1, 3},
	}
	for i, tt := range tests {
		rng := rand.New(rand.NewPCG(7, uint64(i)))
		name := fmt.Sprintf("%s distinct=%v", tt.f, tt.p.Distinct)
		sampled := smallPool(t, rng, tt.f, tt.p, tt.n1, tt.n2, tt.minN, tt.maxM)
		iso, _ := comparePool(t, name+" sampled", sampled)
		if iso < 20 {
			t.Errorf("%s sampled: only %d isomorphic pairs", name, iso)
		}
		iso, non := 0, 0
		for range 10 {
			a, b := comparePool(t, name+" built", builtPool(rng, tt.f, tt.p.Distinct))
			iso, non = iso+a, non+b
		}
		t.Logf("%s: %d isomorphic pairs, %d non-isomorphic with the same shapes and polarities", name, iso, non)
		if iso < 20 || non < 20 {
			t.Errorf("%s built: only %d isomorphic and %d hard non-isomorphic pairs", name, iso, non)
		}
	}
}

// comparePool checks Key equality against brute force on every pair of
// pool and returns the numbers of isomorphic pairs and of non-isomorphic
// pairs that a cheap invariant (profile) does not tell apart.
func comparePool(t *testing.T, name string, pool []fragments.Instance) (iso, hard int) {
	t.Helper()
	keys := make([]string, len(pool))
	for j, in := range pool {
		keys[j] = Key(in)
	}
	for a := range pool {
		for b := a + 1; b < len(pool); b++ {
			want := bruteIsomorphic(pool[a], pool[b])
			if got := keys[a] == keys[b]; got != want {
				t.Fatalf("%s: keys equal = %v, brute force says isomorphic = %v:\n%q\n%q",
					name, got, want, pool[a].Text(), pool[b].Text())
			}
			if want {
				iso++
			} else if profile(pool[a]) == profile(pool[b]) {
				hard++
			}
		}
	}
	return iso, hard
}

// profile is a cheap invariant: the sorted shapes and polarities of the
// sentences and the numbers of nouns and verbs used.
func profile(in fragments.Instance) string {
	var ps []string
	for s := range sentenceSet(in) {
		ps = append(ps, fmt.Sprint(s.ID(), s.O.Neg, s.P.Neg, s.Q.Neg))
	}
	slices.Sort(ps)
	return fmt.Sprint(ps, len(usedWords(in, false)), len(usedWords(in, true)))
}

// builtPool makes 30 instances of 2–4 sentences from one or two shapes of
// f, three or four nouns and two verbs, with few negations, and renames 10
// of them within those words.
func builtPool(rng *rand.Rand, f fragments.Fragment, distinct bool) []fragments.Instance {
	shapes := f.Shapes()
	palette := []fragments.Shape{shapes[rng.IntN(len(shapes))], shapes[rng.IntN(len(shapes))]}
	nouns, verbs := lexiconNouns()[:3+rng.IntN(2)], lexiconVerbs()[:2]
	var pool []fragments.Instance
	for range 30 {
		in := fragments.Instance{Fragment: f}
		for range 2 + rng.IntN(3) {
			in.Sentences = append(in.Sentences, buildSentence(rng, palette[rng.IntN(2)], nouns, verbs, distinct))
		}
		pool = append(pool, in)
	}
	for i := range 10 {
		pool = append(pool, rename(rng, pool[i], nouns, verbs))
	}
	return pool
}

// buildSentence fills the roles sh uses (the table in the documentation of
// fragments.Sentence) with random words, pairwise distinct if distinct, and
// negates each free noun with probability 1/4.
func buildSentence(rng *rand.Rand, sh fragments.Shape, nouns, verbs []string, distinct bool) fragments.Sentence {
	s := fragments.Sentence{Shape: sh}
	ns, vs := pickWords(rng, nouns, 3, distinct), pickWords(rng, verbs, 2, distinct)
	switch sh.Template.Fragment() {
	case fragments.S, fragments.V:
		s.P.Noun, s.Q.Noun = ns[0], ns[1]
	case fragments.W, fragments.Z:
		s.O.Noun, s.P.Noun, s.Q.Noun = ns[0], ns[1], ns[2]
	case fragments.A:
		s.O.Noun, s.P.Noun = ns[0], ns[1]
		s.S = vs[1]
	}
	if sh.Template.Fragment() >= fragments.V {
		s.R = vs[0]
	}
	for _, tm := range []*fragments.Term{&s.O, &s.P, &s.Q} {
		if tm.Noun != "" && rng.IntN(4) == 0 {
			tm.Neg = true
			if s.Check() != nil { // the template fixes this polarity
				tm.Neg = false
			}
		}
	}
	return s
}

func pickWords(rng *rand.Rand, ws []string, k int, distinct bool) []string {
	if distinct {
		perm := rng.Perm(len(ws))
		out := make([]string, k)
		for i := range k {
			out[i] = ws[perm[i%len(perm)]] // two verbs: k exceeds len(ws) only for unused roles
		}
		return out
	}
	out := make([]string, k)
	for i := range out {
		out[i] = ws[rng.IntN(len(ws))]
	}
	return out
}

// smallPool samples 120 instances with at most n1 nouns, n2 verbs and maxM
// sentences, plus 40 renamed copies within a small vocabulary.
func smallPool(t *testing.T, rng *rand.Rand, f fragments.Fragment, p fragments.Params, n1, n2, minN, maxM int) []fragments.Instance {
	var pool []fragments.Instance
	for range 120 {
		k, l := minN+rng.IntN(n1-minN+1), 0
		if f >= fragments.V {
			l = max(n2-rng.IntN(2), 1)
			if f == fragments.A && p.Distinct {
				l = max(l, 2)
			}
		}
		in := mustSample(t, rng, f, p, 1+rng.IntN(maxM), k, l)
		pool = append(pool, in)
	}
	nouns, verbs := lexiconNouns()[:n1+1], lexiconVerbs()[:n2+1]
	for i := range 40 {
		pool = append(pool, rename(rng, pool[i], nouns, verbs))
	}
	return pool
}
