package proof

import (
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// A tableau refutation (V, Z, A) names individuals and derives facts
// about them: each existential sentence names one (instance), each
// universal sentence said of a named individual is a clause over facts
// ("#1 is not a poet, or #1 loves some musician"), and so is each fact
// "#1 loves every musician" said of a named individual. When every
// disjunct of a clause but one is known false, the last one follows
// (apply); when all are false, the branch closes (contradiction). A
// universal fact is known false once a named individual witnesses its
// negation (witnessed). A derived existential fact names a new individual
// unless one already witnesses it. The search propagates to a fixpoint,
// then names the oldest unwitnessed individual and propagates again; it
// never splits cases, so an instance whose refutation needs a case split
// has no tableau proof (ErrNoProof), as has one past the budget.

// fact is a known statement: the step that says it and its formula (a
// conjunct of the step's formula).
type fact struct {
	step int
	f    fol.Formula
}

type tableau struct {
	b       *builder
	budget  Budget
	named   int
	known   map[string]int // a fact's key → the step that says it
	univ    []fact         // universal sentences and ∀y facts
	pending []fact         // ∃y facts to witness
	closed  bool
}

func findTableau(lx *fragments.Lexicon, sentences []fragments.Sentence, mus []int, budget Budget) (Proof, error) {
	t := &tableau{b: &builder{lx: lx, sentences: sentences}, budget: budget, known: map[string]int{}}
	var exist []fact
	for _, i := range mus {
		k := t.b.given(i)
		f := t.b.p.Steps[k].Formula
		switch f.(type) {
		case *fol.Forall:
			t.univ = append(t.univ, fact{k, f})
		case *fol.Exists:
			exist = append(exist, fact{k, f})
		}
	}
	if len(exist) == 0 {
		t.named++
		t.b.p.Steps = append(t.b.p.Steps, Step{Rule: Anyone, Sentence: -1, English: anyoneEnglish(t.named)})
	}
	for _, e := range exist {
		if err := t.name(e); err != nil {
			return Proof{}, err
		}
	}
	for !t.closed {
		if err := t.propagate(); err != nil {
			return Proof{}, err
		}
		if t.closed {
			break
		}
		if err := t.witnessNext(); err != nil {
			return Proof{}, err
		}
	}
	return prune(lx, t.b.p)
}

// name adds an instance step naming a new individual for the existential
// e (∃v φ) and records what it says of them.
func (t *tableau) name(e fact) error {
	if t.named >= t.budget.Individuals {
		return fmt.Errorf("%w: more than %d individuals", ErrNoProof, t.budget.Individuals)
	}
	ex := e.f.(*fol.Exists)
	t.named++
	k, err := t.b.add(Step{Rule: Instance, Premises: []int{e.step}, Formula: subst(ex.Body, ex.V, individual(t.named))})
	if err != nil {
		return err
	}
	for _, c := range conjuncts(t.b.p.Steps[k].Formula) {
		t.learn(fact{k, c})
	}
	return nil
}

// learn records a fact.
func (t *tableau) learn(x fact) {
	t.known[key(x.f)] = x.step
	switch x.f.(type) {
	case *fol.Forall:
		t.univ = append(t.univ, x)
	case *fol.Exists:
		t.pending = append(t.pending, x)
	}
}

// witnessNext names an individual for the oldest existential fact no
// named individual witnesses.
func (t *tableau) witnessNext() error {
	for len(t.pending) > 0 {
		e := t.pending[0]
		t.pending = t.pending[1:]
		if _, ok := t.witness(e.f.(*fol.Exists)); !ok {
			return t.name(e)
		}
	}
	return fmt.Errorf("%w: the facts saturate without a contradiction (a case split would be needed)", ErrNoProof)
}

// witness returns the steps of the facts by which a named individual
// witnesses ∃y φ, if one does.
func (t *tableau) witness(e *fol.Exists) ([]int, bool) {
	for k := 1; k <= t.named; k++ {
		var steps []int
		ok := true
		for _, c := range conjuncts(subst(e.Body, e.V, individual(k))) {
			s, found := t.known[key(c)]
			if !found {
				ok = false
				break
			}
			steps = append(steps, s)
		}
		if ok {
			return sortedSteps(steps...), true
		}
	}
	return nil, false
}

// propagate applies every clause until nothing new follows or the branch
// closes.
func (t *tableau) propagate() error {
	for changed := true; changed && !t.closed; {
		changed = false
		for i := 0; i < len(t.univ) && !t.closed; i++ {
			for k := 1; k <= t.named && !t.closed; k++ {
				did, err := t.apply(t.univ[i], individual(k))
				if err != nil {
					return err
				}
				changed = changed || did
			}
		}
		if len(t.b.p.Steps) > 40*t.budget.Steps {
			return fmt.Errorf("%w: the search passed %d steps", ErrNoProof, 40*t.budget.Steps)
		}
	}
	return nil
}

// apply says the universal statement u of individual c and derives what
// the clause it gives forces; it reports whether it added a step.
func (t *tableau) apply(u fact, c fol.Var) (bool, error) {
	all := u.f.(*fol.Forall)
	imp, ok := all.Body.(*fol.Implies)
	if !ok {
		return false, nil
	}
	var disj []fol.Formula
	for _, l := range conjuncts(subst(imp.L, all.V, c)) {
		disj = append(disj, negate(l))
	}
	disj = append(disj, subst(imp.R, all.V, c))
	premises := []int{u.step}
	var open []fol.Formula
	for _, d := range disj {
		if d == nil {
			return false, nil
		}
		if _, ok := t.known[key(d)]; ok {
			return false, nil // the clause holds already
		}
		s, isFalse, err := t.falsified(d)
		if err != nil {
			return false, err
		}
		if isFalse {
			premises = append(premises, s)
		} else {
			open = append(open, d)
		}
	}
	switch len(open) {
	case 0:
		// Say what the clause concludes, then that it contradicts what
		// is known: two steps a reader can follow.
		last := premises[len(premises)-1]
		k, err := t.b.add(Step{Rule: Apply, Premises: sortedSteps(premises[:len(premises)-1]...), Formula: disj[len(disj)-1]})
		if err != nil {
			return false, err
		}
		t.b.contradiction([]int{last, k})
		t.closed = true
		return true, nil
	case 1:
		k, err := t.b.add(Step{Rule: Apply, Premises: sortedSteps(premises...), Formula: open[0]})
		if err != nil {
			return false, err
		}
		t.learn(fact{k, open[0]})
		return true, nil
	}
	return false, nil
}

// falsified returns the step that says d is false, adding a witnessed
// step when a named individual refutes a universal d.
func (t *tableau) falsified(d fol.Formula) (int, bool, error) {
	n := negate(d)
	if s, ok := t.known[key(n)]; ok {
		return s, true, nil
	}
	e, ok := n.(*fol.Exists)
	if !ok {
		return 0, false, nil
	}
	steps, ok := t.witness(e)
	if !ok {
		return 0, false, nil
	}
	k, err := t.b.add(Step{Rule: Witnessed, Premises: steps, Formula: n})
	if err != nil {
		return 0, false, err
	}
	t.known[key(n)] = k
	return k, true, nil
}

// prune keeps the steps the contradiction depends on, renumbering steps
// and individuals in order.
func prune(lx *fragments.Lexicon, p Proof) (Proof, error) {
	need := make([]bool, len(p.Steps))
	need[len(need)-1] = true
	for i := len(p.Steps) - 1; i >= 0; i-- {
		if need[i] {
			for _, j := range p.Steps[i].Premises {
				need[j] = true
			}
		}
	}
	var out Proof
	stepOf := map[int]int{}
	rename := map[fol.Var]fol.Var{}
	for i, s := range p.Steps {
		if !need[i] {
			continue
		}
		if s.Rule == Instance || s.Rule == Anyone {
			rename[individual(introduced(p, i))] = individual(len(rename) + 1)
		}
		s.Premises = slices.Clone(s.Premises)
		for k, j := range s.Premises {
			s.Premises[k] = stepOf[j]
		}
		if s.Rule != Given && s.Formula != nil {
			s.Formula = renameVars(s.Formula, rename)
			e, err := Render(lx, s.Formula)
			if err != nil {
				return Proof{}, err
			}
			s.English = e
		}
		if s.Rule == Anyone {
			s.English = anyoneEnglish(len(rename))
		}
		stepOf[i] = len(out.Steps)
		out.Steps = append(out.Steps, s)
	}
	return out, nil
}

// introduced returns the number of the individual step i names.
func introduced(p Proof, i int) int {
	n := 0
	for _, s := range p.Steps[:i+1] {
		if s.Rule == Instance || s.Rule == Anyone {
			n++
		}
	}
	return n
}

// renameVars renames free individuals by m.
func renameVars(f fol.Formula, m map[fol.Var]fol.Var) fol.Formula {
	tmp := map[fol.Var]fol.Var{}
	for _, v := range fol.FreeVars(f) {
		t := fol.Var("tmp" + string(v))
		f = subst(f, v, t)
		tmp[t] = m[v]
	}
	for t, w := range tmp {
		f = subst(f, t, w)
	}
	return f
}
