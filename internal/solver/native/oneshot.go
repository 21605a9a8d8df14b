package native

import (
	"errors"

	"github.com/nlsat/nlsat/internal/sat"
)

// errTooBig says that the one-shot encoding would be too large to build.
var errTooBig = errors.New("one-shot encoding too large")

// maxClassPairs bounds the pairs of signature classes the one-shot
// encoding examines for conflicts.
const maxClassPairs = 4_000_000

// oneShot decides the problem by the one-shot SAT encoding of the design's
// section 8, the exact fallback when the clique-repair search exceeds its
// node budget. It needs the explicit pattern space (initTyper): the keys
// are the c-free patterns of the root's greatest fixpoint G and, per
// existential, the keys viable with respect to G. Theorem 1 then becomes a
// propositional problem: which keys are in T (in_k), the reflexive atoms of
// each (ρ), which requirements each witnesses itself (self), and per
// requirement and signature a witness variable W that needs some eligible
// pattern of G in T. Pairs of keys whose pair problem is unsatisfiable are
// excluded through the sides X, Y of the conflicts found between
// signature classes (in_k → R_X for every side X that holds of k, and
// ¬R_X ∨ ¬R_Y). A model gives T, its reflexive atoms and its witnesses,
// from which the usual builder makes a model to check.
func (t *typer[P]) oneShot(s *sat.Solver) (*typeSet[P], error) {
	g := t.cloneSet(t.mono0)
	t.gfp(g)
	if t.ctx.Err() != nil {
		return nil, errCanceled
	}
	o := &encoder[P]{t: t, s: s, wvar: map[[2]int]int{}, rvar: map[guard[P]]int{}}
	s.Reset()
	s.Options.MaxConflicts = 0
	g.each(func(u uint64) bool {
		o.addKey(t.info(key[P]{pOf[P](u), -1}))
		return len(o.keys)%256 != 0 || t.ctx.Err() == nil
	})
	o.cfree = len(o.keys)
	for c := range t.monoc {
		first := len(o.keys)
		t.monoc[c].each(func(u uint64) bool {
			if ki := t.info(key[P]{pOf[P](u), c}); t.viableIn(ki, g) {
				o.addKey(ki)
			}
			return t.ctx.Err() == nil
		})
		o.cover(first)
	}
	if t.ctx.Err() != nil {
		return nil, errCanceled // the loops above stopped short
	}
	if len(t.monoc) == 0 {
		o.cover(0)
	}
	if need := int64(len(o.keys)) * int64(t.nverbs+len(t.n.qs)+4) * 64; t.budget > 0 && need > t.budget {
		return nil, errMemory
	}
	if t.budget > 0 && o.witnessBytes() > t.budget {
		return nil, errMemory
	}
	for i := range o.keys {
		if i%64 == 0 && t.ctx.Err() != nil {
			return nil, errCanceled
		}
		o.requirements(i, g)
	}
	if err := o.conflicts(); err != nil {
		return nil, err
	}
	switch s.Solve() {
	case sat.Unsat:
		return nil, nil
	case sat.Unknown:
		return nil, errCanceled
	}
	return o.typeSet(g), nil
}

// viableIn reports whether k is viable with respect to g.
func (t *typer[P]) viableIn(k *kinfo[P], g bitset) bool {
	_, ok := t.viable(k, g)
	return ok
}

// encoder builds the one-shot encoding.
type encoder[P pat] struct {
	t     *typer[P]
	s     *sat.Solver
	keys  []*kinfo[P]
	in    []int // per key, in_k
	rho   []int // per key, the first of its reflexive atoms (one per verb)
	cfree int   // keys[:cfree] are the c-free patterns of G, in order
	self  [][]int
	wvar  map[[2]int]int   // per requirement and signature, W
	wsets [][2]int         // per W (in creation order), its requirement and signature
	rvar  map[guard[P]]int // per conflict side, R
	sides []guard[P]       // the sides, in creation order
	lits  []sat.Lit
}

// addKey adds key k with its in variable, its reflexive atoms and its (T1)
// clauses: in_k implies every ∀∀-clause whose guards both hold of k, read
// at x = y.
func (o *encoder[P]) addKey(k *kinfo[P]) {
	t, s := o.t, o.s
	in := s.AddVars(1)
	rho := s.AddVars(t.nverbs)
	o.keys = append(o.keys, k)
	o.in, o.rho = append(o.in, in), append(o.rho, rho)
	for _, i := range k.xs {
		if !k.ym.has(uint64(i)) {
			continue
		}
		o.lits = append(o.lits[:0], sat.Neg(in))
		taut := false
		for _, d := range t.n.cs[i].d {
			l := o.refl(rho, d)
			taut = taut || len(o.lits) > 1 && o.lits[1] == l.Not()
			o.lits = append(o.lits, l)
		}
		if !taut {
			s.AddClause(o.lits...)
		}
	}
}

// refl is the reflexive atom literal of d for the key whose atoms start at
// rho.
func (o *encoder[P]) refl(rho int, d blit) sat.Lit {
	r := d.refl()
	return sat.Mk(rho+r>>1, r&1 == 0)
}

// cover adds the clause that some key from first on is in T: coverage of
// an existential, or non-emptiness without existentials.
func (o *encoder[P]) cover(first int) {
	o.lits = o.lits[:0]
	for _, in := range o.in[first:] {
		o.lits = append(o.lits, sat.Pos(in))
	}
	o.s.AddClause(o.lits...) // empty: unsatisfiable
}

// requirements adds, for each requirement of key i: in_k implies self or
// the W of its requirement and signature; self implies Y_j of k and E_j
// on k's reflexive atoms.
func (o *encoder[P]) requirements(i int, g bitset) {
	t, s, k := o.t, o.s, o.keys[i]
	selfs := make([]int, len(k.reqs))
	for r, j := range k.reqs {
		q := &t.n.qs[j]
		self := s.AddVars(1)
		selfs[r] = self
		if !q.y.applies(k.k) {
			s.AddClause(sat.Neg(self))
		}
		for _, e := range q.e {
			s.AddClause(sat.Neg(self), o.refl(o.rho[i], e))
		}
		s.AddClause(sat.Neg(o.in[i]), sat.Pos(self), sat.Pos(o.witness(j, k, g)))
	}
	o.self = append(o.self, selfs)
}

// witnessBytes bounds the memory of the witness clauses: one W per
// requirement and signature of the keys, each a clause of up to every
// c-free key, four bytes a literal and its watches.
func (o *encoder[P]) witnessBytes() int64 {
	sigs := map[int]bool{}
	for _, k := range o.keys {
		sigs[k.sig] = true
	}
	return int64(len(o.t.n.qs)) * int64(len(sigs)) * int64(o.cfree+2) * 8
}

// witness returns the W of requirement j for keys of k's signature,
// making it (W implies that some eligible pattern of G is in T) on first
// use.
func (o *encoder[P]) witness(j int, k *kinfo[P], g bitset) int {
	id := [2]int{j, k.sig}
	if w, ok := o.wvar[id]; ok {
		return w
	}
	w := o.s.AddVars(1)
	o.wvar[id] = w
	o.wsets = append(o.wsets, id)
	o.lits = append(o.lits[:0], sat.Neg(w))
	elig := o.t.eligible(j, k)
	for i, kk := range o.keys[:o.cfree] {
		if elig.has(kk.k.u[0]) && g.has(kk.k.u[0]) {
			o.lits = append(o.lits, sat.Pos(o.in[i]))
		}
	}
	o.s.AddClause(o.lits...)
	return w
}

// conflicts excludes incompatible pairs of keys: for each pair of
// signature classes whose pair problem is unsatisfiable and that no side
// rule found so far covers, the sides X, Y of its conflict; then in_k →
// R_Z for every side Z that holds of k, and ¬R_X ∨ ¬R_Y.
func (o *encoder[P]) conflicts() error {
	t := o.t
	var reps []*kinfo[P]
	seen := map[int]bool{}
	for _, k := range o.keys {
		if !seen[k.sig] {
			seen[k.sig] = true
			reps = append(reps, k)
		}
	}
	if len(reps)*len(reps) > maxClassPairs {
		return errTooBig
	}
	var rules [][2]guard[P]
	covered := func(a, b *kinfo[P]) bool {
		for _, r := range rules {
			if r[0].applies(a.k) && r[1].applies(b.k) || r[0].applies(b.k) && r[1].applies(a.k) {
				return true
			}
		}
		return false
	}
	for i, a := range reps {
		if t.ctx.Err() != nil {
			return errCanceled
		}
		for _, b := range reps[i:] {
			if covered(a, b) || t.pairSAT(a, b, nil) {
				continue
			}
			x, y, _ := t.conflict(a, b)
			rules = append(rules, [2]guard[P]{x, y})
		}
	}
	for _, r := range rules {
		o.s.AddClause(sat.Neg(o.side(r[0])), sat.Neg(o.side(r[1])))
	}
	for i, k := range o.keys {
		if i%64 == 0 && t.ctx.Err() != nil {
			return errCanceled
		}
		for _, z := range o.sides {
			if z.applies(k.k) {
				o.s.AddClause(sat.Neg(o.in[i]), sat.Pos(o.rvar[z]))
			}
		}
	}
	return nil
}

// side returns the R variable of side z.
func (o *encoder[P]) side(z guard[P]) int {
	if v, ok := o.rvar[z]; ok {
		return v
	}
	v := o.s.AddVars(1)
	o.rvar[z] = v
	o.sides = append(o.sides, z)
	return v
}

// typeSet reads T, the reflexive atoms and the witnesses from the model.
func (o *encoder[P]) typeSet(g bitset) *typeSet[P] {
	t, s := o.t, o.s
	ts := &typeSet[P]{}
	pos := map[int]int{} // key index -> member index
	for i, k := range o.keys {
		if s.Value(o.in[i]) {
			pos[i] = len(ts.members)
			ts.members = append(ts.members, k)
		}
	}
	for i := range o.keys {
		if _, ok := pos[i]; !ok {
			continue
		}
		k := o.keys[i]
		rho := make([]bool, t.nverbs)
		for v := range rho {
			rho[v] = s.Value(o.rho[i] + v)
		}
		wit := make([]int, len(k.reqs))
		for r, j := range k.reqs {
			wit[r] = -1
			if s.Value(o.self[i][r]) {
				continue
			}
			elig := t.eligible(j, k)
			for w, kk := range o.keys[:o.cfree] {
				if _, in := pos[w]; in && elig.has(kk.k.u[0]) && g.has(kk.k.u[0]) {
					wit[r] = pos[w]
					break
				}
			}
		}
		ts.rho = append(ts.rho, rho)
		ts.wit = append(ts.wit, wit)
	}
	return ts
}
