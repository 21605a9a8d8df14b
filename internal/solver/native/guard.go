package native

// A guard is a conjunction of unary literals over the nouns, optionally with
// one fresh existential predicate. It applies to a key k when
// k.u&mask == val and, if c >= 0, k.c == c.
type guard[P pat] struct {
	mask, val P
	c         int
}

// noGuard returns the empty conjunction: it applies to every key.
func noGuard[P pat]() guard[P] { return guard[P]{c: -1} }

// key is a pattern of the search space: a noun pattern u and at most one
// fresh predicate c (-1 for none).
type key[P pat] struct {
	u P
	c int
}

// applies reports whether g holds of the key k.
func (g guard[P]) applies(k key[P]) bool {
	return pAnd(k.u, g.mask) == g.val && (g.c < 0 || g.c == k.c)
}

// with adds the literal ±noun i to g; ok is false when g becomes p ∧ ¬p.
func (g guard[P]) with(i int, neg bool) (guard[P], bool) {
	if pHas(g.mask, i) {
		return g, pHas(g.val, i) == !neg
	}
	b := pBit[P](i)
	g.mask = pOr(g.mask, b)
	if !neg {
		g.val = pOr(g.val, b)
	}
	return g, true
}

// join returns the conjunction of g and h; ok is false when it is
// inconsistent (p ∧ ¬p, or two different fresh predicates).
func (g guard[P]) join(h guard[P]) (guard[P], bool) {
	common := pAnd(g.mask, h.mask)
	if pAnd(g.val, common) != pAnd(h.val, common) {
		return g, false
	}
	if g.c >= 0 && h.c >= 0 && g.c != h.c {
		return g, false
	}
	out := guard[P]{mask: pOr(g.mask, h.mask), val: pOr(g.val, h.val), c: g.c}
	if out.c < 0 {
		out.c = h.c
	}
	return out, true
}

// subsumes reports whether g applies to every key h applies to, i.e. g's
// literals are a subset of h's.
func (g guard[P]) subsumes(h guard[P]) bool {
	if !pEmpty(pAndNot(g.mask, h.mask)) || pAnd(h.val, g.mask) != g.val {
		return false
	}
	return g.c < 0 || g.c == h.c
}

// size is the number of literals of g.
func (g guard[P]) size() int {
	n := pCount(g.mask)
	if g.c >= 0 {
		n++
	}
	return n
}

// A blit is a binary literal coded verb*4 + orient*2 + neg, where orient 0
// is r(x,y) and orient 1 is r(y,x). Negation flips bit 0, swapping x and y
// flips bit 1.
type blit int

func mkBlit(verb, orient int, neg bool) blit {
	l := blit(verb*4 + orient*2)
	if neg {
		l |= 1
	}
	return l
}

func (l blit) neg() blit  { return l ^ 1 }
func (l blit) swap() blit { return l ^ 2 }
func (l blit) verb() int  { return int(l) >> 2 }

// refl is the literal on the reflexive atom r(a,a) that l becomes when x
// and y name the same element, as a 2-SAT literal over verbs.
func (l blit) refl() int { return (int(l)>>2)<<1 | int(l)&1 }
