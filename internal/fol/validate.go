package fol

import (
	"fmt"
	"slices"
)

// IsIdent reports whether s is a well-formed predicate or variable name of
// the toolkit's syntax: a lower-case letter followed by lower-case letters,
// digits and underscores, and not one of the keywords "forall" and
// "exists".
func IsIdent(s string) bool {
	if s == "" || s == "forall" || s == "exists" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
		case i > 0 && (c >= '0' && c <= '9' || c == '_'):
		default:
			return false
		}
	}
	return true
}

// Validate reports the first way in which f is not a well-formed tree: a
// nil node, a conjunction or disjunction with fewer than two operands, an
// atom without arguments, or a predicate or variable name that IsIdent
// rejects. Every printer checks its input with Validate, so that what it
// writes can be read back.
func Validate(f Formula) error {
	switch g := f.(type) {
	case nil:
		return fmt.Errorf("nil formula")
	case *Atom:
		return validateAtom(g)
	case *Not:
		if g == nil {
			return fmt.Errorf("nil negation")
		}
		return Validate(g.F)
	case *And:
		if g == nil {
			return fmt.Errorf("nil conjunction")
		}
		return validateNary(g.Fs, "conjunction")
	case *Or:
		if g == nil {
			return fmt.Errorf("nil disjunction")
		}
		return validateNary(g.Fs, "disjunction")
	case *Implies:
		if g == nil {
			return fmt.Errorf("nil implication")
		}
		if err := Validate(g.L); err != nil {
			return err
		}
		return Validate(g.R)
	case *Forall:
		if g == nil {
			return fmt.Errorf("nil quantifier")
		}
		return validateQuant(g.V, g.Body)
	case *Exists:
		if g == nil {
			return fmt.Errorf("nil quantifier")
		}
		return validateQuant(g.V, g.Body)
	}
	return fmt.Errorf("unknown formula node %T", f)
}

func validateAtom(a *Atom) error {
	switch {
	case a == nil:
		return fmt.Errorf("nil atom")
	case !IsIdent(a.Pred):
		return fmt.Errorf("invalid predicate name %q", a.Pred)
	case len(a.Args) == 0:
		return fmt.Errorf("atom %s has no arguments", a.Pred)
	}
	for _, v := range a.Args {
		if !IsIdent(string(v)) {
			return fmt.Errorf("invalid variable name %q in %s(…)", v, a.Pred)
		}
	}
	return nil
}

func validateNary(fs []Formula, what string) error {
	if len(fs) < 2 {
		return fmt.Errorf("%s with %d operands; it needs at least 2", what, len(fs))
	}
	for _, f := range fs {
		if err := Validate(f); err != nil {
			return err
		}
	}
	return nil
}

func validateQuant(v Var, body Formula) error {
	if !IsIdent(string(v)) {
		return fmt.Errorf("invalid bound variable name %q", v)
	}
	return Validate(body)
}

// FreeVars returns the variables that occur free in f, sorted and without
// repetitions; it is empty exactly when f is a sentence.
func FreeVars(f Formula) []Var {
	seen := map[Var]bool{}
	collectFree(f, map[Var]int{}, seen)
	vs := make([]Var, 0, len(seen))
	for v := range seen {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	return vs
}

// collectFree adds to free the variables of f not counted in bound.
func collectFree(f Formula, bound map[Var]int, free map[Var]bool) {
	switch g := f.(type) {
	case *Atom:
		for _, v := range g.Args {
			if bound[v] == 0 {
				free[v] = true
			}
		}
	case *Not:
		collectFree(g.F, bound, free)
	case *And:
		for _, h := range g.Fs {
			collectFree(h, bound, free)
		}
	case *Or:
		for _, h := range g.Fs {
			collectFree(h, bound, free)
		}
	case *Implies:
		collectFree(g.L, bound, free)
		collectFree(g.R, bound, free)
	case *Forall:
		bound[g.V]++
		collectFree(g.Body, bound, free)
		bound[g.V]--
	case *Exists:
		bound[g.V]++
		collectFree(g.Body, bound, free)
		bound[g.V]--
	}
}
