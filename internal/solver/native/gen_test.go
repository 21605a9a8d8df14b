package native

import (
	"math/rand/v2"

	"github.com/nlsat/nlsat/internal/fol"
)

// A random generator of the spec's sentence shapes (docs/fragments.md), used by
// the cross-checks. Fragments are numbered 0..4 for S, W, V, Z, A; a
// fragment draws uniformly among its own and its inherited templates.

type gen struct {
	rng   *rand.Rand
	nouns []string
	verbs []string
	rep   bool // words inside a sentence may repeat
}

func newGen(rng *rand.Rand, n1, n2 int, rep bool) *gen {
	g := &gen{rng: rng, rep: rep}
	for i := range n1 {
		g.nouns = append(g.nouns, "p"+string(rune('0'+i%10))+string(rune('a'+i/10)))
	}
	for i := range n2 {
		g.verbs = append(g.verbs, "r"+string(rune('0'+i%10))+string(rune('a'+i/10)))
	}
	return g
}

func (g *gen) flip() bool { return g.rng.IntN(2) == 0 }

// words draws k nouns, distinct unless g.rep (or too few nouns).
func (g *gen) words(k int, from []string) []string {
	if g.rep || len(from) < k {
		out := make([]string, k)
		for i := range out {
			out[i] = from[g.rng.IntN(len(from))]
		}
		return out
	}
	perm := g.rng.Perm(len(from))
	out := make([]string, k)
	for i := range out {
		out[i] = from[perm[i]]
	}
	return out
}

// sentence draws one sentence of fragment frag (0 = S … 4 = A).
func (g *gen) sentence(frag int) fol.Formula {
	kinds := 3 * (frag + 1)
	if len(g.verbs) == 0 {
		kinds = min(kinds, 6)
	}
	switch tpl := g.rng.IntN(kinds); tpl / 3 {
	case 0:
		return g.sTemplate(tpl%3, 1)
	case 1:
		return g.sTemplate(tpl%3, 2)
	case 2:
		return g.vTemplate(false)
	case 3:
		return g.zTemplate(tpl % 3)
	default:
		return g.vTemplate(true)
	}
}

// sTemplate builds S1..S3 (k = 1 restriction noun) or W1..W3 (k = 2).
func (g *gen) sTemplate(which, k int) fol.Formula {
	w := g.words(k+1, g.nouns)
	subj := ul(g.flip(), w[0], vx)
	if k == 2 {
		subj = fol.Conj(subj, ul(g.flip(), w[1], vx))
	}
	q := w[k]
	switch which {
	case 0:
		return every(subj, ul(true, q, vx))
	case 1:
		return every(subj, ul(false, q, vx))
	}
	return some(subj, ul(g.flip(), q, vx))
}

// vTemplate builds V (anaphora false) or A (true): subject every/some,
// object every/some, verb sign.
func (g *gen) vTemplate(anaphora bool) fol.Formula {
	w := g.words(2, g.nouns)
	vs := g.words(2, g.verbs)
	psi := ul(g.flip(), w[1], vy)
	if anaphora {
		psi = arc(g.flip(), w[1], g.flip(), vs[1])
	}
	subj := ul(g.flip(), w[0], vx)
	o := obj(g.flip(), psi, g.flip(), vs[0])
	if g.flip() {
		return every(subj, o)
	}
	return some(subj, o)
}

// zTemplate builds Z1..Z3 with a random relative clause.
func (g *gen) zTemplate(which int) fol.Formula {
	w := g.words(3, g.nouns)
	r := g.words(1, g.verbs)[0]
	rc := obj(g.flip(), ul(g.flip(), w[1], vy), g.flip(), r)
	subj := fol.Conj(ul(g.flip(), w[0], vx), rc)
	switch which {
	case 0:
		return every(subj, ul(true, w[2], vx))
	case 1:
		return every(subj, ul(false, w[2], vx))
	}
	return some(subj, ul(g.flip(), w[2], vx))
}

// instance draws m distinct sentences of fragment frag.
func (g *gen) instance(frag, m int) []fol.Formula {
	var out []fol.Formula
	for tries := 0; len(out) < m && tries < 50*m; tries++ {
		f := g.sentence(frag)
		dup := false
		for _, h := range out {
			dup = dup || fol.Equal(f, h)
		}
		if !dup {
			out = append(out, f)
		}
	}
	return out
}
