package fol

// Models is a list of structures, each checked once when it is added, in
// which a formula is evaluated together: Eval run over each of them in
// turn would check every structure and compile the formula again for
// each. A structure must not change once added.
type Models struct {
	ss []*Structure
}

// Add checks s, as Eval would, and adds it; a structure that fails the
// check is not added and its error is returned.
func (ms *Models) Add(s *Structure) error {
	if err := s.check(); err != nil {
		return err
	}
	ms.ss = append(ms.ss, s)
	return nil
}

// Len returns the number of structures added.
func (ms *Models) Len() int { return len(ms.ss) }

// AnyTrue reports whether the closed formula f is true in one of the
// structures, as a loop over them would that asked Eval and passed over
// the structures where it gives an error.
func (ms *Models) AnyTrue(f Formula) bool {
	if len(ms.ss) == 0 {
		return false
	}
	e := bitEvals.Get().(*bitEval)
	defer bitEvals.Put(e)
	e.reset(1)
	e.roots = append(e.roots, 0)
	compiled := e.compile(f)
	for _, s := range ms.ss {
		if !compiled || s.Size > maxBitSize {
			if ok, err := (&evaluator{s: s, env: make([]binding, 0, 4)}).eval(f); err == nil && ok {
				return true
			}
			continue
		}
		e.n, e.full = s.Size, ^uint64(0)>>(64-s.Size)
		e.off, e.tabs = e.off[:0], e.tabs[:0]
		e.load(s)
		if e.set(0) != 0 {
			return true
		}
	}
	return false
}
