package canon

import (
	"math/rand/v2"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

// TestSymmetric runs instances with large automorphism groups, where a
// search without pruning would be exponential. Each must be canonised
// within a small budget and keep its key under renaming; other is a near
// variant, isomorphic or not as otherIso says.
func TestSymmetric(t *testing.T) {
	tests := []struct {
		name      string
		in, other fragments.Instance
		otherIso  bool
		maxNodes  int
	}{
		{"cycle of 24 nouns", cycle(fragments.S, 24, 24, 0), cycle(fragments.S, 24, 12, 0), false, 200},
		{"12 cycles of 2 nouns", cycle(fragments.S, 24, 2, 0), cycle(fragments.S, 24, 3, 0), false, 200},
		{"8 triangles with one verb", cycle(fragments.V, 24, 3, 1), cycle(fragments.V, 24, 4, 1), false, 200},
		{"cycle of 12 nouns under 12 verbs", cycle(fragments.V, 12, 12, 12), cycle(fragments.V, 12, 6, 12), false, 500},
		{"anaphora on 8 cycles of 3", cycle(fragments.A, 24, 3, 2), cycle(fragments.A, 24, 6, 2), false, 200},
		{"complete digraph on 12 nouns", complete(12, false), complete(12, true), false, 500},
		// Paley graphs are self-complementary: k = 2 and 3 are non-squares.
		{"Paley graph on 13 nouns", paley(13, 1), paley(13, 2), true, 500},
		{"Paley graph on 17 nouns", paley(17, 1), paley(17, 3), true, 500},
		{"Paley graph on 17 nouns, one sentence dropped", paley(17, 1), dropFirst(paley(17, 3)), false, 500},
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for _, tt := range tests {
		form := Canonical(tt.in)
		if form.Capped || form.Nodes > tt.maxNodes {
			t.Errorf("%s: capped %v after %d nodes, want at most %d", tt.name, form.Capped, form.Nodes, tt.maxNodes)
		}
		t.Logf("%s: %d sentences, %d nodes, %d leaves, %d automorphisms", tt.name,
			len(tt.in.Sentences), form.Nodes, form.Leaves, form.Auts)
		for range 20 {
			if got := Key(rename(rng, tt.in, nil, nil)); got != form.Key {
				t.Fatalf("%s: key changed under renaming", tt.name)
			}
		}
		if got := Key(tt.other) == form.Key; got != tt.otherIso {
			t.Errorf("%s: same key as its variant = %v, want %v", tt.name, got, tt.otherIso)
		}
	}
}

// cycle returns an instance over n nouns split into cycles of length c:
// "Every n_i is a n_i+1" for S, and for V and A one sentence per verb
// (of v) and noun, linking the noun to the next on its cycle.
func cycle(f fragments.Fragment, n, c, v int) fragments.Instance {
	nouns, verbs := lexiconNouns(), lexiconVerbs()
	in := fragments.Instance{Fragment: f}
	for i := range n {
		next := i - i%c + (i+1)%c
		o, p := nouns[i], nouns[next]
		switch f {
		case fragments.S:
			in.Sentences = append(in.Sentences, sentence("S1", "", o, p, "", ""))
		case fragments.V:
			for j := range v {
				in.Sentences = append(in.Sentences, sentence("V1.every-some", "", o, p, verbs[j], ""))
			}
		case fragments.A:
			in.Sentences = append(in.Sentences, sentence("A1.every-some.who", o, p, "", verbs[0], verbs[1]))
		}
	}
	return in
}

// complete returns "Some n_i is a n_j" for all i ≠ j among n nouns, with
// one sentence negated if perturb.
func complete(n int, perturb bool) fragments.Instance {
	nouns := lexiconNouns()
	in := fragments.Instance{Fragment: fragments.S}
	for i := range n {
		for j := range n {
			if i != j {
				in.Sentences = append(in.Sentences, sentence("S3", "", nouns[i], nouns[j], "", ""))
			}
		}
	}
	in.Sentences[0].Q.Neg = perturb
	return in
}

// paley returns "Some n_i is a n_j" for each i, j whose difference is k
// times a non-zero square modulo the prime p (p ≡ 1 mod 4, so the relation
// is symmetric). With k a square this is the Paley graph, strongly regular,
// on which colour refinement alone splits nothing.
func paley(p, k int) fragments.Instance {
	nouns := lexiconNouns()
	in := fragments.Instance{Fragment: fragments.S}
	square := map[int]bool{}
	for x := 1; x < p; x++ {
		square[x*x%p] = true
	}
	for i := range p {
		for j := range p {
			if d := (j - i + p) % p; d != 0 && square[d*k%p] {
				in.Sentences = append(in.Sentences, sentence("S3", "", nouns[i], nouns[j], "", ""))
			}
		}
	}
	return in
}

func dropFirst(in fragments.Instance) fragments.Instance {
	in.Sentences = in.Sentences[1:]
	return in
}

// sentence builds a sentence from a shape id and the words of its roles
// O, P, Q, R and S (empty for a role the template does not use).
func sentence(id, o, p, q, r, s string) fragments.Sentence {
	sh, err := fragments.ParseID(id)
	if err != nil {
		panic(err)
	}
	return fragments.Sentence{Shape: sh, O: fragments.Term{Noun: o}, P: fragments.Term{Noun: p},
		Q: fragments.Term{Noun: q}, R: r, S: s}
}

// TestRegular renames unions of random regular graphs and circulants (a
// symmetric "Some a is a b" relation, some edges negated): colour
// refinement cannot split their vertices, copies of one component are
// automorphic while different components are not, so the search has both
// equivalent and inequivalent branches, and unsound pruning would make the
// key depend on the order in which the vertices come.
func TestRegular(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	maxNodes := 0
	for trial := range 300 {
		var parts [][]edge
		for range 1 + rng.IntN(3) {
			parts = append(parts, repeat(component(rng), 1+rng.IntN(3)))
		}
		in := union(fragments.S, parts...)
		form := Canonical(in)
		maxNodes = max(maxNodes, form.Nodes)
		for range 4 {
			f := Canonical(rename(rng, in, nil, nil))
			if f.Capped || form.Capped {
				t.Fatalf("trial %d: capped", trial)
			}
			if f.Key != form.Key {
				t.Fatalf("trial %d: key changed under renaming: %q", trial, in.Text())
			}
		}
	}
	t.Logf("most search nodes for one instance: %d", maxNodes)
}

// component returns a random cubic graph on 6 to 10 vertices or a random
// circulant on 6 to 16 vertices with two or three connection steps, each
// step negated or not.
func component(rng *rand.Rand) []edge {
	if rng.IntN(3) == 0 {
		return regular(rng, 6+2*rng.IntN(3), 3)
	}
	n := 6 + rng.IntN(11)
	steps := rng.Perm(n / 2)[:2+rng.IntN(2)]
	negs := []bool{rng.IntN(2) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0}
	var es []edge
	for i := range n {
		for k, st := range steps {
			if j := (i + st + 1) % n; i < j || 2*(st+1) != n {
				es = append(es, edge{min(i, j), max(i, j), negs[k]})
			}
		}
	}
	return es
}

// edge is an undirected edge between nouns numbered from 0, negated or not.
type edge struct {
	a, b int
	neg  bool
}

// regular returns the edges of a random d-regular graph on n vertices
// (pairing model, redrawn until simple), each negated with probability 1/4.
func regular(rng *rand.Rand, n, d int) []edge {
	for {
		stubs := make([]int, 0, n*d)
		for v := range n {
			for range d {
				stubs = append(stubs, v)
			}
		}
		rng.Shuffle(len(stubs), func(i, j int) { stubs[i], stubs[j] = stubs[j], stubs[i] })
		seen, es := map[[2]int]bool{}, []edge(nil)
		for i := 0; i < len(stubs); i += 2 {
			a, b := min(stubs[i], stubs[i+1]), max(stubs[i], stubs[i+1])
			if a == b || seen[[2]int{a, b}] {
				break
			}
			seen[[2]int{a, b}] = true
			es = append(es, edge{a, b, rng.IntN(4) == 0})
		}
		if len(es) == n*d/2 {
			return es
		}
	}
}

// repeat returns c disjoint copies of a graph.
func repeat(es []edge, c int) []edge {
	n := 0
	for _, e := range es {
		n = max(n, e.b+1)
	}
	var out []edge
	for i := range c {
		for _, e := range es {
			out = append(out, edge{e.a + i*n, e.b + i*n, e.neg})
		}
	}
	return out
}

// union returns the disjoint union of graphs as "Some a is (not) a b" and
// "Some b is (not) a a" for each edge {a, b}.
func union(f fragments.Fragment, gs ...[]edge) fragments.Instance {
	nouns := lexiconNouns()
	in, off := fragments.Instance{Fragment: f}, 0
	for _, es := range gs {
		n := 0
		for _, e := range es {
			n = max(n, e.b+1)
			for _, ab := range [][2]int{{e.a, e.b}, {e.b, e.a}} {
				s := sentence("S3", "", nouns[off+ab[0]], nouns[off+ab[1]], "", "")
				s.Q.Neg = e.neg
				in.Sentences = append(in.Sentences, s)
			}
		}
		off += n
	}
	return in
}
