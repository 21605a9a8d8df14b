package native

import (
	"errors"
	"math/bits"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
)

// Sentences come from a few template shapes with words substituted, so
// the translation of a sentence into items is cached per shape: the
// formula tree with its predicate names replaced by slots (numbered by
// first occurrence, so the key also says which words are repeated) and
// its variables likewise. A recipe is the generic translation of the
// first sentence of its shape, with nouns and verbs numbered locally;
// applying it to a sentence interns the sentence's words in the order the
// generic translation would and maps the items' local indices to global
// ones. The result is the generic translation's, item for item.

// shapeSlot is a predicate of the sentence being keyed.
type shapeSlot struct {
	name  string
	arity int
}

// recipe is the translation of one shape.
type recipe struct {
	nounSlot []int // per local noun, in interning order, its slot
	verbSlot []int
	exist    bool        // the sentence is existential: its guards' c >= 0 is its own fresh c
	extras   bool        // some slot is neither a noun nor a verb of the items (a vacuous part)
	mono     []guard[p1] // over the local nouns, at most 64 (see build)
	cs       []citem[p1]
	qs       []qitem[p1]
}

// shapeCache maps shape keys to recipes. It lives in a workspace.
type shapeCache struct {
	recipes map[string]*recipe
	key     []byte
	slots   []shapeSlot
	vars    []fol.Var
	slab    nodeSlab // for building recipes
	gn, gv  []int    // global index per local noun, verb
}

// maxShapes bounds the recipes kept; shapes past it are translated but
// not stored.
const maxShapes = 4096

// recipeFor returns the recipe of f, building it if needed. ok is false
// when f has no key (an odd tree, too many names); err is the generic
// translation's error.
func (sc *shapeCache) recipeFor(f fol.Formula) (r *recipe, ok bool, err error) {
	sc.key, sc.slots, sc.vars = sc.key[:0], sc.slots[:0], sc.vars[:0]
	if !sc.shape(f) {
		return nil, false, nil
	}
	if r := sc.recipes[string(sc.key)]; r != nil {
		return r, true, nil
	}
	r, err = sc.build(f)
	if errors.Is(err, errWide) {
		return nil, false, nil // its local nouns do not fit one word
	}
	if err != nil {
		return nil, true, err
	}
	if sc.recipes == nil {
		sc.recipes = map[string]*recipe{}
	}
	if len(sc.recipes) < maxShapes {
		sc.recipes[string(sc.key)] = r
	}
	return r, true, nil
}

// shape appends f's key to sc.key; false means f cannot be keyed.
func (sc *shapeCache) shape(f fol.Formula) bool {
	switch g := f.(type) {
	case *fol.Atom:
		if g == nil || len(g.Args) > 2 {
			return false
		}
		s := sc.slot(g.Pred, len(g.Args))
		if s > 255 {
			return false
		}
		sc.key = append(sc.key, 'a', byte(len(g.Args)), byte(s))
		for _, v := range g.Args {
			if !sc.variable(v) {
				return false
			}
		}
		return true
	case *fol.Not:
		sc.key = append(sc.key, '~')
		return g != nil && sc.shape(g.F)
	case *fol.And:
		return g != nil && sc.nary('&', g.Fs)
	case *fol.Or:
		return g != nil && sc.nary('|', g.Fs)
	case *fol.Implies:
		sc.key = append(sc.key, '>')
		return g != nil && sc.shape(g.L) && sc.shape(g.R)
	case *fol.Forall:
		sc.key = append(sc.key, 'A')
		return g != nil && sc.variable(g.V) && sc.shape(g.Body)
	case *fol.Exists:
		sc.key = append(sc.key, 'E')
		return g != nil && sc.variable(g.V) && sc.shape(g.Body)
	}
	return false
}

func (sc *shapeCache) nary(op byte, fs []fol.Formula) bool {
	if len(fs) > 255 {
		return false
	}
	sc.key = append(sc.key, op, byte(len(fs)))
	for _, f := range fs {
		if !sc.shape(f) {
			return false
		}
	}
	return true
}

// slot returns the slot of the predicate (name, arity), adding it.
func (sc *shapeCache) slot(name string, arity int) int {
	for i, s := range sc.slots {
		if s.name == name && s.arity == arity {
			return i
		}
	}
	sc.slots = append(sc.slots, shapeSlot{name, arity})
	return len(sc.slots) - 1
}

// variable appends the number of v (by first occurrence) to the key.
func (sc *shapeCache) variable(v fol.Var) bool {
	i := slices.Index(sc.vars, v)
	if i < 0 {
		i = len(sc.vars)
		sc.vars = append(sc.vars, v)
	}
	if i > 255 {
		return false
	}
	sc.key = append(sc.key, byte(i))
	return true
}

// build translates f on its own and records which slot each local noun
// and verb came from.
func (sc *shapeCache) build(f fol.Formula) (*recipe, error) {
	sc.slab.reset()
	ln := &normal[p1]{slab: &sc.slab}
	if err := ln.sentence(0, f); err != nil {
		return nil, err
	}
	if len(ln.nouns) > 64 {
		return nil, errWide
	}
	r := &recipe{exist: len(ln.csrc) > 0, mono: ln.mono, cs: ln.cs, qs: ln.qs}
	for _, p := range ln.nouns {
		r.nounSlot = append(r.nounSlot, slices.Index(sc.slots, shapeSlot{p, 1}))
	}
	for _, p := range ln.verbs {
		r.verbSlot = append(r.verbSlot, slices.Index(sc.slots, shapeSlot{p, 2}))
	}
	r.extras = len(r.nounSlot)+len(r.verbSlot) < len(sc.slots)
	return r, nil
}

// apply adds the items of sentence i, which has recipe r and whose
// predicates are sc.slots.
func (n *normal[P]) apply(i int, r *recipe, sc *shapeCache) {
	gn, gv := sc.gn[:0], sc.gv[:0]
	for _, s := range r.nounSlot {
		gn = append(gn, n.noun(sc.slots[s].name))
	}
	for _, s := range r.verbSlot {
		gv = append(gv, n.verb(sc.slots[s].name))
	}
	sc.gn, sc.gv = gn, gv
	c := -1
	if r.exist {
		c = len(n.csrc)
		n.csrc = append(n.csrc, i)
	}
	n.extras = n.extras || r.extras
	for _, g := range r.mono {
		n.addMono(globalGuard[P](g, gn, c), i)
	}
	for _, it := range r.cs {
		n.cs = append(n.cs, citem[P]{x: globalGuard[P](it.x, gn, c), y: globalGuard[P](it.y, gn, c), d: n.globalBlits(it.d, gv), src: i})
	}
	for _, q := range r.qs {
		n.qs = append(n.qs, qitem[P]{x: globalGuard[P](q.x, gn, c), y: globalGuard[P](q.y, gn, c), e: n.globalBlits(q.e, gv), src: i})
	}
}

// globalGuard maps a recipe's guard to global noun indices and fresh
// predicate c.
func globalGuard[P pat](g guard[p1], gn []int, c int) guard[P] {
	out := guard[P]{c: -1}
	if g.c >= 0 {
		out.c = c
	}
	for m := g.mask[0]; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		i := gn[l]
		b := uint64(1) << (i % 64)
		out.mask[i/64] |= b
		out.val[i/64] |= b & -(g.val[0] >> l & 1)
	}
	return out
}

// globalBlits maps a recipe's binary literals to global verb indices,
// sorted as the generic translation sorts them.
func (n *normal[P]) globalBlits(d []blit, gv []int) []blit {
	if len(d) == 0 {
		return nil
	}
	if cap(n.litBuf)-len(n.litBuf) < len(d) {
		n.litBuf = make([]blit, 0, max(64, 2*len(d)))
	}
	start := len(n.litBuf)
	for _, l := range d {
		n.litBuf = append(n.litBuf, blit(gv[l.verb()]*4)|l&3)
	}
	out := n.litBuf[start:len(n.litBuf):len(n.litBuf)]
	slices.Sort(out)
	return out
}
