package textfeat

// Grams is the set of a text's unigrams and bigrams of Tokens
// (lower-cased words, non- and the full stop): the premises' side of the
// audit's h-overlap.
type Grams map[string]bool

// NewGrams returns the unigrams and bigrams of text.
func NewGrams(text string) Grams {
	g := Grams{}
	prev := ""
	Tokens(text, func(tok []byte) {
		w := string(tok)
		g[w], g[prev+" "+w] = true, true
		prev = w
	})
	return g
}

// Overlap returns how many of the hypothesis's unigrams and bigrams are
// in g, and how many it has: the audit's h-overlap is shared / grams.
func (g Grams) Overlap(hypothesis string) (shared, grams int) {
	return g.OverlapEach(hypothesis, nil)
}

// OverlapEach is Overlap, calling each (if not nil) with every token of
// the hypothesis in turn.
func (g Grams) OverlapEach(hypothesis string, each func(w string)) (shared, grams int) {
	prev := ""
	Tokens(hypothesis, func(tok []byte) {
		w := string(tok)
		if each != nil {
			each(w)
		}
		for _, gram := range []string{w, prev + " " + w} {
			if gram[0] != ' ' {
				grams++
				if g[gram] {
					shared++
				}
			}
		}
		prev = w
	})
	return shared, grams
}
