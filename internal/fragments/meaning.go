package fragments

import (
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/fol"
)

// Meaning returns a key of the proposition a sentence expresses: two
// sentences of the fragments have the same key exactly when their
// formulas are logically equivalent ("Every artist is a baker" and "No
// non-baker is an artist"; "Some artist is a baker" and "Some baker is an
// artist"). The key is the formula in negation normal form, prenex, with
// the conjuncts and disjuncts of its matrix sorted and its variables named
// so that the key is least; TestMeaningIsEquivalence checks, over every
// pair of sentences with at most three nouns and two verbs, that equal
// keys and equivalence coincide.
func (s Sentence) Meaning() string { return meaning(s.Formula()) }

// quant is one quantifier of a prenex prefix.
type quant struct {
	all bool
	v   fol.Var
}

func meaning(f fol.Formula) string {
	var prefix []quant
	m := prenex(nnf(f, false), &prefix)
	best := ""
	for _, names := range renamings(prefix) {
		var b strings.Builder
		// The quantifiers only; the names of a block's variables are
		// interchangeable, and the matrix fixes them.
		for _, q := range prefix {
			if q.all {
				b.WriteString("A")
			} else {
				b.WriteString("E")
			}
		}
		b.WriteString(".")
		c := canonical(m, names)
		if c == top || c == bottom {
			return c // a tautology or a contradiction: its quantifiers do not matter
		}
		b.WriteString(c)
		if best == "" || b.String() < best {
			best = b.String()
		}
	}
	return best
}

// nnf returns f (negated when neg) in negation normal form, without
// implications.
func nnf(f fol.Formula, neg bool) fol.Formula {
	switch g := f.(type) {
	case *fol.Atom:
		return fol.Lit(!neg, g)
	case *fol.Not:
		return nnf(g.F, !neg)
	case *fol.And:
		return junction(g.Fs, neg, !neg)
	case *fol.Or:
		return junction(g.Fs, neg, neg)
	case *fol.Implies:
		return junction([]fol.Formula{&fol.Not{F: g.L}, g.R}, neg, neg)
	case *fol.Forall:
		if neg {
			return &fol.Exists{V: g.V, Body: nnf(g.Body, true)}
		}
		return &fol.Forall{V: g.V, Body: nnf(g.Body, false)}
	case *fol.Exists:
		if neg {
			return &fol.Forall{V: g.V, Body: nnf(g.Body, true)}
		}
		return &fol.Exists{V: g.V, Body: nnf(g.Body, false)}
	}
	return f
}

// junction is the conjunction (and set) or disjunction of fs, each negated
// when neg.
func junction(fs []fol.Formula, neg, and bool) fol.Formula {
	out := make([]fol.Formula, len(fs))
	for i, g := range fs {
		out[i] = nnf(g, neg)
	}
	if and {
		return &fol.And{Fs: out}
	}
	return &fol.Or{Fs: out}
}

// prenex moves the quantifiers of an NNF formula to the front, in the
// order they are met, and returns the matrix. The fragments' formulas
// quantify distinct variables, so no quantifier captures another's.
func prenex(f fol.Formula, prefix *[]quant) fol.Formula {
	switch g := f.(type) {
	case *fol.Forall:
		*prefix = append(*prefix, quant{true, g.V})
		return prenex(g.Body, prefix)
	case *fol.Exists:
		*prefix = append(*prefix, quant{false, g.V})
		return prenex(g.Body, prefix)
	case *fol.And:
		out := make([]fol.Formula, len(g.Fs))
		for i, h := range g.Fs {
			out[i] = prenex(h, prefix)
		}
		return &fol.And{Fs: out}
	case *fol.Or:
		out := make([]fol.Formula, len(g.Fs))
		for i, h := range g.Fs {
			out[i] = prenex(h, prefix)
		}
		return &fol.Or{Fs: out}
	}
	return f
}

// renamings lists the names of the prefix's variables to try: by
// position, and, within each block of like quantifiers, every order.
func renamings(prefix []quant) []map[fol.Var]string {
	out := []map[fol.Var]string{{}}
	for start := 0; start < len(prefix); {
		end := start
		for end < len(prefix) && prefix[end].all == prefix[start].all {
			end++
		}
		var next []map[fol.Var]string
		for _, base := range out {
			for _, perm := range permutations(end - start) {
				names := map[fol.Var]string{}
				for v, n := range base {
					names[v] = n
				}
				for k, p := range perm {
					names[prefix[start+k].v] = string(rune('a' + start + p))
				}
				next = append(next, names)
			}
		}
		out, start = next, end
	}
	return out
}

// permutations lists the orders of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(slices.Clone(p[:i]), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// canonical writes an NNF matrix with renamed variables, nested
// conjunctions and disjunctions flattened, their members sorted and
// repeated ones dropped.
func canonical(f fol.Formula, names map[fol.Var]string) string {
	switch g := f.(type) {
	case *fol.Atom:
		args := make([]string, len(g.Args))
		for i, a := range g.Args {
			args[i] = names[a]
		}
		return g.Pred + "(" + strings.Join(args, ",") + ")"
	case *fol.Not:
		return "-" + canonical(g.F, names)
	case *fol.And:
		return members(g.Fs, names, true)
	case *fol.Or:
		return members(g.Fs, names, false)
	}
	return fol.String(f)
}

// top and bottom are the keys of a valid and an unsatisfiable matrix
// (from repeated words: "Every baker who is a chemist is a baker").
const (
	top    = "T"
	bottom = "F"
)

func members(fs []fol.Formula, names map[fol.Var]string, and bool) string {
	var out []string
	var walk func(fs []fol.Formula)
	walk = func(fs []fol.Formula) {
		for _, g := range fs {
			if a, ok := g.(*fol.And); ok && and {
				walk(a.Fs)
			} else if o, ok := g.(*fol.Or); ok && !and {
				walk(o.Fs)
			} else {
				out = append(out, canonical(g, names))
			}
		}
	}
	walk(fs)
	// A member that decides the whole, or that the whole absorbs.
	unit, absorbing := top, bottom
	if !and {
		unit, absorbing = bottom, top
	}
	out = slices.DeleteFunc(out, func(m string) bool { return m == unit })
	has := map[string]bool{}
	for _, m := range out {
		has[m] = true
	}
	for _, m := range out {
		if m == absorbing || has["-"+m] {
			return absorbing
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	switch len(out) {
	case 0:
		return unit
	case 1:
		return out[0]
	}
	prefix := "|"
	if and {
		prefix = "&"
	}
	return prefix + "(" + strings.Join(out, " ") + ")"
}
