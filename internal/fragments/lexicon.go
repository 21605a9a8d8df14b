package fragments

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Noun is a profession noun with its indefinite article, "a" or "an". The
// negated form "non-<word>" always takes "a".
type Noun struct {
	Word, Article string
}

// Verb is a transitive verb with its base and third-person-singular forms.
type Verb struct {
	Base, Third string
}

// Lexicon is a vocabulary the renderer, parser and sampler work with. Its
// noun and verb lists keep their order, which the sampler relies on for
// determinism.
type Lexicon struct {
	nouns   []Noun
	verbs   []Verb
	nounWs  []string // the nouns' words, in order
	verbWs  []string // the verbs' base forms, in order
	noun    map[string]int
	byBase  map[string]int
	byThird map[string]int
}

// reserved lists the words that may not be nouns or verbs: the function
// words of the grammar and words reserved in SMT-LIB or TPTP (predicate
// names are the words themselves).
var reserved = []string{
	"a", "an", "any", "does", "every", "him", "is", "no", "non", "not", "some", "them", "who",
	"and", "as", "assert", "distinct", "exists", "false", "forall", "ite", "let", "match",
	"or", "par", "true", "xor", "axiom", "cnf", "conjecture", "fof", "include", "tff", "thf", "type",
}

// IsReserved reports whether w is a function word of the grammar or a
// reserved word of SMT-LIB or TPTP, and so cannot be a noun or verb.
func IsReserved(w string) bool { return slices.Contains(reserved, w) }

// NewLexicon checks nouns and verbs and builds a lexicon from them. Every
// word must be a single lower-case token of letters, not reserved, and
// used once: no duplicate, and no word both a noun and a verb (base or
// third person), since a predicate name has one arity. Articles must be
// "a" or "an"; the third-person form of a verb differs from its base.
func NewLexicon(nouns []Noun, verbs []Verb) (*Lexicon, error) {
	lx := &Lexicon{
		nouns: slices.Clone(nouns), verbs: slices.Clone(verbs),
		noun: map[string]int{}, byBase: map[string]int{}, byThird: map[string]int{},
	}
	seen := map[string]string{}
	var errs []error
	claim := func(w, what string) {
		if err := checkWord(w); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
		} else if prev, dup := seen[w]; dup {
			errs = append(errs, fmt.Errorf("%s %q is also a %s", what, w, prev))
		}
		seen[w] = what
	}
	for i, n := range nouns {
		claim(n.Word, "noun")
		if n.Article != "a" && n.Article != "an" {
			errs = append(errs, fmt.Errorf("noun %q: article %q is not a or an", n.Word, n.Article))
		}
		lx.noun[n.Word] = i
		lx.nounWs = append(lx.nounWs, n.Word)
	}
	for i, v := range verbs {
		claim(v.Base, "verb")
		if v.Third != v.Base {
			claim(v.Third, "verb form")
		} else {
			errs = append(errs, fmt.Errorf("verb %q: third person equals the base form", v.Base))
		}
		lx.byBase[v.Base], lx.byThird[v.Third] = i, i
		lx.verbWs = append(lx.verbWs, v.Base)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("invalid lexicon: %w", err)
	}
	return lx, nil
}

func checkWord(w string) error {
	if w == "" {
		return errors.New("empty word")
	}
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return fmt.Errorf("word %q is not lower-case letters only", w)
		}
	}
	if IsReserved(w) {
		return fmt.Errorf("word %q is reserved", w)
	}
	return nil
}

var defaultLexicon = sync.OnceValue(func() *Lexicon {
	lx, err := NewLexicon(nounList, verbList)
	if err != nil {
		panic(err) // the built-in lists are checked by the tests
	}
	return lx
})

// Default returns the built-in vocabulary (Nouns and Verbs).
func Default() *Lexicon { return defaultLexicon() }

// OrDefault returns lx, or the built-in vocabulary when lx is nil.
func (lx *Lexicon) OrDefault() *Lexicon {
	if lx == nil {
		return Default()
	}
	return lx
}

// Nouns returns a copy of the built-in profession nouns, in alphabetical
// order.
func Nouns() []Noun { return slices.Clone(nounList) }

// Verbs returns a copy of the built-in transitive verbs, in alphabetical
// order.
func Verbs() []Verb { return slices.Clone(verbList) }

// Nouns returns a copy of the lexicon's nouns, in its order.
func (lx *Lexicon) Nouns() []Noun { return slices.Clone(lx.nouns) }

// Verbs returns a copy of the lexicon's verbs, in its order.
func (lx *Lexicon) Verbs() []Verb { return slices.Clone(lx.verbs) }

// Noun looks a noun up by its word.
func (lx *Lexicon) Noun(word string) (Noun, bool) {
	i, ok := lx.noun[word]
	if !ok {
		return Noun{}, false
	}
	return lx.nouns[i], true
}

// Verb looks a verb up by its base form.
func (lx *Lexicon) Verb(base string) (Verb, bool) {
	i, ok := lx.byBase[base]
	if !ok {
		return Verb{}, false
	}
	return lx.verbs[i], true
}

// VerbByThird looks a verb up by its third-person-singular form.
func (lx *Lexicon) VerbByThird(third string) (Verb, bool) {
	i, ok := lx.byThird[third]
	if !ok {
		return Verb{}, false
	}
	return lx.verbs[i], true
}

// LookupNoun looks a noun up in the built-in vocabulary.
func LookupNoun(word string) (Noun, bool) { return Default().Noun(word) }

// LookupVerb looks a verb up by its base form in the built-in vocabulary.
func LookupVerb(base string) (Verb, bool) { return Default().Verb(base) }
