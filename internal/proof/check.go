package proof

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// Check verifies every step of p on its own, without the search that
// found it: the premises are earlier steps, the rule's schema matches the
// formulas, every rule that is not a naming step is a valid one-step
// entailment (solver.Decide finds the cited formulas together with the
// negated conclusion unsatisfiable, or for Contradiction the cited
// formulas alone), the English parses back to the formula where it is a
// sentence of the fragments and is Render's otherwise, and the last step
// is a Contradiction. sentences are the input sentences that Given steps
// cite. An error names the first step that fails.
func Check(ctx context.Context, b solver.Backend, lx *fragments.Lexicon, sentences []fragments.Sentence, p Proof) error {
	if len(p.Steps) == 0 {
		return errors.New("empty proof")
	}
	for i, s := range p.Steps {
		if s.Rule == Contradiction && i != len(p.Steps)-1 {
			return fmt.Errorf("step %d: a contradiction before the last step", i+1)
		}
		if err := CheckStep(ctx, b, lx, sentences, p.Steps, i); err != nil {
			return fmt.Errorf("step %d (%s, %q): %w", i+1, s.Rule, s.English, err)
		}
	}
	if last := p.Steps[len(p.Steps)-1]; last.Rule != Contradiction {
		return fmt.Errorf("the last step is %s, not a contradiction", last.Rule)
	}
	return nil
}

// CheckStep checks step i of steps by itself, the steps before it taken
// as given: the same checks Check makes of every step (premises, schema,
// individuals, English, entailment). It is how a chain of steps written by
// someone else is checked step by step (see CheckChain): an error says why
// step i does not follow, and Check is CheckStep for every step.
func CheckStep(ctx context.Context, b solver.Backend, lx *fragments.Lexicon, sentences []fragments.Sentence, steps []Step, i int) error {
	c := &checker{b: b, lx: lx, sentences: sentences, steps: steps}
	for _, s := range steps[:i] {
		if s.Rule == Anyone || s.Rule == Instance {
			c.named++
		}
	}
	return c.step(ctx, i, steps[i])
}

type checker struct {
	b         solver.Backend
	lx        *fragments.Lexicon
	sentences []fragments.Sentence
	steps     []Step
	named     int // individuals named so far
}

// step checks one step.
func (c *checker) step(ctx context.Context, i int, s Step) error {
	for k, j := range s.Premises {
		if j < 0 || j >= i || (k > 0 && j <= s.Premises[k-1]) {
			return fmt.Errorf("premises %v are not earlier steps in increasing order", plusOne(s.Premises))
		}
	}
	if err := c.schema(s); err != nil {
		return err
	}
	for _, k := range individuals(s.Formula) {
		if k > c.named {
			return fmt.Errorf("#%d has not been named", k)
		}
	}
	if err := c.english(s); err != nil {
		return err
	}
	switch s.Rule {
	case Chain, Apply, Witnessed, Contradiction:
		return c.entailed(ctx, s)
	}
	return nil
}

// schema checks the shape a step's rule demands of its premises and
// conclusion.
func (c *checker) schema(s Step) error {
	if !slices.Contains(rules, s.Rule) {
		return fmt.Errorf("unknown rule %q", s.Rule)
	}
	need := map[Rule]int{Given: 0, Chain: 2, Anyone: 0, Instance: 1}
	if n, ok := need[s.Rule]; ok && len(s.Premises) != n {
		return fmt.Errorf("%s takes %d premises, not %d", s.Rule, n, len(s.Premises))
	}
	if (s.Rule == Apply || s.Rule == Witnessed || s.Rule == Contradiction) && len(s.Premises) == 0 {
		return fmt.Errorf("%s needs premises", s.Rule)
	}
	if (s.Formula == nil) != (s.Rule == Contradiction || s.Rule == Anyone) {
		return errors.New("a conclusion is missing or out of place")
	}
	switch s.Rule {
	case Given:
		if s.Sentence < 0 || s.Sentence >= len(c.sentences) {
			return fmt.Errorf("there is no sentence %d", s.Sentence+1)
		}
		if !fol.Equal(s.Formula, c.sentences[s.Sentence].Formula()) {
			return fmt.Errorf("the formula is not sentence %d's", s.Sentence+1)
		}
	case Chain:
		return c.chainSchema(s)
	case Anyone:
		c.named++
	case Instance:
		return c.instanceSchema(s)
	case Apply:
		if !slices.ContainsFunc(s.Premises, func(j int) bool { return universalStatement(c.steps[j].Formula) }) {
			return errors.New("no premise is a universal statement")
		}
		return singleFact(s.Formula)
	case Witnessed:
		if _, ok := s.Formula.(*fol.Exists); !ok {
			return errors.New("the conclusion is not an existential statement")
		}
		for _, j := range s.Premises {
			if f := c.steps[j].Formula; f == nil || len(individuals(f)) == 0 {
				return fmt.Errorf("premise %d is not a fact about named individuals", j+1)
			}
		}
		return singleFact(s.Formula)
	}
	return nil
}

// chainSchema checks a chain: the premises are universal clauses
// C ∪ {l} and D ∪ {¬l}, the conclusion is C ∪ D.
func (c *checker) chainSchema(s Step) error {
	c1, ok1 := clauseOf(c.steps[s.Premises[0]].Formula)
	c2, ok2 := clauseOf(c.steps[s.Premises[1]].Formula)
	got, ok3 := clauseOf(s.Formula)
	if !ok1 || !ok2 || !ok3 {
		return errors.New("premises and conclusion must be universal statements over one element")
	}
	for _, l := range c1 {
		if !slices.Contains(c2, l.not()) {
			continue
		}
		want := union(without(c1, l), without(c2, l.not()))
		if sameSet(want, got) {
			return nil
		}
	}
	return errors.New("the conclusion is not what chaining the premises gives")
}

// instanceSchema checks a naming step: a premise, or one of its
// conjuncts, is ∃v φ, and the conclusion is φ with v replaced by the next
// individual.
func (c *checker) instanceSchema(s Step) error {
	c.named++
	next := individual(c.named)
	for _, f := range conjuncts(c.steps[s.Premises[0]].Formula) {
		if e, ok := f.(*fol.Exists); ok && fol.Equal(subst(e.Body, e.V, next), s.Formula) {
			return nil
		}
	}
	return fmt.Errorf("the conclusion is not an existential premise said of a new individual #%d", c.named)
}

// english checks a step's English against its formula.
func (c *checker) english(s Step) error {
	var want string
	switch s.Rule {
	case Given:
		want = c.lx.English(c.sentences[s.Sentence])
	case Anyone:
		want = anyoneEnglish(c.named)
	case Contradiction:
		want = contradictionEnglish(len(s.Premises))
	default:
		if len(fol.FreeVars(s.Formula)) == 0 {
			if sent, err := c.lx.Parse(s.English); err == nil {
				if !fol.Equal(sent.Formula(), s.Formula) {
					return errors.New("the English does not mean the formula")
				}
				return nil
			}
		}
		r, err := Render(c.lx, s.Formula)
		if err != nil {
			return err
		}
		want = r
	}
	if s.English != want {
		return fmt.Errorf("the English should read %q", want)
	}
	return nil
}

// entailed asks the decider whether the cited formulas, with the negated
// conclusion, are unsatisfiable.
func (c *checker) entailed(ctx context.Context, s Step) error {
	var fs []fol.Formula
	named := map[int]bool{}
	for _, j := range s.Premises {
		for _, k := range individuals(c.steps[j].Formula) {
			if !named[k] {
				named[k] = true
				fs = append(fs, exists(k))
			}
		}
		enc, err := encodePremise(c.steps[j].Formula)
		if err != nil {
			return fmt.Errorf("premise %d: %w", j+1, err)
		}
		fs = append(fs, enc...)
	}
	if s.Formula != nil {
		neg, err := encodeNegation(s.Formula)
		if err != nil {
			return err
		}
		fs = append(fs, neg)
	}
	v, err := solver.Decide(ctx, c.b, fs, solver.DecideOptions{})
	switch {
	case err != nil:
		return fmt.Errorf("deciding the step: %w", err)
	case v.Status == solver.Sat:
		return errors.New("it does not follow from the premises it cites")
	case v.Status != solver.Unsat:
		return fmt.Errorf("%s could not decide the step (%s): %w", c.b.Name(), v.Reason, ErrUndecided)
	}
	return nil
}

// anyoneEnglish and contradictionEnglish are the fixed English of the
// steps without a formula.
// ErrUndecided marks a step the decider could not decide (a timeout or
// unknown): neither supported nor unsupported.
var ErrUndecided = errors.New("undecided")

func anyoneEnglish(k int) string { return fmt.Sprintf("Take anyone at all; call them #%d.", k) }

func contradictionEnglish(n int) string {
	if n == 2 {
		return "These two cannot both be true: a contradiction."
	}
	return "These cannot all be true: a contradiction."
}

func plusOne(idx []int) []int {
	out := make([]int, len(idx))
	for i, v := range idx {
		out[i] = v + 1
	}
	return out
}
