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
	if i, ok := evalAllBits([]Formula{f}, s); ok {
		return i < 0, nil
	}
	e := evaluator{s: s, env: make([]binding, 0, 4)}
	return e.eval(f)
}

// binding is one variable's value; the innermost binding of a name is the
// last one in the environment.
type binding struct {
	v Var
	a int
}

// EvalAll reports the index of the first formula of fs that is false in
// s, or -1 if all are true. It checks the structure once, not once per
// formula as repeated calls of Eval would. With an error it returns the
// index of the formula that caused it, or -1 for a malformed structure.
func EvalAll(fs []Formula, s *Structure) (int, error) {
	if err := s.check(); err != nil {
		return -1, err
	}
	if i, ok := evalAllBits(fs, s); ok {
		return i, nil
	}
	return evalAllTree(fs, s)
}

// EvalEach reports the truth of every formula of fs in s, checking the
// structure once and, where it can, compiling the formulas into one
// bitset program.
func EvalEach(fs []Formula, s *Structure) ([]bool, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	out := make([]bool, len(fs))
	if evalBits(fs, s, func(i int, v bool) bool { out[i] = v; return true }) {
		return out, nil
	}
	e := evaluator{s: s, env: make([]binding, 0, 4)}
	for i, f := range fs {
		e.env = e.env[:0]
		v, err := e.eval(f)
		if err != nil {
			return nil, fmt.Errorf("formula %d: %w", i+1, err)
		}
		out[i] = v
	}
	return out, nil
}

// evalAllTree is EvalAll on the tree-walking evaluator, for a checked s.
func evalAllTree(fs []Formula, s *Structure) (int, error) {
	e := evaluator{s: s, env: make([]binding, 0, 4)}
	for i, f := range fs {
		e.env = e.env[:0]
		ok, err := e.eval(f)
		if err != nil {
			return i, err
		}
		if !ok {
			return i, nil
		}
	}
	return -1, nil
}

type evaluator struct {
	s   *Structure
	env []binding
}

func (e *evaluator) lookup(v Var) (int, bool) {
	for i := len(e.env) - 1; i >= 0; i-- {
		if e.env[i].v == v {
			return e.env[i].a, true
		}
	}
	return 0, false
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

// quant evaluates ∃v body (exists) or ∀v body (!exists) with v bound
// innermost for the duration.
func (e *evaluator) quant(v Var, body Formula, exists bool) (bool, error) {
	e.env = append(e.env, binding{v: v})
	top := len(e.env) - 1
	defer func() { e.env = e.env[:top] }()
	for a := 0; a < e.s.Size; a++ {
		e.env[top].a = a
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

// atom looks the atom up; Eval has already checked every table's shape.
func (e *evaluator) atom(a *Atom) (bool, error) {
	if len(a.Args) != 1 && len(a.Args) != 2 {
		return false, fmt.Errorf("atom %s has arity %d; only 1 and 2 are supported", a.Pred, len(a.Args))
	}
	var args [2]int
	for i, v := range a.Args {
		x, ok := e.lookup(v)
		if !ok {
			return false, fmt.Errorf("free variable %s in %s(…)", v, a.Pred)
		}
		args[i] = x
	}
	if len(a.Args) == 1 {
		ext, ok := e.s.Unary[a.Pred]
		return ok && ext[args[0]], nil
	}
	ext, ok := e.s.Binary[a.Pred]
	return ok && ext[args[0]][args[1]], nil
}
