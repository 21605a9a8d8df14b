package native

import "github.com/nlsat/nlsat/internal/fol"

// Helpers that build the spec's template shapes (docs/fragments.md)
// as fol formulas, for hand-written tests and the random generator.

const (
	vx = fol.Var("x")
	vy = fol.Var("y")
)

func ul(pos bool, p string, v fol.Var) fol.Formula { return fol.Lit(pos, fol.Unary(p, v)) }

func all(v fol.Var, f fol.Formula) fol.Formula { return &fol.Forall{V: v, Body: f} }
func ex(v fol.Var, f fol.Formula) fol.Formula  { return &fol.Exists{V: v, Body: f} }
func imp(l, r fol.Formula) fol.Formula         { return &fol.Implies{L: l, R: r} }
func not(f fol.Formula) fol.Formula            { return &fol.Not{F: f} }

// every builds ∀x(subj → pred); some builds ∃x(subj ∧ pred).
func every(subj, pred fol.Formula) fol.Formula { return all(vx, imp(subj, pred)) }
func some(subj, pred fol.Formula) fol.Formula  { return ex(vx, fol.Conj(subj, pred)) }

// obj builds the object of a V or A sentence: ∀y(ψ → ±r(x,y)) ("every") or
// ∃y(ψ ∧ ±r(x,y)) ("some"), where ψ is the object's restriction on y.
func obj(someObj bool, psi fol.Formula, rpos bool, r string) fol.Formula {
	rl := fol.Lit(rpos, fol.Binary(r, vx, vy))
	if someObj {
		return ex(vy, fol.Conj(psi, rl))
	}
	return all(vy, imp(psi, rl))
}

// arc is the A object restriction ±p(y) ∧ ±s(y,x).
func arc(ppos bool, p string, spos bool, s string) fol.Formula {
	return fol.Conj(ul(ppos, p, vy), fol.Lit(spos, fol.Binary(s, vy, vx)))
}
