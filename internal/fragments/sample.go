package fragments

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/fol"
)

// Params are the sampler's knobs (the spec's "Sampling" section).
type Params struct {
	SamplerParams
	// Lexicon is the vocabulary to draw from; nil means Default().
	Lexicon *Lexicon
	// Exclude lists templates never drawn. Within a template group the
	// others are drawn uniformly; a group left without templates gives
	// its share to the other group.
	Exclude []Template
}

// SamplerParams are the sampler settings that are recorded beside what
// they produce (a region file, a dataset's plan), in this JSON form.
type SamplerParams struct {
	// OwnShare is the probability of drawing one of the fragment's own
	// three templates rather than an inherited one (ignored for S).
	OwnShare float64 `json:"own_share"`
	// NegProb is the probability of each optional negation.
	NegProb float64 `json:"neg_prob"`
	// Distinct makes the words within one sentence pairwise distinct.
	Distinct bool `json:"distinct"`
	// Equivalent allows two sentences of one instance to mean the same
	// ("Every p is a q" and "No non-q is a p"), as the paper's sampler
	// does; by default an instance is a set of m distinct propositions
	// (Sentence.Meaning). Left out of the JSON form when false.
	Equivalent bool `json:"equivalent,omitempty"`
}

// Params returns the sampler parameters with the built-in vocabulary and
// no excluded template.
func (s SamplerParams) Params() Params { return Params{SamplerParams: s} }

// WithLexicon returns the sampler parameters with vocabulary lx (nil: the
// built-in one) and no excluded template.
func (s SamplerParams) WithLexicon(lx *Lexicon) Params { return Params{SamplerParams: s, Lexicon: lx} }

// DefaultSampler returns the spec's defaults: own share 1/2, negation
// probability 1/2, distinct words.
func DefaultSampler() SamplerParams {
	return SamplerParams{OwnShare: 0.5, NegProb: 0.5, Distinct: true}
}

// DefaultParams returns DefaultSampler with the built-in vocabulary.
func DefaultParams() Params { return DefaultSampler().Params() }

func (p Params) lexicon() *Lexicon { return p.Lexicon.OrDefault() }

// Instance is one sampled problem: the words drawn for it and its set of
// distinct sentences in generation order.
type Instance struct {
	Fragment  Fragment   // the fragment sampled from
	Nouns     []string   // the n1 nouns drawn, in draw order
	Verbs     []string   // the n2 verbs drawn (base forms), in draw order
	Sentences []Sentence // the m distinct sentences, in generation order
	lex       *Lexicon   // the vocabulary for rendering; nil means Default()
}

func (in Instance) lexicon() *Lexicon { return in.lex.OrDefault() }

// English returns the rendering of each sentence, in order.
func (in Instance) English() []string {
	out := make([]string, len(in.Sentences))
	for i, s := range in.Sentences {
		out[i] = in.lexicon().English(s)
	}
	return out
}

// Text returns the sentences joined by single spaces.
func (in Instance) Text() string { return strings.Join(in.English(), " ") }

// IDs returns the template-and-variant id of each sentence, in order.
func (in Instance) IDs() []string {
	out := make([]string, len(in.Sentences))
	for i, s := range in.Sentences {
		out[i] = s.ID()
	}
	return out
}

// Formulas returns the formula of each sentence, in order.
func (in Instance) Formulas() []fol.Formula { return Formulas(in.Sentences) }

// Formulas returns the formula of each of sents, in order.
func Formulas(sents []Sentence) []fol.Formula {
	out := make([]fol.Formula, len(sents))
	for i, s := range sents {
		out[i] = s.Formula()
	}
	return out
}

// Sample draws an instance of fragment f with m distinct sentences over n1
// nouns and n2 verbs (Algorithm 1 of the paper; see the package
// documentation, # Sampling, for the exact order of random draws): unless
// p.Equivalent, no two of them with the same meaning. It returns
// Validate's error for impossible parameters, and an error if m distinct
// sentences are not found within 1000·m + 100000 draws.
func Sample(rng *rand.Rand, f Fragment, p Params, m, n1, n2 int) (Instance, error) {
	if err := Validate(f, p, m, n1, n2); err != nil {
		return Instance{}, err
	}
	lx := p.lexicon()
	in := Instance{Fragment: f, lex: lx}
	in.Nouns = drawFrom(rng, nounWords(lx), n1)
	in.Verbs = drawFrom(rng, verbWords(lx), n2)
	d := newDistinct(lx, p, m)
	for tries, limit := 0, 1000*m+100000; len(in.Sentences) < m; tries++ {
		if tries == limit {
			return Instance{}, fmt.Errorf("sampling fragment %s: found only %d of %d distinct sentences in %d draws",
				f, len(in.Sentences), m, limit)
		}
		s := drawSentence(rng, f, p, in.Nouns, in.Verbs)
		if d.add(s) {
			in.Sentences = append(in.Sentences, s)
		}
	}
	return in, nil
}

// distinct admits the sentences of an instance: none whose English was
// admitted before and, unless p.Equivalent, none that means what an
// admitted sentence means. With distinct words in every sentence, two
// sentences can only mean the same if they use the same words (every word
// matters to its sentence's truth), so Meaning is only computed where the
// words meet; with repeated words it is computed always.
type distinct struct {
	lx       *Lexicon
	p        Params
	english  map[string]bool
	meanings map[string]bool
	byWords  map[string][]*meant
}

// meant is an admitted sentence with its meaning, once computed.
type meant struct {
	s Sentence
	m string
}

func (x *meant) meaning() string {
	if x.m == "" {
		x.m = x.s.Meaning()
	}
	return x.m
}

func newDistinct(lx *Lexicon, p Params, m int) *distinct {
	return &distinct{lx: lx, p: p, english: make(map[string]bool, m), meanings: map[string]bool{}, byWords: map[string][]*meant{}}
}

func (d *distinct) add(s Sentence) bool {
	e := d.lx.English(s)
	if d.english[e] {
		return false
	}
	if !d.p.Equivalent {
		if !d.p.Distinct {
			k := s.Meaning()
			if d.meanings[k] {
				return false
			}
			d.meanings[k] = true
		} else {
			w, x := wordKey(s), &meant{s: s}
			for _, t := range d.byWords[w] {
				if t.meaning() == x.meaning() {
					return false
				}
			}
			d.byWords[w] = append(d.byWords[w], x)
		}
	}
	d.english[e] = true
	return true
}

// wordKey is the set of a sentence's words.
func wordKey(s Sentence) string {
	ws := append(s.Nouns(), s.Verbs()...)
	slices.Sort(ws)
	return strings.Join(slices.Compact(ws), " ")
}

func nounWords(lx *Lexicon) []string { return lx.nounWs }

func verbWords(lx *Lexicon) []string { return lx.verbWs }

// drawFrom returns k distinct words of ws in the order drawn: the first k
// steps of a Fisher–Yates shuffle of a copy.
func drawFrom(rng *rand.Rand, ws []string, k int) []string {
	pool := append([]string(nil), ws...)
	for i := 0; i < k; i++ {
		j := i + rng.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	return pool[:k:k]
}

// drawSentence draws one sentence: template group, template, variant,
// polarities in role order, nouns in role order, verbs in role order.
func drawSentence(rng *rand.Rand, f Fragment, p Params, nouns, verbs []string) Sentence {
	group := f.Own()
	if f != S && rng.Float64() >= p.OwnShare {
		group = f.Inherited()
	}
	if len(p.Exclude) > 0 {
		group = without(group, p.Exclude)
		if len(group) == 0 {
			group = without(f.Templates(), p.Exclude)
		}
	}
	t := group[rng.IntN(len(group))]
	shapes := shapesOf(t)
	s := Sentence{Shape: shapes[rng.IntN(len(shapes))]}
	l := layoutOf(t)
	for _, r := range l.neg {
		s.term(r).Neg = rng.Float64() < p.NegProb
	}
	ns := pick(rng, nouns, len(l.nouns), p.Distinct)
	for i, r := range l.nouns {
		s.term(r).Noun = ns[i]
	}
	vs := pick(rng, verbs, l.verbs, p.Distinct)
	if l.verbs > 0 {
		s.R = vs[0]
	}
	if l.verbs > 1 {
		s.S = vs[1]
	}
	return s
}

// without returns ts minus the templates of ex, in order.
func without(ts, ex []Template) []Template {
	return slices.DeleteFunc(slices.Clone(ts), func(t Template) bool { return slices.Contains(ex, t) })
}

// pick draws k words uniformly from ws, pairwise distinct (by rejection)
// when distinct is set; Validate guarantees len(ws) >= k then.
func pick(rng *rand.Rand, ws []string, k int, distinct bool) []string {
	out := make([]string, 0, k)
	for len(out) < k {
		w := ws[rng.IntN(len(ws))]
		if distinct && containsWord(out, w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func containsWord(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// DrawSentence draws one sentence of fragment f over the given words, as
// Sample draws each sentence of an instance (template group, template,
// variant, polarities, words), so that a sentence drawn alone follows the
// template distribution of an instance's sentences.
func DrawSentence(rng *rand.Rand, f Fragment, p Params, nouns, verbs []string) Sentence {
	return drawSentence(rng, f, p, nouns, verbs)
}
