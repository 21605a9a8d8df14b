package fragments

import (
	"errors"
	"fmt"
)

// Term is a noun in one role of a sentence with its polarity: Neg is the
// ± of the spec, written "non-" before the noun or "not" after "is".
type Term struct {
	Noun string
	Neg  bool
}

// Sentence fully describes one sentence of the fragments. Its roles are
// named by the spec's letters: nouns O, P and Q and verbs R and S (base
// forms). The roles a template uses:
//
//	S1–S3  P, Q        V1–V3  P, Q, R
//	W1–W3  O, P, Q     Z1–Z3  O, P, Q, R
//	A1–A3  O, P, R, S
//
// Unused roles are zero. A polarity that the template fixes (the Q of S1,
// S2, W1, W2, Z1 and Z2) is false. Check reports violations.
type Sentence struct {
	Shape
	O, P, Q Term
	R, S    string
}

// role names a noun slot of a sentence.
type role int8

const (
	roleO role = iota
	roleP
	roleQ
)

// layout says which roles a template uses and which noun polarities are
// free (drawn, and variable in the English) rather than fixed positive.
type layout struct {
	nouns []role
	verbs int
	neg   []role
}

func layoutOf(t Template) layout {
	f, n := t.Fragment(), t.Number()
	switch f {
	case S:
		if n == 3 {
			return layout{nouns: []role{roleP, roleQ}, neg: []role{roleP, roleQ}}
		}
		return layout{nouns: []role{roleP, roleQ}, neg: []role{roleP}}
	case W, Z:
		l := layout{nouns: []role{roleO, roleP, roleQ}, neg: []role{roleO, roleP}}
		if f == Z {
			l.verbs = 1
		}
		if n == 3 {
			l.neg = append(l.neg, roleQ)
		}
		return l
	case V:
		return layout{nouns: []role{roleP, roleQ}, verbs: 1, neg: []role{roleP, roleQ}}
	case A:
		return layout{nouns: []role{roleO, roleP}, verbs: 2, neg: []role{roleO, roleP}}
	}
	return layout{}
}

func (s *Sentence) term(r role) *Term {
	switch r {
	case roleO:
		return &s.O
	case roleP:
		return &s.P
	}
	return &s.Q
}

// Fragment returns the smallest fragment containing s.
func (s Sentence) Fragment() Fragment { return s.Template.Fragment() }

// Nouns returns the nouns of s in role order O, P, Q (unused roles left
// out), without their polarities.
func (s Sentence) Nouns() []string {
	var ws []string
	for _, r := range layoutOf(s.Template).nouns {
		ws = append(ws, s.term(r).Noun)
	}
	return ws
}

// Verbs returns the verbs of s (base forms) in role order R, S.
func (s Sentence) Verbs() []string {
	return []string{s.R, s.S}[:layoutOf(s.Template).verbs]
}

// Check reports whether s is well formed: a valid shape, every role its
// template uses filled, every other role zero, and no polarity set that the
// template fixes. It does not look words up in a vocabulary.
func (s Sentence) Check() error {
	if !s.Shape.Valid() {
		return fmt.Errorf("invalid shape %+v", s.Shape)
	}
	l := layoutOf(s.Template)
	var errs []error
	for _, r := range []role{roleO, roleP, roleQ} {
		t := s.term(r)
		used, free := hasRole(l.nouns, r), hasRole(l.neg, r)
		switch {
		case used && t.Noun == "":
			errs = append(errs, fmt.Errorf("%s: noun %s is empty", s.ID(), r))
		case !used && t.Noun != "":
			errs = append(errs, fmt.Errorf("%s: noun %s is not used by the template", s.ID(), r))
		}
		if t.Neg && !free {
			errs = append(errs, fmt.Errorf("%s: noun %s cannot be negated", s.ID(), r))
		}
	}
	for i, v := range []string{s.R, s.S} {
		if (i < l.verbs) != (v != "") {
			errs = append(errs, fmt.Errorf("%s: verb %c is filled wrongly: %q", s.ID(), "RS"[i], v))
		}
	}
	return errors.Join(errs...)
}

func (r role) String() string { return string("OPQ"[r]) }

func hasRole(rs []role, r role) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}
