package fragments

import "strings"

// English renders s with the built-in vocabulary's articles and verb
// forms; see Lexicon.English.
func (s Sentence) English() string { return Default().English(s) }

// English renders s by the spec's surface rules: a capitalised determiner,
// single spaces, a full stop, each noun's article from lx ("a" before a
// "non-" noun), third-person verb forms and "does not" with the base form.
// A word missing from lx gets its article and third-person form by the
// regular spelling rules (ArticleRule, ThirdRule).
func (lx *Lexicon) English(s Sentence) string {
	r := renderer{lx: lx}
	r.b.Grow(96)
	r.add(subjectDet(s))
	switch s.Fragment() {
	case S, W, Z:
		r.copular(s)
	case V, A:
		r.transitive(s)
	}
	r.b.WriteByte('.')
	return r.b.String()
}

// copular renders the rest of an S, W or Z sentence after the determiner.
func (r *renderer) copular(s Sentence) {
	switch s.Fragment() {
	case S:
		r.term(s.P)
	case W:
		r.term(s.O)
		r.add("who", "is")
		if s.P.Neg {
			r.add("not")
		}
		r.add(r.lx.article(s.P.Noun), s.P.Noun)
	case Z:
		r.term(s.O)
		r.add("who")
		r.relClause(s)
	}
	r.copula(s.Template.Number(), s.Q)
}

// transitive renders the rest of a V or A sentence after the determiner.
func (r *renderer) transitive(s Sentence) {
	subj, obj := s.P, s.Q
	if s.Fragment() == A {
		subj, obj = s.O, s.P
	}
	r.term(subj)
	r.verbPhrase(s.Template.Number(), s.R)
	r.add(objectDet(s))
	r.term(obj)
	switch s.Clause {
	case Who:
		r.add("who", r.lx.third(s.S), "him")
	case WhoNot:
		r.add("who", "does", "not", s.S, "him")
	}
}

// renderer writes words separated by single spaces.
type renderer struct {
	lx *Lexicon
	b  strings.Builder
}

func (r *renderer) add(ws ...string) {
	for _, w := range ws {
		if r.b.Len() > 0 {
			r.b.WriteByte(' ')
		}
		r.b.WriteString(w)
	}
}

// term writes a noun in a determiner position, with "non-" if negated.
func (r *renderer) term(t Term) {
	if t.Neg {
		r.add("non-")
		r.b.WriteString(t.Noun)
		return
	}
	r.add(t.Noun)
}

// copula renders "is (not) a q" closing the S, W and Z templates.
func (r *renderer) copula(n int, q Term) {
	r.add("is")
	if n == 3 && q.Neg {
		r.add("not")
	}
	r.add(r.lx.article(q.Noun), q.Noun)
}

// verbPhrase renders "r's" (templates 1 and 2) or "does not r" (3).
func (r *renderer) verbPhrase(n int, verb string) {
	if n == 3 {
		r.add("does", "not", verb)
		return
	}
	r.add(r.lx.third(verb))
}

func (r *renderer) relClause(s Sentence) {
	switch s.Clause {
	case RCSome:
		r.add(r.lx.third(s.R), "some")
	case RCEvery:
		r.add(r.lx.third(s.R), "every")
	case RCNotAny:
		r.add("does", "not", s.R, "any")
	case RCNotEvery:
		r.add("does", "not", s.R, "every")
	}
	r.term(s.P)
}

func subjectDet(s Sentence) string {
	switch {
	case s.Template.Number() == 2:
		return "No"
	case s.Template.Number() == 3, s.Quant == SomeEvery, s.Quant == SomeSome:
		return "Some"
	}
	return "Every"
}

func objectDet(s Sentence) string {
	switch s.Quant {
	case EverySome, SomeSome:
		return "some"
	case Any:
		return "any"
	}
	return "every"
}

func (lx *Lexicon) article(word string) string {
	if n, ok := lx.Noun(word); ok {
		return n.Article
	}
	return ArticleRule(word)
}

func (lx *Lexicon) third(base string) string {
	if v, ok := lx.Verb(base); ok {
		return v.Third
	}
	return ThirdRule(base)
}

// ArticleRule is the spelling rule for the indefinite article: "an" before
// a vowel letter, "a" otherwise. It is only a fallback; the vocabulary's
// articles go by sound and override it.
func ArticleRule(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// ThirdRule is the regular rule for the third person singular: "-es"
// after s, x, z, ch, sh and o; "-ies" for a consonant followed by y; "-s"
// otherwise. It is only a fallback; the vocabulary's forms override it.
func ThirdRule(base string) string {
	switch {
	case strings.HasSuffix(base, "ch"), strings.HasSuffix(base, "sh"),
		strings.HasSuffix(base, "s"), strings.HasSuffix(base, "x"),
		strings.HasSuffix(base, "z"), strings.HasSuffix(base, "o"):
		return base + "es"
	case len(base) > 1 && base[len(base)-1] == 'y' && !strings.ContainsRune("aeiou", rune(base[len(base)-2])):
		return base[:len(base)-1] + "ies"
	}
	return base + "s"
}
