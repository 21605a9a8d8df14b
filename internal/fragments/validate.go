package fragments

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
)

// Validate reports whether Sample can draw an instance of fragment f with
// m distinct sentences over n1 nouns and n2 verbs under p. The error says
// which bound is violated and by how much.
func Validate(f Fragment, p Params, m, n1, n2 int) error {
	if !f.Valid() {
		return fmt.Errorf("unknown fragment %v: allowed values are S, W, V, Z, A", f)
	}
	if !(p.OwnShare >= 0 && p.OwnShare <= 1) || !(p.NegProb >= 0 && p.NegProb <= 1) {
		return fmt.Errorf("own share %v and negation probability %v must lie in [0, 1]", p.OwnShare, p.NegProb)
	}
	if m < 1 {
		return fmt.Errorf("m must be at least 1, got %d", m)
	}
	if len(drawable(f, p)) == 0 {
		return fmt.Errorf("fragment %s: every template is excluded", f)
	}
	if err := checkWordCounts(f, p, n1, n2); err != nil {
		return err
	}
	if c := CountSentences(f, p, n1, n2); m > c {
		return fmt.Errorf("fragment %s with n1 = %d and n2 = %d has only %d distinct sentences under these parameters, fewer than m = %d",
			f, n1, n2, c, m)
	}
	if !p.Equivalent && !hasPropositions(f, p, n1, n2, m) {
		c := CountPropositions(f, p, n1, n2)
		return fmt.Errorf("fragment %s with n1 = %d and n2 = %d has only %d sentences of distinct meaning under these parameters, fewer than m = %d (--allow-equivalent draws equivalent ones too)",
			f, n1, n2, c, m)
	}
	return nil
}

// enumerateLimit bounds the sentences CountPropositions enumerates.
const enumerateLimit = 20000

// CountPropositions returns the number of distinct meanings
// (Sentence.Meaning) among the sentences Sample can draw for fragment f
// from n1 nouns and n2 verbs under p, found by enumerating them; where
// there are more than enumerateLimit sentences it returns CountSentences,
// a bound from above that no sampler size comes near.
func CountPropositions(f Fragment, p Params, n1, n2 int) int {
	c := CountSentences(f, p, n1, n2)
	if c > enumerateLimit {
		return c
	}
	key := keyOf(f, p, n1, n2)
	if n, ok := propCounts.Load(key); ok {
		return n.(int)
	}
	n := enumeratePropositions(f, p, n1, n2, math.MaxInt)
	propCounts.Store(key, n)
	return n
}

// hasPropositions reports whether Sample can draw m sentences of
// distinct meaning for fragment f from n1 nouns and n2 verbs under p, as
// m <= CountPropositions does; but it stops enumerating at the m-th
// meaning, which a sampler's m reaches long before the last sentence.
func hasPropositions(f Fragment, p Params, n1, n2, m int) bool {
	if c := CountSentences(f, p, n1, n2); c > enumerateLimit {
		return m <= c
	}
	if n, ok := propCounts.Load(keyOf(f, p, n1, n2)); ok {
		return m <= n.(int)
	}
	return enumeratePropositions(f, p, n1, n2, m) >= m
}

// keyOf returns the key of CountPropositions' answer.
func keyOf(f Fragment, p Params, n1, n2 int) propKey {
	return propKey{fmt.Sprint(drawable(f, p)), p.NegProb > 0 && p.NegProb < 1, p.NegProb == 1, p.Distinct, n1, n2}
}

// propKey is what CountPropositions' answer depends on.
type propKey struct {
	templates        string
	bothNegs, allNeg bool
	distinct         bool
	n1, n2           int
}

// propCounts remembers CountPropositions' answers: Sample validates on
// every call.
var propCounts sync.Map

// enumeratePropositions counts the distinct meanings of the sentences
// of CountPropositions, enumerating them until it has found upTo.
func enumeratePropositions(f Fragment, p Params, n1, n2, upTo int) int {
	nouns, verbs := make([]string, n1), make([]string, n2)
	for i := range nouns {
		nouns[i] = fmt.Sprintf("n%d", i)
	}
	for i := range verbs {
		verbs[i] = fmt.Sprintf("v%d", i)
	}
	seen := map[string]bool{}
	for _, t := range drawable(f, p) {
		l := layoutOf(t)
		for _, sh := range shapesOf(t) {
			more := eachFilling(Sentence{Shape: sh}, l, p, nouns, verbs, func(s Sentence) bool {
				seen[s.Meaning()] = true
				return len(seen) < upTo
			})
			if !more {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// eachFilling calls fn with s under every choice of polarities (when both
// can be drawn), nouns and verbs of its layout, until fn returns false;
// it reports whether fn never did.
func eachFilling(s Sentence, l layout, p Params, nouns, verbs []string, fn func(Sentence) bool) bool {
	negs := 1
	if p.NegProb > 0 && p.NegProb < 1 {
		negs = 1 << len(l.neg)
	}
	for bitsN := range negs {
		for k, r := range l.neg {
			s.term(r).Neg = p.NegProb == 1 || bitsN&(1<<k) != 0
		}
		more := eachWords(len(l.nouns), nouns, p.Distinct, func(ns []string) bool {
			for k, r := range l.nouns {
				s.term(r).Noun = ns[k]
			}
			return eachWords(l.verbs, verbs, p.Distinct, func(vs []string) bool {
				if len(vs) > 0 {
					s.R = vs[0]
				}
				if len(vs) > 1 {
					s.S = vs[1]
				}
				return fn(s)
			})
		})
		if !more {
			return false
		}
	}
	return true
}

// eachWords calls fn with every sequence of k words of ws (pairwise
// distinct when distinct), until fn returns false; it reports whether fn
// never did.
func eachWords(k int, ws []string, distinct bool, fn func([]string) bool) bool {
	var rec func(acc []string) bool
	rec = func(acc []string) bool {
		if len(acc) == k {
			return fn(acc)
		}
		for _, w := range ws {
			if distinct && containsWord(acc, w) {
				continue
			}
			if !rec(append(acc, w)) {
				return false
			}
		}
		return true
	}
	return rec(make([]string, 0, k))
}

func checkWordCounts(f Fragment, p Params, n1, n2 int) error {
	lx := p.lexicon()
	switch {
	case n1 < 1:
		return fmt.Errorf("n1 must be at least 1, got %d", n1)
	case n1 > len(lx.nouns):
		return fmt.Errorf("n1 = %d exceeds the %d nouns of the vocabulary", n1, len(lx.nouns))
	case n2 > len(lx.verbs):
		return fmt.Errorf("n2 = %d exceeds the %d verbs of the vocabulary", n2, len(lx.verbs))
	case f <= W && n2 != 0:
		return fmt.Errorf("fragment %s takes no verbs: n2 must be 0, got %d", f, n2)
	case f >= V && n2 < 1:
		return fmt.Errorf("fragment %s needs n2 >= 1, got %d", f, n2)
	}
	if !p.Distinct {
		return nil
	}
	needN, needV := 0, 0
	for _, t := range drawable(f, p) {
		l := layoutOf(t)
		needN, needV = max(needN, len(l.nouns)), max(needV, l.verbs)
	}
	if n1 < needN {
		return fmt.Errorf("fragment %s needs n1 >= %d (a sentence uses %d distinct nouns), got %d", f, needN, needN, n1)
	}
	if n2 < needV {
		return fmt.Errorf("fragment %s needs n2 >= %d (a sentence uses %d distinct verbs), got %d", f, needV, needV, n2)
	}
	return nil
}

// drawable returns the templates Sample can draw for f under p: a group
// whose probability is zero is left out.
func drawable(f Fragment, p Params) []Template {
	var ts []Template
	switch {
	case f == S || p.OwnShare == 1:
		ts = f.Own()
	case p.OwnShare == 0:
		ts = f.Inherited()
	default:
		ts = f.Templates()
	}
	if len(p.Exclude) > 0 {
		if left := without(ts, p.Exclude); len(left) > 0 {
			return left
		}
		// The drawn group is empty: the sampler falls back to every
		// template not excluded.
		return without(f.Templates(), p.Exclude)
	}
	return ts
}

// CountSentences returns the exact number of distinct sentences Sample can
// draw for fragment f from n1 nouns and n2 verbs under p (words distinct
// within a sentence if p.Distinct; a polarity counts once if NegProb is 0
// or 1). Distinct sentences have distinct English, as Parse inverts
// English. The count saturates at math.MaxInt.
func CountSentences(f Fragment, p Params, n1, n2 int) int {
	total := 0
	for _, t := range drawable(f, p) {
		l := layoutOf(t)
		c := len(shapesOf(t))
		c = mulSat(c, assignments(n1, len(l.nouns), p.Distinct))
		c = mulSat(c, assignments(n2, l.verbs, p.Distinct))
		if p.NegProb > 0 && p.NegProb < 1 {
			c = mulSat(c, 1<<len(l.neg))
		}
		total = addSat(total, c)
	}
	return total
}

// assignments counts the ways to fill k roles from n words: n^k, or the
// falling factorial n(n-1)…(n-k+1) when the words must be distinct.
func assignments(n, k int, distinct bool) int {
	c := 1
	for i := 0; i < k; i++ {
		f := n
		if distinct {
			f = n - i
		}
		if f <= 0 {
			return 0
		}
		c = mulSat(c, f)
	}
	return c
}

func mulSat(a, b int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt {
		return math.MaxInt
	}
	return int(lo)
}

func addSat(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
