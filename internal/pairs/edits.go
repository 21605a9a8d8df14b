package pairs

import (
	"fmt"

	"github.com/nlsat/nlsat/internal/fragments"
)

// Kind is a kind of one-sentence edit. The kinds are tried in the order
// Kinds lists them.
type Kind string

// The edit kinds, in the order they are tried (see the package
// documentation, # Edits).
const (
	// Negation adds or drops exactly one negation word: "non-" before a
	// noun, "not" after "is", or "does not" in A's anaphoric clause.
	Negation Kind = "negation"
	// Quantifier swaps one quantifier ∀ ↔ ∃ and keeps its scope: every ↔
	// some (and, under a negation, any ↔ every; No ↔ Some … not).
	Quantifier Kind = "quantifier"
	// Predicate flips the polarity of the predicate a determiner's scope
	// ends in, where that takes more than a negation word: Every ↔ No,
	// r's ↔ does not r with the object determiner that keeps the
	// quantifier, and Z's clause verb likewise.
	Predicate Kind = "predicate-negation"
)

// Kinds returns the edit kinds in the order they are tried.
func Kinds() []Kind { return []Kind{Negation, Quantifier, Predicate} }

// Roles an edit can apply to: the noun and verb letters of
// docs/fragments.md for
// polarity edits, the subject's (x) and the object's or relative clause's
// (y) quantifier for quantifier swaps.
const (
	RoleO       = "O"
	RoleP       = "P"
	RoleQ       = "Q"
	RoleR       = "R"
	RoleS       = "S"
	RoleSubject = "subject"
	RoleObject  = "object"
)

// Candidate is one edit of one sentence: its kind, the role it changes
// and the sentence it gives.
type Candidate struct {
	Kind Kind
	Role string
	To   fragments.Sentence
}

// Candidates returns the edits of s in the fixed order: by kind (Kinds),
// then by role (O, P, Q, R, S for polarity edits; subject, object for
// quantifier swaps). Every candidate is a well-formed sentence (Check) of
// the same fragment as s whose English differs from s's and from the
// earlier candidates'; an edit that would give a sentence outside the
// grammar, such as a negation the template fixes, is not listed.
func Candidates(s fragments.Sentence) []Candidate {
	var out []Candidate
	seen := map[string]bool{s.English(): true}
	add := func(k Kind, role string, to fragments.Sentence, ok bool) {
		if !ok || to.Check() != nil || to.Fragment() != s.Fragment() {
			return
		}
		if e := to.English(); !seen[e] {
			seen[e] = true
			out = append(out, Candidate{Kind: k, Role: role, To: to})
		}
	}
	for _, r := range []string{RoleO, RoleP, RoleQ} {
		to, ok := flipNoun(s, r)
		add(Negation, r, to, ok)
	}
	to, ok := flipAnaphor(s)
	add(Negation, RoleS, to, ok)
	to, ok = swapSubject(s)
	add(Quantifier, RoleSubject, to, ok)
	to, ok = swapObject(s)
	add(Quantifier, RoleObject, to, ok)
	for _, r := range []string{RoleQ, RoleR} {
		to, ok := flipPredicate(s, r)
		add(Predicate, r, to, ok)
	}
	return out
}

// Edit is a candidate placed in an instance: Sentence indexes the
// instance's sentences, From is the sentence it replaces.
type Edit struct {
	Sentence int
	Kind     Kind
	Role     string
	From, To fragments.Sentence
}

// Edits returns the admissible edits of an instance in the fixed order:
// by sentence index, then by kind, then by role. An edit is admissible if
// its sentence renders to English that lx parses back to the same
// sentence, lies in fragment frag, and is not already a sentence of the
// instance (an instance is a set).
func Edits(lx *fragments.Lexicon, sents []fragments.Sentence, frag fragments.Fragment) []Edit {
	have := make(map[string]bool, len(sents))
	for _, s := range sents {
		have[lx.English(s)] = true
	}
	var out []Edit
	for i, s := range sents {
		for _, c := range Candidates(s) {
			if admissible(lx, c.To, frag, have) != nil {
				continue
			}
			out = append(out, Edit{Sentence: i, Kind: c.Kind, Role: c.Role, From: s, To: c.To})
		}
	}
	return out
}

// admissible reports why an edited sentence cannot replace one of an
// instance, or nil.
func admissible(lx *fragments.Lexicon, to fragments.Sentence, frag fragments.Fragment, have map[string]bool) error {
	e := lx.English(to)
	back, err := lx.Parse(e)
	switch {
	case err != nil:
		return err
	case back != to:
		return fmt.Errorf("%q parses back as %s, not %s", e, back.ID(), to.ID())
	case to.Fragment() > frag:
		return fmt.Errorf("%q is in fragment %s, not in %s", e, to.Fragment(), frag)
	case have[e]:
		return fmt.Errorf("%q is already in the instance", e)
	}
	return nil
}

func flipNoun(s fragments.Sentence, role string) (fragments.Sentence, bool) {
	t := map[string]*fragments.Term{RoleO: &s.O, RoleP: &s.P, RoleQ: &s.Q}[role]
	if t.Noun == "" {
		return s, false
	}
	t.Neg = !t.Neg
	return s, true // Candidates drops polarities the template fixes (Check)
}

func flipAnaphor(s fragments.Sentence) (fragments.Sentence, bool) {
	switch s.Clause {
	case fragments.Who:
		s.Clause = fragments.WhoNot
	case fragments.WhoNot:
		s.Clause = fragments.Who
	default:
		return s, false
	}
	return s, true
}

func swapSubject(s fragments.Sentence) (fragments.Sentence, bool) {
	l := logicOf(s)
	l.subjUniv = !l.subjUniv
	return l.apply(s), true
}

func swapObject(s fragments.Sentence) (fragments.Sentence, bool) {
	l := logicOf(s)
	if !l.hasObj {
		return s, false
	}
	l.objUniv = !l.objUniv
	return l.apply(s), true
}

func flipPredicate(s fragments.Sentence, role string) (fragments.Sentence, bool) {
	l := logicOf(s)
	switch f := s.Fragment(); {
	case role == RoleQ && f != fragments.V && f != fragments.A:
		l.predPos = !l.predPos // S, W, Z: the copula's q
	case role == RoleR && (f == fragments.V || f == fragments.A):
		l.predPos = !l.predPos // V, A: the main verb
	case role == RoleR && f == fragments.Z:
		l.objPos = !l.objPos // Z: the relative clause's verb
	default:
		return s, false
	}
	return l.apply(s), true
}
