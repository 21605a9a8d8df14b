package native

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/sat"
)

// ErrUnsupported is wrapped by the error Solve returns for a sentence
// outside the shapes the decider handles.
var ErrUnsupported = errors.New("unsupported formula shape")

// citem is a ∀∀-clause ∀x∀y(X(x) ∧ Y(y) → ∨D).
type citem[P pat] struct {
	x, y guard[P]
	d    []blit
	src  int
}

// qitem is a requirement ∀x(X(x) → ∃y(Y(y) ∧ ∧E)).
type qitem[P pat] struct {
	x, y guard[P]
	e    []blit
	src  int
}

// normal is a problem in the normal form of the design's section 1.
type normal[P pat] struct {
	nouns, verbs []string
	nounTab      names // numbers nouns; nouns is nounTab.list
	verbTab      names
	sig          fol.Signature // of the sentences, when some sentence was not translated from a recipe
	slab         *nodeSlab     // the nnf's nodes, used only during normalize
	csrc         []int         // sentence of each fresh predicate c
	mono         []guard[P]    // M clauses, each given by the region it forbids
	msrc         []int
	cs           []citem[P]
	qs           []qitem[P]
	litBuf       []blit     // backing of the recipes' items' literals
	monoBuf      []guard[P] // monadic's scratch
	monoAct      []int32    // monoCore's scratch
	monoSrcs     []int
	monoAsm      []sat.Lit
	monoLits     []sat.Lit
	dpll         dpllState[P] // monadic's
	extras       bool         // some predicate is neither a noun nor a verb (it is in vacuous items only)
}

// normalize translates the sentences into items.
func normalize[P pat](fs []fol.Formula) (*normal[P], error) {
	return normalizeIn(new(normal[P]), fs, new(nodeSlab), new(shapeCache))
}

// normalizeIn is normalize into n, whose memory is reused, with the nnf's
// nodes taken from slab (reset first) and sentences translated by the
// recipes of sc where they have one (sc may be nil).
func normalizeIn[P pat](n *normal[P], fs []fol.Formula, slab *nodeSlab, sc *shapeCache) (*normal[P], error) {
	slab.reset()
	n.reset(slab)
	generic := sc == nil
	for i, f := range fs {
		var err error
		r, ok := (*recipe)(nil), false
		if sc != nil {
			r, ok, err = sc.recipeFor(f)
		}
		switch {
		case ok && err == nil:
			n.apply(i, r, sc)
			continue
		case !ok:
			generic = true
			err = n.sentence(i, f)
		}
		if err != nil {
			if _, serr := fol.SignatureOf(fs...); serr != nil {
				return nil, fmt.Errorf("%w: %w", ErrUnsupported, serr)
			}
			return nil, fmt.Errorf("sentence %d: %w: %s", i+1, ErrUnsupported, err.Error())
		}
	}
	if err := n.signature(fs, generic); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	if len(n.nouns) > patBits[P]() {
		return nil, fmt.Errorf("%w: %d nouns, more than the %d of this pattern width (%w)", ErrUnsupported, len(n.nouns), patBits[P](), errWide)
	}
	return n, nil
}

// reset empties n, keeping its memory.
func (n *normal[P]) reset(slab *nodeSlab) {
	n.nounTab.reset()
	n.verbTab.reset()
	*n = normal[P]{nouns: n.nounTab.list, verbs: n.verbTab.list, nounTab: n.nounTab, verbTab: n.verbTab, slab: slab,
		csrc: n.csrc[:0], mono: n.mono[:0], msrc: n.msrc[:0], cs: n.cs[:0], qs: n.qs[:0], litBuf: n.litBuf[:0],
		monoBuf: n.monoBuf[:0], monoAct: n.monoAct[:0], monoSrcs: n.monoSrcs[:0], monoAsm: n.monoAsm[:0], monoLits: n.monoLits[:0], dpll: n.dpll}
}

// signature checks that no predicate is used with two arities. When
// every predicate is a noun or a verb (the usual case) the signature is
// theirs and n.sig stays nil; otherwise it is collected from fs.
func (n *normal[P]) signature(fs []fol.Formula, generic bool) error {
	if !generic && !n.extras {
		if !n.nounVerbClash() {
			return nil
		}
	}
	sig, err := fol.SignatureOf(fs...)
	n.sig = sig
	return err
}

// nounVerbClash reports whether some name is both a noun and a verb.
func (n *normal[P]) nounVerbClash() bool {
	for _, v := range n.verbs {
		if slices.Contains(n.nouns, v) {
			return true
		}
	}
	return false
}

// arities calls fn on every predicate of the sentences with its arity
// and, for a verb, its index when it is known (-1 otherwise).
func (n *normal[P]) arities(fn func(name string, arity, verb int)) {
	if n.sig != nil {
		for p, k := range n.sig {
			fn(p, k, -1)
		}
		return
	}
	for _, p := range n.nouns {
		fn(p, 1, -1)
	}
	for v, r := range n.verbs {
		fn(r, 2, v)
	}
}

// sentence adds the items of one closed sentence ∀x φ or ∃x φ.
func (n *normal[P]) sentence(i int, f fol.Formula) error {
	base := noGuard[P]()
	var x fol.Var
	var body fol.Formula
	switch g := f.(type) {
	case *fol.Forall:
		x, body = g.V, g.Body
	case *fol.Exists:
		x, body = g.V, g.Body
		base.c = len(n.csrc)
		n.csrc = append(n.csrc, i)
	default:
		return fmt.Errorf("not a quantified sentence (%T)", f)
	}
	nf, err := n.slab.toNNF(body, true)
	if err != nil {
		return err
	}
	clauses, err := n.slab.cnf(nf)
	if err != nil {
		return err
	}
	for _, cl := range clauses {
		if err := n.outerClause(i, x, base, cl); err != nil {
			return err
		}
	}
	return nil
}

// outerClause handles one clause over x-literals and at most one big
// literal ∀y ψ / ∃y ψ.
func (n *normal[P]) outerClause(i int, x fol.Var, gx guard[P], cl []*nnode) error {
	var big *nnode
	for _, l := range cl {
		if l.kind != nLit {
			if big != nil {
				return fmt.Errorf("two quantified sub-formulas in one clause")
			}
			big = l
			continue
		}
		idx, err := n.unaryOn(l.atom, x)
		if err != nil {
			return err
		}
		var ok bool
		if gx, ok = gx.with(idx, !l.neg); !ok {
			return nil // tautology
		}
	}
	switch {
	case big == nil:
		n.addMono(gx, i)
		return nil
	case big.v == x:
		return fmt.Errorf("variable %s is re-bound", x)
	case big.kind == nAll:
		return n.forallY(i, x, gx, big)
	default:
		return n.existsY(i, x, gx, big)
	}
}

func (n *normal[P]) addMono(g guard[P], i int) {
	n.mono = append(n.mono, g)
	n.msrc = append(n.msrc, i)
}

// unaryOn returns the noun index of a unary atom on v.
func (n *normal[P]) unaryOn(a *fol.Atom, v fol.Var) (int, error) {
	if len(a.Args) != 1 || a.Args[0] != v {
		return 0, fmt.Errorf("atom %s%v where a unary atom on %s is expected", a.Pred, a.Args, v)
	}
	return n.noun(a.Pred), nil
}

func (n *normal[P]) noun(p string) int {
	i := n.nounTab.intern(p)
	n.nouns = n.nounTab.list
	if i >= patBits[P]() {
		return 0 // the problem is refused for its width (errWide) at the end
	}
	return i
}

func (n *normal[P]) verb(r string) int {
	i := n.verbTab.intern(r)
	n.verbs = n.verbTab.list
	return i
}

// innerLit classifies a literal under ∀y/∃y: a unary literal on x (side
// 'x') or y (side 'y'), or a binary literal (side 'b').
func (n *normal[P]) innerLit(l *nnode, x, y fol.Var) (side byte, idx int, b blit, err error) {
	if l.kind != nLit {
		return 0, 0, 0, fmt.Errorf("quantifiers nested deeper than two")
	}
	a := l.atom
	switch {
	case len(a.Args) == 1 && (a.Args[0] == x || a.Args[0] == y):
		side = 'x'
		if a.Args[0] == y {
			side = 'y'
		}
		return side, n.noun(a.Pred), 0, nil
	case len(a.Args) == 2 && a.Args[0] == x && a.Args[1] == y:
		return 'b', 0, mkBlit(n.verb(a.Pred), 0, l.neg), nil
	case len(a.Args) == 2 && a.Args[0] == y && a.Args[1] == x:
		return 'b', 0, mkBlit(n.verb(a.Pred), 1, l.neg), nil
	case len(a.Args) == 2 && a.Args[0] == a.Args[1]:
		return 0, 0, 0, fmt.Errorf("reflexive atom %s(%s,%s)", a.Pred, a.Args[0], a.Args[1])
	}
	return 0, 0, 0, fmt.Errorf("atom %s%v is not over %s and %s", a.Pred, a.Args, x, y)
}

// forallY turns X(x) → ∀y ψ into ∀∀-clauses, one per clause of ψ.
func (n *normal[P]) forallY(i int, x fol.Var, gx guard[P], big *nnode) error {
	clauses, err := n.slab.cnf(big.body)
	if err != nil {
		return err
	}
	for _, cl := range clauses {
		it, taut, err := n.cclause(x, big.v, gx, cl)
		if err != nil {
			return err
		}
		if !taut {
			it.src = i
			n.cs = append(n.cs, it)
		}
	}
	return nil
}

// cclause builds one ∀∀-clause; taut is true when it is vacuous.
func (n *normal[P]) cclause(x, y fol.Var, gx guard[P], cl []*nnode) (it citem[P], taut bool, err error) {
	it = citem[P]{x: gx, y: noGuard[P]()}
	for _, l := range cl {
		side, idx, b, err := n.innerLit(l, x, y)
		if err != nil {
			return it, false, err
		}
		ok := true
		switch side {
		case 'x':
			it.x, ok = it.x.with(idx, !l.neg)
		case 'y':
			it.y, ok = it.y.with(idx, !l.neg)
		default:
			if slices.Contains(it.d, b.neg()) {
				ok = false
			} else if !slices.Contains(it.d, b) {
				it.d = append(it.d, b)
			}
		}
		if !ok {
			return it, true, nil
		}
	}
	if len(it.d) > 2 {
		return it, false, fmt.Errorf("a ∀∀-clause with %d binary literals (at most 2)", len(it.d))
	}
	slices.Sort(it.d)
	return it, false, nil
}

// existsY turns X(x) → ∃y ψ, ψ a conjunction of literals, into a
// requirement (plus M clauses for conjuncts on x).
func (n *normal[P]) existsY(i int, x fol.Var, gx guard[P], big *nnode) error {
	lits := []*nnode{big.body}
	if big.body.kind == nAnd {
		lits = big.body.kids
	}
	q := qitem[P]{x: gx, y: noGuard[P](), src: i}
	ok := true
	for _, l := range lits {
		if l.kind == nOr {
			return fmt.Errorf("a disjunction under ∃%s", big.v)
		}
		side, idx, b, err := n.innerLit(l, x, big.v)
		if err != nil {
			return err
		}
		switch side {
		case 'x':
			if g, consistent := gx.with(idx, !l.neg); consistent {
				n.addMono(g, i)
			}
		case 'y':
			var good bool
			q.y, good = q.y.with(idx, l.neg)
			ok = ok && good
		default:
			if slices.Contains(q.e, b.neg()) {
				ok = false
			} else if !slices.Contains(q.e, b) {
				q.e = append(q.e, b)
			}
		}
	}
	if !ok {
		n.addMono(gx, i) // ∃y of a contradiction: X must be empty
		return nil
	}
	slices.Sort(q.e)
	n.qs = append(n.qs, q)
	return nil
}
