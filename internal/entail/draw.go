package entail

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// Problem is one labelled entailment problem: the premises' instance (its
// words and sentences), the hypothesis, and the certified result.
type Problem struct {
	Premises   fragments.Instance
	Hypothesis fragments.Sentence
	Result     Result
}

// Drawer draws balanced triples of problems (see the package
// documentation, # Drawing).
type Drawer struct {
	Fragment fragments.Fragment
	Params   fragments.Params
	// SameShape makes the three hypotheses of a triple share their shape
	// and noun polarities (the default of New); without it each label
	// takes the first hypothesis drawn that has it, which lets a
	// hypothesis's template predict its label.
	SameShape bool
	// Tries bounds the hypotheses drawn per label and shape, and Shapes
	// the shapes tried per premise set, before the next is drawn.
	Tries, Shapes int
	// Bin, when set, sorts a hypothesis of the premises (read once for
	// every hypothesis) into one of maxBins bins, and a triple's three
	// hypotheses share their bin as they share their novelty. A build's
	// balance sets it (see balance.go).
	Bin func(premises *textfeat.Premises, hypothesis string) int
	// plain labels every candidate hypothesis with Decide, as the
	// drawer first did; tests compare it with the labeller's shortcuts.
	plain bool
}

// NewDrawer returns the drawer of New's defaults for fragment f.
func NewDrawer(f fragments.Fragment, p fragments.Params) *Drawer {
	return &Drawer{Fragment: f, Params: p, SameShape: true, Tries: 40, Shapes: 8}
}

// maxPremises bounds the premise sets drawn for one triple.
const maxPremises = 200

// ErrNoTriple is wrapped by Triple's error when no premise set of the
// stratum gave all three labels within the bounds.
var ErrNoTriple = errors.New("no balanced triple found")

// Triple returns three problems on one consistent premise set, one per
// label in MNLI's order. first is the premise set to start with;
// further ones, when it yields no triple, are drawn with rng at the same
// (m, n1, n2). Only the label of candidates is decided at first; the
// three kept ones are decided again with certified MUSes.
func (d *Drawer) Triple(ctx context.Context, b solver.Backend, rng *rand.Rand, first fragments.Instance) ([3]Problem, error) {
	in := first
	for k := 0; k < maxPremises; k++ {
		if k > 0 {
			var err error
			in, err = fragments.Sample(rng, d.Fragment, d.Params, len(first.Sentences), len(first.Nouns), len(first.Verbs))
			if err != nil {
				return [3]Problem{}, err
			}
		}
		hyps, err := d.hypotheses(ctx, b, rng, in)
		switch {
		case errors.Is(err, ErrInconsistent) || errors.Is(err, ErrNoTriple):
			continue
		case err != nil:
			return [3]Problem{}, err
		}
		var out [3]Problem
		for i, h := range hyps {
			r, err := Decide(ctx, b, in.Sentences, h, true)
			switch {
			case err != nil:
				return out, err
			case !r.Decided || r.Label != Label(i):
				return out, fmt.Errorf("%q: decided %v with certificates, %v without", h.English(), r.Label, Label(i))
			}
			out[i] = Problem{Premises: in, Hypothesis: h, Result: r}
		}
		return out, nil
	}
	return [3]Problem{}, fmt.Errorf("%w in %d premise sets of %d sentences, %d nouns, %d verbs",
		ErrNoTriple, maxPremises, len(first.Sentences), len(first.Nouns), len(first.Verbs))
}

// hypotheses finds one hypothesis per label for premises in, or returns
// ErrNoTriple (or ErrInconsistent for inconsistent premises).
func (d *Drawer) hypotheses(ctx context.Context, b solver.Backend, rng *rand.Rand, in fragments.Instance) ([3]fragments.Sentence, error) {
	banned := map[string]bool{}
	for _, s := range in.Sentences {
		banned[s.Meaning()], banned[s.Negation().Meaning()] = true, true
	}
	l := newLabeller(b, in.Sentences, d.plain)
	shapes := d.Shapes
	if !d.SameShape {
		shapes = 1
	}
	english := in.English()
	premises := textfeat.NewGrams(strings.Join(english, " "))
	var pp *textfeat.Premises
	if d.Bin != nil {
		pp = textfeat.NewPremises(english)
	}
	lx := d.Params.Lexicon.OrDefault()
	for range shapes {
		key := fragments.DrawSentence(rng, d.Fragment, d.Params, in.Nouns, in.Verbs)
		// hyps[k] holds, per label, the first hypothesis of novelty
		// k / maxBins and bin k mod maxBins.
		var hyps [(maxNovel + 1) * maxBins][3]fragments.Sentence
		var found [(maxNovel + 1) * maxBins]int
		// A hypothesis drawn again for this shape changes nothing: its
		// meaning, label and bin are what they were, and its slot is
		// filled (by it or by one of its label before it).
		seen := map[fragments.Sentence]bool{}
		for try := 0; try < d.Tries*3; try++ {
			h := key
			if d.SameShape {
				h = reword(rng, key, in.Nouns, in.Verbs, d.Params.Distinct)
			} else if try > 0 {
				h = fragments.DrawSentence(rng, d.Fragment, d.Params, in.Nouns, in.Verbs)
			}
			if seen[h] {
				continue
			}
			seen[h] = true
			key := h.Meaning()
			if banned[key] {
				continue
			}
			k := 0
			if d.SameShape {
				text := lx.English(h)
				k = novelty(premises, text) * maxBins
				if d.Bin != nil {
					k += d.Bin(pp, text)
				}
			}
			// Only a label slot k still lacks changes anything, and
			// labelFor decides no more than it takes to tell that.
			var open [3]bool
			for lab, taken := range hyps[k] {
				open[lab] = taken == (fragments.Sentence{})
			}
			lab, ok, err := l.labelFor(ctx, h, key, open)
			switch {
			case err != nil:
				return [3]fragments.Sentence{}, err
			case !ok:
				return [3]fragments.Sentence{}, fmt.Errorf("%q: %w", h.English(), solver.ErrUndecided)
			}
			if lab != noLabel && open[lab] {
				hyps[k][lab] = h
				if found[k]++; found[k] == 3 {
					return hyps[k], nil
				}
			}
		}
	}
	return [3]fragments.Sentence{}, ErrNoTriple
}

// maxBins bounds the bins of Drawer.Bin.
const maxBins = numBins

// maxNovel caps the novelty that hypotheses of a triple must share.
const maxNovel = 3

// novelty is the number of the hypothesis's unigrams and bigrams (the
// audit's h-overlap tokens) that the premises do not hold, capped at
// maxNovel. A triple's hypotheses share it: an entailed hypothesis
// tends to restate the premises, and without the match its overlap
// with them tells entailment from neutral (textfeat.Grams.Overlap).
func novelty(premises textfeat.Grams, hypothesis string) int {
	shared, grams := premises.Overlap(hypothesis)
	return min(grams-shared, maxNovel)
}

// reword returns key's shape and noun polarities with its words drawn
// afresh, uniformly from nouns and verbs (pairwise distinct within the
// sentence when distinct is set), in the role order O, P, Q, R, S.
func reword(rng *rand.Rand, key fragments.Sentence, nouns, verbs []string, distinct bool) fragments.Sentence {
	var used []string
	draw := func(ws []string) string {
		for {
			w := ws[rng.IntN(len(ws))]
			if !distinct || !slices.Contains(used, w) {
				used = append(used, w)
				return w
			}
		}
	}
	s := key
	for _, t := range []*fragments.Term{&s.O, &s.P, &s.Q} {
		if t.Noun != "" {
			t.Noun = draw(nouns)
		}
	}
	used = nil
	for _, v := range []*string{&s.R, &s.S} {
		if *v != "" {
			*v = draw(verbs)
		}
	}
	return s
}
