package native

import "github.com/nlsat/nlsat/internal/sat"

// The outcomes of one lazy BUILD.
const (
	lzBuilt    = iota // a type set without conflicts
	lzConflict        // two members conflict: branch on their guards
	lzRestart         // a member was not viable: a nogood was learnt
	lzUnsat           // some existential has no allowed key
)

// maxTries bounds the keys tried, per choice, in search of one compatible
// with every member so far.
const maxTries = 8

// preferCompatible returns the first key next yields that is compatible
// with every member, trying at most maxTries; after an incompatible key,
// next is called again with that key's side of the conflict added to the
// guards excl it must avoid (and, with useTmp, excluded in the solver
// under the temporary activation variable tmp). Failing that it returns
// the first key. ok is false when next yields no key at all.
func (l *lazy[P]) preferCompatible(b *builder[P], useTmp bool, next func(tmp int, excl []guard[P]) (*kinfo[P], bool, error)) (*kinfo[P], bool, error) {
	tmp := -1
	defer func() { l.retire(tmp) }()
	var first *kinfo[P]
	var excl []guard[P]
	for try := 0; ; try++ {
		k, ok, err := next(tmp, excl)
		switch {
		case err != nil:
			return nil, false, err
		case !ok:
			return first, first != nil, nil
		}
		if first == nil {
			first = k
		}
		m := b.incompatible(k)
		if m == nil || try+1 >= maxTries {
			if m == nil {
				return k, true, nil
			}
			return first, true, nil
		}
		x, _, _ := l.t.conflict(k, m)
		excl = append(excl, x)
		if useTmp {
			if tmp < 0 {
				tmp = l.actVars(1)
			}
			l.exclude(x, tmp)
		}
	}
}

// candidate picks an allowed key with fresh predicate c, preferring one
// compatible with the members so far; ok is false when there is none,
// and sup then holds the sentences of the refutation.
func (l *lazy[P]) candidate(b *builder[P], c int) (k *kinfo[P], ok bool, sup sset, err error) {
	k, ok, err = l.preferCompatible(b, false, func(_ int, excl []guard[P]) (*kinfo[P], bool, error) {
		u, ok, s, err := l.pick(c, excl)
		if !ok || err != nil {
			sup = s
			return nil, false, err
		}
		return l.t.info(key[P]{u, c}), true, nil
	})
	return k, ok, sup, err
}

// anyPattern picks an allowed c-free pattern, for problems without
// existentials; ok is false when there is none, and sup then holds the
// sentences of the refutation.
func (l *lazy[P]) anyPattern() (k *kinfo[P], ok bool, sup sset, err error) {
	u, ok, sup, err := l.pick(-1, nil)
	if !ok || err != nil {
		return nil, false, sup, err
	}
	return l.t.info(key[P]{u, -1}), true, nil, nil
}

// newWitness picks a witness for requirement j of a: first (the answer of
// its witness query) if it is compatible with every member, else another
// witness that is, if one is found within maxTries.
func (l *lazy[P]) newWitness(b *builder[P], j int, a *kinfo[P], first P) (*kinfo[P], error) {
	tries := 0
	k, _, err := l.preferCompatible(b, true, func(tmp int, _ []guard[P]) (*kinfo[P], bool, error) {
		tries++
		if tries == 1 {
			return l.t.info(key[P]{first, -1}), true, nil
		}
		w, ok, _, _, _, err := l.witnessQuery(j, a, []sat.Lit{sat.Pos(tmp)})
		if !ok || err != nil {
			return nil, false, err
		}
		return l.t.info(key[P]{w, -1}), true, nil
	})
	return k, err
}

// process is witness with the lazy viability: the requirements whose
// witness query failed are dead, and a new witness is the query's answer
// or another found by newWitness. restart is true when the member was not
// viable (a nogood was learnt).
func (l *lazy[P]) process(b *builder[P], i int) (restart bool, err error) {
	a := b.ts.members[i]
	infos, ok, err := l.viable(a)
	if !ok || err != nil {
		return err == nil, err
	}
	dead := func(r int) bool { return infos[r].dead }
	fresh := func(r, j int) (*kinfo[P], error) { return l.newWitness(b, j, a, infos[r].w) }
	return false, b.witness(i, dead, fresh)
}

// lzBuild is the state of BUILD at one node of the search, kept across
// its restarts: the type set so far, the member that is each fresh
// predicate's key, and which members have their witnesses.
type lzBuild[P pat] struct {
	b    builder[P]
	keys []int  // per fresh predicate, its key's member; -1 none yet
	done []bool // per member, whether process has chosen its witnesses
}

// build is BUILD with the lazy viability: one key per existential, then
// the witness closure, then the conflict check. It goes on from st, the
// state the node's last BUILD left (a zero st starts afresh). With
// lzUnsat, sup and lev hold the refutation's sentences and branch depths;
// with lzConflict, sup holds those of the conflict (which depends on no
// branch).
func (l *lazy[P]) build(st *lzBuild[P]) (ts *typeSet[P], x, y guard[P], status int, sup sset, lev lset, err error) {
	t := l.t
	if st.b.ts == nil {
		st.b = builder[P]{t: t, ts: &typeSet[P]{}}
		st.keys = make([]int, len(t.n.csrc))
		for c := range st.keys {
			st.keys[c] = -1
		}
		st.done = st.done[:0]
	}
	b := &st.b
	for c := range t.n.csrc {
		if err := t.ctx.Err(); err != nil {
			return nil, x, y, 0, nil, nil, errCanceled
		}
		if st.keys[c] >= 0 {
			continue
		}
		k, ok, sup, err := l.candidate(b, c)
		if err != nil || !ok {
			return nil, x, y, lzUnsat, l.with(sup, t.n.csrc[c]), l.failLev, err
		}
		st.keys[c] = b.add(k)
	}
	if len(b.ts.members) == 0 {
		k, ok, sup, err := l.anyPattern()
		if err != nil || !ok {
			return nil, x, y, lzUnsat, sup, l.failLev, err
		}
		b.add(k)
	}
	for i := 0; i < len(b.ts.members); i++ {
		for len(st.done) <= i {
			st.done = append(st.done, false)
		}
		if st.done[i] {
			continue
		}
		if err := t.ctx.Err(); err != nil {
			return nil, x, y, 0, nil, nil, errCanceled
		}
		if l.overBudget() {
			return nil, x, y, 0, nil, nil, errMemory
		}
		t.processed++
		restart, err := l.process(b, i)
		if err != nil {
			return nil, x, y, 0, nil, nil, err
		}
		if restart {
			if l.rebuild {
				*st = lzBuild[P]{}
			} else {
				st.remove(l.goods[len(l.goods)-1].g, i)
			}
			return nil, x, y, lzRestart, nil, nil, nil
		}
		st.done[i] = true
	}
	ms := b.ts.members
	for i := range ms {
		if err := t.ctx.Err(); err != nil {
			return nil, x, y, 0, nil, nil, errCanceled
		}
		for j := i + 1; j < len(ms); j++ {
			if t.compatible(ms[i], ms[j]) {
				continue
			}
			if x, y, bad := t.conflict(ms[i], ms[j]); bad {
				sup := l.union(nil, nil)
				for _, pc := range t.scratch.conflict {
					src := t.n.cs[pc.item].src
					sup[src/64] |= 1 << (src % 64)
				}
				return nil, x, y, lzConflict, sup, nil, nil
			}
		}
	}
	return b.ts, x, y, lzBuilt, nil, nil, nil
}

// remove removes from st the members in region g and member i (-1:
// none); after member i was found not viable, g is the nogood just learnt,
// and a later BUILD goes on from what is left. A member whose witness was
// removed loses its witnesses, and a fresh predicate whose key was removed
// its key, to be chosen again.
func (st *lzBuild[P]) remove(g guard[P], i int) {
	ts := st.b.ts
	for len(st.done) < len(ts.members) {
		st.done = append(st.done, false)
	}
	at := make([]int, len(ts.members)) // new index per old one, -1 removed
	n := 0
	for j, m := range ts.members {
		if j == i || g.applies(m.k) {
			at[j] = -1
			continue
		}
		at[j] = n
		ts.members[n] = m
		if j < len(ts.wit) {
			ts.wit[n], ts.rho[n] = ts.wit[j], ts.rho[j]
		}
		st.done[n] = st.done[j]
		n++
	}
	clear(ts.members[n:])
	ts.members = ts.members[:n]
	if len(ts.wit) > n {
		ts.wit, ts.rho = ts.wit[:n], ts.rho[:n]
	}
	st.done = st.done[:n]
	for j := range ts.wit {
		if !st.done[j] {
			continue
		}
		w := ts.wit[j]
		for r, v := range w {
			if v < 0 {
				continue
			}
			if at[v] < 0 {
				st.done[j] = false
				break
			}
			w[r] = at[v]
		}
	}
	for c, k := range st.keys {
		if k >= 0 {
			st.keys[c] = at[k]
		}
	}
}
