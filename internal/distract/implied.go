package distract

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// impliedTries bounds the candidate draws per distractor in Implied mode.
const impliedTries = 400

// implied draws k distinct sentences of inst's fragment over its words,
// none already in it, each entailed by the premises: all of inst if it is
// sat, else a maximal satisfiable subset (greedy, in sentence order). It
// returns them with the premises' indices into inst.Sentences.
//
// A candidate is, three times in four, derived from a random premise
// (derive), and otherwise drawn by the sampler over the instance's words;
// one false in the premises' checked model is rejected without solving.
func implied(ctx context.Context, rng *rand.Rand, b solver.Backend, inst fragments.Instance, k int, p fragments.Params, label solver.Verdict) ([]fragments.Sentence, []int, error) {
	premises, model, err := satisfiableSubset(ctx, b, inst, label)
	if err != nil || k == 0 {
		return nil, premises, err
	}
	base := make([]fol.Formula, 0, len(premises)+1)
	for _, i := range premises {
		base = append(base, inst.Sentences[i].Formula())
	}
	nouns, verbs := instanceWords(inst)
	q := p
	if q.Lexicon, err = subLexicon(p.Lexicon, nouns, verbs); err != nil {
		return nil, nil, err
	}
	tried := map[string]bool{}
	for _, e := range inst.English() {
		tried[e] = true
	}
	var ds []fragments.Sentence
	for draws := 0; len(ds) < k; draws++ {
		if draws == impliedTries*k {
			return nil, nil, fmt.Errorf("found %d of %d entailed sentences in %d draws: %w", len(ds), k, draws, ErrNoDistractor)
		}
		s, err := candidate(rng, inst, premises, q, nouns, verbs)
		if err != nil {
			return nil, nil, err
		}
		e := p.Lexicon.English(s)
		if tried[e] {
			continue
		}
		tried[e] = true
		if ok, err := fol.Eval(s.Formula(), model); err != nil || !ok {
			continue // false in a model of the premises: not entailed
		}
		ok, err := entails(ctx, b, base, s)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			ds = append(ds, s)
		}
	}
	return ds, premises, nil
}

// candidate proposes one sentence for implied: derived from a random
// premise three times in four (when a rule applies), else sampled with q.
func candidate(rng *rand.Rand, inst fragments.Instance, premises []int, q fragments.Params, nouns, verbs []string) (fragments.Sentence, error) {
	if len(premises) > 0 && rng.IntN(4) != 0 {
		s := inst.Sentences[premises[rng.IntN(len(premises))]]
		if d, ok := derive(rng, s, inst.Fragment, nouns, verbs); ok {
			return d, nil
		}
	}
	c, err := fragments.Sample(rng, inst.Fragment, q, 1, len(nouns), len(verbs))
	if err != nil {
		return fragments.Sentence{}, fmt.Errorf("sampling implied distractors: %w", err)
	}
	return c.Sentences[0], nil
}

// entails reports whether base ⊨ s, that is, whether base ∪ {¬s} is
// unsatisfiable; ¬s is the fragment sentence Negate(s). An Unknown answer
// counts as not entailed.
func entails(ctx context.Context, b solver.Backend, base []fol.Formula, s fragments.Sentence) (bool, error) {
	v, err := decide(ctx, b, append(base[:len(base):len(base)], Negate(s).Formula()))
	switch {
	case errors.Is(err, solver.ErrUndecided):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("entailment of a %s sentence: %w", s.ID(), err)
	}
	return v.Status == solver.Unsat, nil
}

// satisfiableSubset returns the indices of all sentences when label is
// Sat, and otherwise of a maximal satisfiable subset built greedily in
// sentence order (a sentence joins when the set stays Sat with a checked
// model; an Unknown answer leaves it out), with a checked model of it.
func satisfiableSubset(ctx context.Context, b solver.Backend, inst fragments.Instance, label solver.Verdict) ([]int, *fol.Structure, error) {
	var idx []int
	if label.Status == solver.Sat {
		for i := range inst.Sentences {
			idx = append(idx, i)
		}
		return idx, label.Model, nil
	}
	var fs []fol.Formula
	var model *fol.Structure
	for i, s := range inst.Sentences {
		try := append(fs[:len(fs):len(fs)], s.Formula())
		v, err := decide(ctx, b, try)
		switch {
		case errors.Is(err, solver.ErrUndecided):
			continue
		case err != nil:
			return nil, nil, fmt.Errorf("satisfiable subset: %w", err)
		}
		if v.Status == solver.Sat {
			fs, idx, model = try, append(idx, i), v.Model
		}
	}
	if model == nil {
		return nil, nil, fmt.Errorf("no sentence of the instance is satisfiable on its own: %w", ErrNoDistractor)
	}
	return idx, model, nil
}

// Negate returns the sentence of the same fragment whose formula is
// equivalent to the negation of s's: every fragment's three templates are
// closed under negation (docs/fragments.md fixes the readings that
// make them so). Words, noun polarities other than the copula's, and the
// relative-clause variant are kept:
//
//	Every … is a q        ↔  Some … is not a q
//	No … is a q           ↔  Some … is a q
//	Every p r's every q   ↔  Some p does not r every q
//	Every p r's some q    ↔  Some p does not r any q
//	Some p r's every q    ↔  No p r's every q
//	Some p r's some q     ↔  No p r's any q
//
// and likewise for W, Z (relative clause kept) and A (anaphoric clause
// kept). It assumes s passes Check.
func Negate(s fragments.Sentence) fragments.Sentence {
	own := s.Fragment().Own()
	switch s.Fragment() {
	case fragments.V, fragments.A:
		s.Template, s.Quant = negQuant(s.Template.Number(), s.Quant, own)
		return s
	}
	switch {
	case s.Template.Number() == 1:
		s.Template, s.Q.Neg = own[2], true
	case s.Template.Number() == 2:
		s.Template, s.Q.Neg = own[2], false
	case s.Q.Neg:
		s.Template, s.Q.Neg = own[0], false
	default:
		s.Template = own[1]
	}
	return s
}

// negQuant maps a V or A template number and quantifier variant to those
// of the negation: ¬∀∀r = ∃∃¬r, ¬∀∃r = ∃∀¬r, ¬∃∀r = ∀∃¬r, ¬∃∃r = ∀∀¬r.
func negQuant(n int, q fragments.Quant, own []fragments.Template) (fragments.Template, fragments.Quant) {
	switch {
	case n == 1 && q == fragments.EveryEvery:
		return own[2], fragments.Every
	case n == 1 && q == fragments.EverySome:
		return own[2], fragments.Any
	case n == 1 && q == fragments.SomeEvery:
		return own[1], fragments.Every
	case n == 1:
		return own[1], fragments.Any
	case n == 2 && q == fragments.Any:
		return own[0], fragments.SomeSome
	case n == 2:
		return own[0], fragments.SomeEvery
	case q == fragments.Any:
		return own[0], fragments.EverySome
	}
	return own[0], fragments.EveryEvery
}
