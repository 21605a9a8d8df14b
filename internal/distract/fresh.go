package distract

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// freshTries bounds the draws of a distractor set in Fresh mode.
const freshTries = 200

// fresh draws k distinct sentences of inst's fragment over fresh words
// whose set alone is satisfiable (decided by b, model checked).
func fresh(ctx context.Context, rng *rand.Rand, b solver.Backend, inst fragments.Instance, k int, p fragments.Params) ([]fragments.Sentence, error) {
	if k == 0 {
		return nil, nil
	}
	f, lx := inst.Fragment, p.Lexicon
	n1, n2, err := freshSize(f, p, k)
	if err != nil {
		return nil, err
	}
	usedN, usedV := instanceWords(inst)
	freeN := without(wordsOf(lx.Nouns(), func(n fragments.Noun) string { return n.Word }), usedN)
	freeV := without(wordsOf(lx.Verbs(), func(v fragments.Verb) string { return v.Base }), usedV)
	if n1 > len(freeN) || n2 > len(freeV) {
		return nil, fmt.Errorf("fresh distractors need %d nouns and %d verbs outside the instance, the lexicon has %d and %d: %w",
			n1, n2, len(freeN), len(freeV), ErrNoDistractor)
	}
	sub, err := subLexicon(lx, drawFrom(rng, freeN, n1), drawFrom(rng, freeV, n2))
	if err != nil {
		return nil, err
	}
	q := p
	q.Lexicon = sub
	for range freshTries {
		d, err := fragments.Sample(rng, f, q, k, n1, n2)
		if err != nil {
			return nil, fmt.Errorf("sampling fresh distractors: %w", err)
		}
		v, err := decide(ctx, b, d.Formulas())
		if err != nil {
			return nil, fmt.Errorf("deciding fresh distractors: %w", err)
		}
		if v.Status == solver.Sat {
			return d.Sentences, nil
		}
	}
	return nil, fmt.Errorf("no satisfiable set of %d fresh sentences in %d draws: %w", k, freshTries, ErrNoDistractor)
}

// freshSize returns the numbers of fresh nouns and verbs for k
// distractors: the fewest the fragment's templates need under p, plus
// (k-1)/2 of each kind the fragment uses, raised until k distinct
// sentences exist.
func freshSize(f fragments.Fragment, p fragments.Params, k int) (n1, n2 int, err error) {
	n1, n2, err = minWords(f, p)
	if err != nil {
		return 0, 0, err
	}
	n1 += (k - 1) / 2
	if n2 > 0 {
		n2 += (k - 1) / 2
	}
	for fragments.CountSentences(f, p, n1, n2) < k && n1 < len(p.Lexicon.Nouns()) {
		n1++
	}
	return n1, n2, nil
}

// minWords returns the fewest nouns and verbs with which the sampler can
// draw a sentence of f under p (Validate is the authority).
func minWords(f fragments.Fragment, p fragments.Params) (int, int, error) {
	var last error
	for n1 := 1; n1 <= 3; n1++ {
		for n2 := 0; n2 <= 2; n2++ {
			if last = fragments.Validate(f, p, 1, n1, n2); last == nil {
				return n1, n2, nil
			}
		}
	}
	return 0, 0, fmt.Errorf("fresh distractors: %w", last)
}

func wordsOf[T any](xs []T, word func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = word(x)
	}
	return out
}
