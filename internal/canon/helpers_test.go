package canon

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

// sizes draws m, n1, n2 for a fragment from the phase-change region of the
// paper's training sets: S, W n1 in 6–16 and m about 1.3·n1; V, Z, A n1
// and n2 in 3–8 and m in 3·n1–5·n1.
func sizes(rng *rand.Rand, f fragments.Fragment) (m, n1, n2 int) {
	if f <= fragments.W {
		n1 = 6 + rng.IntN(11)
		return int(1.3*float64(n1)+0.5) + rng.IntN(3) - 1, n1, 0
	}
	n1, n2 = 3+rng.IntN(6), 3+rng.IntN(6)
	return n1 * (3 + rng.IntN(3)), n1, n2
}

func mustSample(t testing.TB, rng *rand.Rand, f fragments.Fragment, p fragments.Params, m, n1, n2 int) fragments.Instance {
	t.Helper()
	in, err := fragments.Sample(rng, f, p, m, n1, n2)
	if err != nil {
		t.Fatalf("Sample(%s, m=%d, n1=%d, n2=%d): %v", f, m, n1, n2, err)
	}
	return in
}

// rename returns a copy of in with its nouns and verbs renamed by random
// injections into pool (defaulting to the whole vocabulary) and its
// sentences shuffled.
func rename(rng *rand.Rand, in fragments.Instance, nounPool, verbPool []string) fragments.Instance {
	if nounPool == nil {
		nounPool, verbPool = lexiconNouns(), lexiconVerbs()
	}
	nm := injection(rng, usedWords(in, false), nounPool)
	vm := injection(rng, usedWords(in, true), verbPool)
	out := fragments.Instance{Fragment: in.Fragment}
	for _, s := range in.Sentences {
		out.Sentences = append(out.Sentences, renameSentence(s, nm, vm))
	}
	rng.Shuffle(len(out.Sentences), func(i, j int) {
		out.Sentences[i], out.Sentences[j] = out.Sentences[j], out.Sentences[i]
	})
	return out
}

func renameSentence(s fragments.Sentence, nm, vm map[string]string) fragments.Sentence {
	for _, t := range []*fragments.Term{&s.O, &s.P, &s.Q} {
		if t.Noun != "" {
			t.Noun = nm[t.Noun]
		}
	}
	if s.R != "" {
		s.R = vm[s.R]
	}
	if s.S != "" {
		s.S = vm[s.S]
	}
	return s
}

func injection(rng *rand.Rand, from, pool []string) map[string]string {
	perm := rng.Perm(len(pool))
	m := make(map[string]string, len(from))
	for i, w := range from {
		m[w] = pool[perm[i]]
	}
	return m
}

// usedWords returns the distinct nouns (or verbs) of in's sentences, sorted.
func usedWords(in fragments.Instance, verbs bool) []string {
	var ws []string
	for _, s := range in.Sentences {
		if verbs {
			ws = append(ws, s.R, s.S)
		} else {
			ws = append(ws, s.O.Noun, s.P.Noun, s.Q.Noun)
		}
	}
	slices.Sort(ws)
	ws = slices.Compact(ws)
	if len(ws) > 0 && ws[0] == "" {
		ws = ws[1:]
	}
	return ws
}

func lexiconNouns() []string {
	var ws []string
	for _, n := range fragments.Nouns() {
		ws = append(ws, n.Word)
	}
	return ws
}

func lexiconVerbs() []string {
	var ws []string
	for _, v := range fragments.Verbs() {
		ws = append(ws, v.Base)
	}
	return ws
}

// sentenceSet is the set of in's sentences, compared as structs: an
// independent reading of "the same sentences as written".
func sentenceSet(in fragments.Instance) map[fragments.Sentence]bool {
	set := make(map[fragments.Sentence]bool, len(in.Sentences))
	for _, s := range in.Sentences {
		set[s] = true
	}
	return set
}

func sameSet(a, b map[fragments.Sentence]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for s := range a {
		if !b[s] {
			return false
		}
	}
	return true
}

// bruteIsomorphic decides isomorphism by trying every bijection between
// the nouns used and every bijection between the verbs used.
func bruteIsomorphic(a, b fragments.Instance) bool {
	if a.Fragment != b.Fragment {
		return false
	}
	an, bn := usedWords(a, false), usedWords(b, false)
	av, bv := usedWords(a, true), usedWords(b, true)
	sa, sb := sentenceSet(a), sentenceSet(b)
	if len(an) != len(bn) || len(av) != len(bv) || len(sa) != len(sb) {
		return false
	}
	found := false
	permute(bn, func(np []string) bool {
		nm := zipMap(an, np)
		permute(bv, func(vp []string) bool {
			vm := zipMap(av, vp)
			found = allIn(sa, sb, nm, vm)
			return found
		})
		return found
	})
	return found
}

func allIn(sa, sb map[fragments.Sentence]bool, nm, vm map[string]string) bool {
	for s := range sa {
		if !sb[renameSentence(s, nm, vm)] {
			return false
		}
	}
	return true
}

func zipMap(from, to []string) map[string]string {
	m := make(map[string]string, len(from))
	for i, w := range from {
		m[w] = to[i]
	}
	return m
}

// permute calls f with every permutation of ws until f returns true.
func permute(ws []string, f func([]string) bool) bool {
	p := slices.Clone(ws)
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(p) {
			return f(p)
		}
		for j := i; j < len(p); j++ {
			p[i], p[j] = p[j], p[i]
			if rec(i + 1) {
				return true
			}
			p[i], p[j] = p[j], p[i]
		}
		return false
	}
	return rec(0)
}
