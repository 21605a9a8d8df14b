package distract

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/nlsat/nlsat/internal/fragments"
)

// instanceWords returns the nouns and verbs of inst: its Nouns and Verbs
// lists, then any other word its sentences use, in sentence order. A
// hand-made instance may leave the lists empty.
func instanceWords(inst fragments.Instance) (nouns, verbs []string) {
	nouns, verbs = slices.Clone(inst.Nouns), slices.Clone(inst.Verbs)
	return appendWords(nouns, verbs, inst.Sentences)
}

// appendWords appends to nouns and verbs the words of ss not yet in them.
func appendWords(nouns, verbs []string, ss []fragments.Sentence) ([]string, []string) {
	for _, s := range ss {
		for _, w := range s.Nouns() {
			if !slices.Contains(nouns, w) {
				nouns = append(nouns, w)
			}
		}
		for _, w := range s.Verbs() {
			if !slices.Contains(verbs, w) {
				verbs = append(verbs, w)
			}
		}
	}
	return nouns, verbs
}

// extendWords returns inst's Nouns and Verbs followed by the words of ds
// that are not among them, in first-use order.
func extendWords(inst fragments.Instance, ds []fragments.Sentence) ([]string, []string) {
	return appendWords(slices.Clone(inst.Nouns), slices.Clone(inst.Verbs), ds)
}

// subLexicon builds the lexicon of the given words, with their articles
// and verb forms taken from lx, so that the sampler draws only from them.
func subLexicon(lx *fragments.Lexicon, nouns, verbs []string) (*fragments.Lexicon, error) {
	ns := make([]fragments.Noun, len(nouns))
	for i, w := range nouns {
		n, ok := lx.Noun(w)
		if !ok {
			return nil, fmt.Errorf("noun %q is not in the lexicon", w)
		}
		ns[i] = n
	}
	vs := make([]fragments.Verb, len(verbs))
	for i, w := range verbs {
		v, ok := lx.Verb(w)
		if !ok {
			return nil, fmt.Errorf("verb %q is not in the lexicon", w)
		}
		vs[i] = v
	}
	return fragments.NewLexicon(ns, vs)
}

// drawFrom returns k distinct words of ws in the order drawn: the first k
// steps of a Fisher–Yates shuffle of a copy (the sampler's method).
func drawFrom(rng *rand.Rand, ws []string, k int) []string {
	pool := slices.Clone(ws)
	for i := 0; i < k; i++ {
		j := i + rng.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	return pool[:k:k]
}

// without returns the words of ws that are not in used, in order.
func without(ws, used []string) []string {
	var out []string
	for _, w := range ws {
		if !slices.Contains(used, w) {
			out = append(out, w)
		}
	}
	return out
}
