package fol

import "math/rand/v2"

// genSig is the small signature of the random formulas: a few unary and
// binary predicates, including names SMT-LIB reserves (and, let) so that
// the SMT-LIB renaming is exercised.
var (
	genUnary  = []string{"p", "q", "o", "artist", "and", "p_1"}
	genBinary = []string{"r", "s", "admire", "let"}
	genVars   = []Var{"x", "y", "z", "w"}
)

// genConfig shapes the random formulas.
type genConfig struct {
	depth int     // maximum depth of connectives below the top quantifier
	free  float64 // probability that an atom argument is any variable, bound or not
}

// randSentence returns a random closed formula: a quantifier over a random
// body of depth at most c.depth.
func (c genConfig) randSentence(r *rand.Rand) Formula {
	v := genVars[r.IntN(len(genVars))]
	body := c.randFormula(r, c.depth, []Var{v})
	if r.IntN(2) == 0 {
		return &Forall{V: v, Body: body}
	}
	return &Exists{V: v, Body: body}
}

// randFormula returns a random formula whose atoms use the variables of
// bound (and, with probability c.free per argument, any variable).
func (c genConfig) randFormula(r *rand.Rand, depth int, bound []Var) Formula {
	if depth == 0 || r.IntN(5) == 0 {
		return c.randAtom(r, bound)
	}
	switch r.IntN(7) {
	case 0:
		return &Not{F: c.randFormula(r, depth-1, bound)}
	case 1, 2:
		return Conj(c.randOperands(r, depth, bound)...)
	case 3:
		return Disj(c.randOperands(r, depth, bound)...)
	case 4:
		return &Implies{L: c.randFormula(r, depth-1, bound), R: c.randFormula(r, depth-1, bound)}
	}
	v := genVars[r.IntN(len(genVars))]
	body := c.randFormula(r, depth-1, append(bound[:len(bound):len(bound)], v))
	if r.IntN(2) == 0 {
		return &Forall{V: v, Body: body}
	}
	return &Exists{V: v, Body: body}
}

func (c genConfig) randOperands(r *rand.Rand, depth int, bound []Var) []Formula {
	fs := make([]Formula, 2+r.IntN(3))
	for i := range fs {
		fs[i] = c.randFormula(r, depth-1, bound)
	}
	return fs
}

func (c genConfig) randAtom(r *rand.Rand, bound []Var) Formula {
	arg := func() Var {
		if r.Float64() < c.free {
			return genVars[r.IntN(len(genVars))]
		}
		return bound[r.IntN(len(bound))]
	}
	var a *Atom
	if r.IntN(2) == 0 {
		a = Unary(genUnary[r.IntN(len(genUnary))], arg())
	} else {
		a = Binary(genBinary[r.IntN(len(genBinary))], arg(), arg())
	}
	return Lit(r.IntN(3) > 0, a)
}

// randProblem returns between 1 and maxM random sentences.
func (c genConfig) randProblem(r *rand.Rand, maxM int) []Formula {
	fs := make([]Formula, 1+r.IntN(maxM))
	for i := range fs {
		fs[i] = c.randSentence(r)
	}
	return fs
}
