package distract

import (
	"math/rand/v2"
	"slices"

	"github.com/nlsat/nlsat/internal/fragments"
)

// derive proposes a sentence of fragment f that s alone entails, by one
// of the rules below, with any new word drawn with rng from nouns and
// verbs (distinct from the sentence's own words). It reports false when
// no rule applies to s in f. Add never relies on the rules' soundness: it
// proves every proposal by refutation before using it.
//
//   - equivalences: conversion of S3 ("Some p is a q" ⇒ "Some q is a p"),
//     contraposition of S1 and S2 ("Every p is a q" ⇒ "No non-q is a p"),
//     reordering the conjuncts of W1, W2 and W3;
//   - dropping a conjunct under ∃ (upward position): W3 and Z3 to S3, an
//     A sentence whose object is existential to its V sentence;
//   - adding a conjunct under ∀ (downward position): S1, S2 to W1, W2 (a
//     noun) and Z1, Z2 (a relative clause), a V sentence whose object is
//     universal to A (an anaphoric clause).
func derive(rng *rand.Rand, s fragments.Sentence, f fragments.Fragment, nouns, verbs []string) (fragments.Sentence, bool) {
	var rules []func() (fragments.Sentence, bool)
	add := func(r func() (fragments.Sentence, bool)) { rules = append(rules, r) }
	n := s.Template.Number()
	switch s.Fragment() {
	case fragments.S:
		if n == 3 {
			add(func() (fragments.Sentence, bool) { return s3(s.Q, s.P), true })
			break
		}
		add(func() (fragments.Sentence, bool) { return contrapose(s), true })
		if f >= fragments.W {
			add(func() (fragments.Sentence, bool) { return addNoun(rng, s, nouns) })
		}
		if f >= fragments.Z {
			add(func() (fragments.Sentence, bool) { return addClause(rng, s, nouns, verbs) })
		}
	case fragments.W:
		add(func() (fragments.Sentence, bool) { return reorder(rng, s), true })
		if n == 3 {
			add(func() (fragments.Sentence, bool) { t := pair(rng, s.O, s.P, s.Q); return s3(t[0], t[1]), true })
		}
	case fragments.Z:
		if n == 3 {
			add(func() (fragments.Sentence, bool) { t := pair(rng, s.O, s.Q); return s3(t[0], t[1]), true })
		}
	case fragments.V:
		if f == fragments.A && !objectUpward(s) {
			add(func() (fragments.Sentence, bool) { return addAnaphor(rng, s, verbs) })
		}
	case fragments.A:
		if objectUpward(s) {
			add(func() (fragments.Sentence, bool) { return dropAnaphor(s), true })
		}
	}
	if len(rules) == 0 {
		return fragments.Sentence{}, false
	}
	return rules[rng.IntN(len(rules))]()
}

// s3 is "Some a is b".
func s3(a, b fragments.Term) fragments.Sentence {
	return fragments.Sentence{Shape: fragments.Shape{Template: fragments.S3}, P: a, Q: b}
}

// contrapose maps ∀x(±p → q) to ∀x(¬q → ∓p) and ∀x(±p → ¬q) to
// ∀x(q → ∓p), written in S1 or S2 as the consequent's sign requires.
func contrapose(s fragments.Sentence) fragments.Sentence {
	if s.Template == fragments.S1 {
		t := fragments.Sentence{Shape: fragments.Shape{Template: fragments.S2}, P: neg(s.Q), Q: fragments.Term{Noun: s.P.Noun}}
		if s.P.Neg {
			t.Template = fragments.S1
		}
		return t
	}
	t := fragments.Sentence{Shape: fragments.Shape{Template: fragments.S2}, P: s.Q, Q: fragments.Term{Noun: s.P.Noun}}
	if s.P.Neg {
		t.Template = fragments.S1
	}
	return t
}

func neg(t fragments.Term) fragments.Term { return fragments.Term{Noun: t.Noun, Neg: !t.Neg} }

// reorder permutes the free conjuncts of a W sentence: O and P, and for
// W3 also Q, into a different order.
func reorder(rng *rand.Rand, s fragments.Sentence) fragments.Sentence {
	if s.Template.Number() != 3 {
		s.O, s.P = s.P, s.O
		return s
	}
	perms := [][3]int{{0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	ts := [3]fragments.Term{s.O, s.P, s.Q}
	pm := perms[rng.IntN(len(perms))]
	s.O, s.P, s.Q = ts[pm[0]], ts[pm[1]], ts[pm[2]]
	return s
}

// pair returns two of ts in random order.
func pair(rng *rand.Rand, ts ...fragments.Term) [2]fragments.Term {
	i := rng.IntN(len(ts))
	j := (i + 1 + rng.IntN(len(ts)-1)) % len(ts)
	return [2]fragments.Term{ts[i], ts[j]}
}

// addNoun strengthens the restrictor of S1 or S2 with a noun of random
// polarity, before or after the subject: W1 or W2.
func addNoun(rng *rand.Rand, s fragments.Sentence, nouns []string) (fragments.Sentence, bool) {
	o, ok := otherNoun(rng, nouns, s.P.Noun, s.Q.Noun)
	if !ok {
		return fragments.Sentence{}, false
	}
	t := fragments.Sentence{Shape: fragments.Shape{Template: fragments.W1}, O: s.P, P: o, Q: s.Q}
	if s.Template == fragments.S2 {
		t.Template = fragments.W2
	}
	if rng.IntN(2) == 0 {
		t.O, t.P = t.P, t.O
	}
	return t, true
}

// addClause strengthens the restrictor of S1 or S2 with a random relative
// clause: Z1 or Z2.
func addClause(rng *rand.Rand, s fragments.Sentence, nouns, verbs []string) (fragments.Sentence, bool) {
	o, ok := otherNoun(rng, nouns, s.P.Noun, s.Q.Noun)
	if !ok || len(verbs) == 0 {
		return fragments.Sentence{}, false
	}
	clauses := fragments.Z1.Shapes()
	t := fragments.Sentence{Shape: clauses[rng.IntN(len(clauses))], O: s.P, P: o, Q: s.Q, R: verbs[rng.IntN(len(verbs))]}
	if s.Template == fragments.S2 {
		t.Template = fragments.Z2
	}
	return t, true
}

// otherNoun draws a noun outside used with a random polarity.
func otherNoun(rng *rand.Rand, nouns []string, used ...string) (fragments.Term, bool) {
	var free []string
	for _, w := range nouns {
		if !slices.Contains(used, w) {
			free = append(free, w)
		}
	}
	if len(free) == 0 {
		return fragments.Term{}, false
	}
	return fragments.Term{Noun: free[rng.IntN(len(free))], Neg: rng.IntN(2) == 0}, true
}

// objectUpward reports whether the object of a V or A sentence is under
// ∃ (every-some, some-some, V2/A2 every, V3/A3 every), where a conjunct
// of its restrictor may be dropped; otherwise it is under ∀ and one may
// be added.
func objectUpward(s fragments.Sentence) bool {
	switch s.Quant {
	case fragments.EverySome, fragments.SomeSome, fragments.Every:
		return true
	}
	return false
}

// addAnaphor turns a V sentence with a universal object into the A
// sentence whose object also s's him (or does not).
func addAnaphor(rng *rand.Rand, s fragments.Sentence, verbs []string) (fragments.Sentence, bool) {
	var free []string
	for _, v := range verbs {
		if v != s.R {
			free = append(free, v)
		}
	}
	if len(free) == 0 {
		return fragments.Sentence{}, false
	}
	cl := []fragments.Clause{fragments.Who, fragments.WhoNot}[rng.IntN(2)]
	t := fragments.A.Own()[s.Template.Number()-1]
	return fragments.Sentence{Shape: fragments.Shape{Template: t, Quant: s.Quant, Clause: cl},
		O: s.P, P: s.Q, R: s.R, S: free[rng.IntN(len(free))]}, true
}

// dropAnaphor turns an A sentence with an existential object into its V
// sentence.
func dropAnaphor(s fragments.Sentence) fragments.Sentence {
	t := fragments.V.Own()[s.Template.Number()-1]
	return fragments.Sentence{Shape: fragments.Shape{Template: t, Quant: s.Quant}, P: s.O, Q: s.P, R: s.R}
}
