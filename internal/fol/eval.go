package fol

import "fmt"

// Eval reports whether the closed formula f is true in s. Predicates that s
// does not mention are empty. It returns an error for a free variable, an
// atom of arity other than 1 or 2, a nil structure, an empty domain, or a
// table of the wrong size anywhere in s.
func Eval(f Formula, s *Structure) (bool, error) {
	if err := s.check(); err != nil {
		return false, err
	}
	e := evaluator{s: s, env: map[Var]int{}}
	return e.eval(f)
}

type evaluator struct {
	s   *Structure
	env map[Var]int
}

func (e *evaluator) eval(f Formula) (bool, error) {
	switch g := f.(type) {
	case *Atom:
		return e.atom(g)
	case *Not:
		v, err := e.eval(g.F)
		return !v, err
	case *And:
		for _, h := range g.Fs {
			if v, err := e.eval(h); err != nil || !v {
				return false, err
			}
		}
		return true, nil
	case *Or:
		for _, h := range g.Fs {
			if v, err := e.eval(h); err != nil || v {
				return v, err
			}
		}
		return false, nil
	case *Implies:
		l, err := e.eval(g.L)
		if err != nil || !l {
			return true, err
		}
		return e.eval(g.R)
	case *Forall:
		return e.quant(g.V, g.Body, false)
	case *Exists:
		return e.quant(g.V, g.Body, true)
	}
	return false, fmt.Errorf("unknown formula node %T", f)
}

// quant evaluates ∃v body (exists) or ∀v body (!exists), restoring any
// outer binding of v afterwards.
func (e *evaluator) quant(v Var, body Formula, exists bool) (bool, error) {
	old, shadowed := e.env[v]
	defer func() {
		if shadowed {
			e.env[v] = old
		} else {
			delete(e.env, v)
		}
	}()
	for a := 0; a < e.s.Size; a++ {
		e.env[v] = a
		val, err := e.eval(body)
		if err != nil {
			return false, err
		}
		if val == exists {
			return exists, nil
		}
	}
	return !exists, nil
}

func (e *evaluator) atom(a *Atom) (bool, error) {
	args := make([]int, len(a.Args))
	for i, v := range a.Args {
		x, ok := e.env[v]
		if !ok {
			return false, fmt.Errorf("free variable %s in %s(…)", v, a.Pred)
		}
		args[i] = x
	}
	switch len(args) {
	case 1:
		ext, ok := e.s.Unary[a.Pred]
		if !ok {
			return false, nil
		}
		if len(ext) != e.s.Size {
			return false, fmt.Errorf("predicate %s has %d entries, domain has %d", a.Pred, len(ext), e.s.Size)
		}
		return ext[args[0]], nil
	case 2:
		ext, ok := e.s.Binary[a.Pred]
		if !ok {
			return false, nil
		}
		if len(ext) != e.s.Size || len(ext[args[0]]) != e.s.Size {
			return false, fmt.Errorf("relation %s does not match the domain size %d", a.Pred, e.s.Size)
		}
		return ext[args[0]][args[1]], nil
	}
	return false, fmt.Errorf("atom %s has arity %d; only 1 and 2 are supported", a.Pred, len(args))
}
