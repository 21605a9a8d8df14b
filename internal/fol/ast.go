package fol

import "fmt"

// Formula is a node of the syntax tree. The set of node types is closed:
// Atom, Not, And, Or, Implies, Forall and Exists.
type Formula interface {
	formulaNode()
}

// Var is a variable name such as "x" or "y".
type Var string

// Atom applies a predicate to one (unary) or two (binary) variables.
type Atom struct {
	Pred string
	Args []Var
}

// Not is negation.
type Not struct {
	F Formula
}

// And is an n-ary conjunction of at least two conjuncts.
type And struct {
	Fs []Formula
}

// Or is an n-ary disjunction of at least two disjuncts.
type Or struct {
	Fs []Formula
}

// Implies is material implication L → R.
type Implies struct {
	L, R Formula
}

// Forall is universal quantification of V over Body.
type Forall struct {
	V    Var
	Body Formula
}

// Exists is existential quantification of V over Body.
type Exists struct {
	V    Var
	Body Formula
}

func (*Atom) formulaNode()    {}
func (*Not) formulaNode()     {}
func (*And) formulaNode()     {}
func (*Or) formulaNode()      {}
func (*Implies) formulaNode() {}
func (*Forall) formulaNode()  {}
func (*Exists) formulaNode()  {}

// Unary returns the atom p(v).
func Unary(p string, v Var) *Atom { return &Atom{Pred: p, Args: []Var{v}} }

// Binary returns the atom r(a, b).
func Binary(r string, a, b Var) *Atom { return &Atom{Pred: r, Args: []Var{a, b}} }

// Lit returns the atom a when pos is true and ¬a otherwise.
func Lit(pos bool, a *Atom) Formula {
	if pos {
		return a
	}
	return &Not{F: a}
}

// Conj returns the conjunction of fs, flattening nested conjunctions; with
// one operand it returns that operand.
func Conj(fs ...Formula) Formula { return nary(fs, true) }

// Disj returns the disjunction of fs, flattening nested disjunctions; with
// one operand it returns that operand.
func Disj(fs ...Formula) Formula { return nary(fs, false) }

func nary(fs []Formula, and bool) Formula {
	var flat []Formula
	for _, f := range fs {
		switch g := f.(type) {
		case *And:
			if and {
				flat = append(flat, g.Fs...)
				continue
			}
		case *Or:
			if !and {
				flat = append(flat, g.Fs...)
				continue
			}
		}
		flat = append(flat, f)
	}
	switch {
	case len(flat) == 0:
		panic("fol: empty conjunction or disjunction")
	case len(flat) == 1:
		return flat[0]
	case and:
		return &And{Fs: flat}
	default:
		return &Or{Fs: flat}
	}
}

// Walk calls fn on f and then, if fn returns true, on each of f's
// sub-formulas in order, depth first.
func Walk(f Formula, fn func(Formula) bool) {
	if !fn(f) {
		return
	}
	switch g := f.(type) {
	case *Atom:
	case *Not:
		Walk(g.F, fn)
	case *And:
		for _, h := range g.Fs {
			Walk(h, fn)
		}
	case *Or:
		for _, h := range g.Fs {
			Walk(h, fn)
		}
	case *Implies:
		Walk(g.L, fn)
		Walk(g.R, fn)
	case *Forall:
		Walk(g.Body, fn)
	case *Exists:
		Walk(g.Body, fn)
	default:
		panic(fmt.Sprintf("fol: unknown node %T", f))
	}
}

// Signature maps each predicate name used in a set of formulas to its arity.
type Signature map[string]int

// SignatureOf collects the predicates of fs. It returns an error if a name
// is used with two arities.
func SignatureOf(fs ...Formula) (Signature, error) {
	sig := make(Signature, 8)
	var err error
	for _, f := range fs {
		collectSignature(f, sig, &err)
	}
	return sig, err
}

// collectSignature adds the predicates of f to sig; it is a direct
// recursion rather than Walk because every model check pays for it.
func collectSignature(f Formula, sig Signature, err *error) {
	switch g := f.(type) {
	case *Atom:
		k, seen := sig[g.Pred]
		switch {
		case !seen:
			sig[g.Pred] = len(g.Args)
		case k != len(g.Args) && *err == nil:
			*err = fmt.Errorf("predicate %q used with arities %d and %d", g.Pred, k, len(g.Args))
		}
	case *Not:
		collectSignature(g.F, sig, err)
	case *And:
		for _, h := range g.Fs {
			collectSignature(h, sig, err)
		}
	case *Or:
		for _, h := range g.Fs {
			collectSignature(h, sig, err)
		}
	case *Implies:
		collectSignature(g.L, sig, err)
		collectSignature(g.R, sig, err)
	case *Forall:
		collectSignature(g.Body, sig, err)
	case *Exists:
		collectSignature(g.Body, sig, err)
	}
}

// Equal reports whether f and g are the same tree.
func Equal(f, g Formula) bool {
	switch a := f.(type) {
	case *Atom:
		b, ok := g.(*Atom)
		if !ok || a.Pred != b.Pred || len(a.Args) != len(b.Args) {
			return false
		}
		for i := range a.Args {
			if a.Args[i] != b.Args[i] {
				return false
			}
		}
		return true
	case *Not:
		b, ok := g.(*Not)
		return ok && Equal(a.F, b.F)
	case *And:
		b, ok := g.(*And)
		return ok && equalAll(a.Fs, b.Fs)
	case *Or:
		b, ok := g.(*Or)
		return ok && equalAll(a.Fs, b.Fs)
	case *Implies:
		b, ok := g.(*Implies)
		return ok && Equal(a.L, b.L) && Equal(a.R, b.R)
	case *Forall:
		b, ok := g.(*Forall)
		return ok && a.V == b.V && Equal(a.Body, b.Body)
	case *Exists:
		b, ok := g.(*Exists)
		return ok && a.V == b.V && Equal(a.Body, b.Body)
	}
	return false
}

func equalAll(fs, gs []Formula) bool {
	if len(fs) != len(gs) {
		return false
	}
	for i := range fs {
		if !Equal(fs[i], gs[i]) {
			return false
		}
	}
	return true
}
