package audit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
)

// strata groups the records of items into strata of both kinds, in report
// order: fragments S, W, V, Z, A (then others by name), (n1, n2) strata
// before m strata, then by number.
func strata(items []item, mbin int) ([]Stratum, map[Stratum][]int) {
	groups := map[Stratum][]int{}
	for i, it := range items {
		lo, frag := (int(it.m)-1)/mbin*mbin+1, it.fragment()
		for _, s := range []Stratum{
			{Kind: "n1-n2", Fragment: frag, N1: int(it.n1), N2: int(it.n2)},
			{Kind: "m", Fragment: frag, MLo: lo, MHi: lo + mbin - 1},
		} {
			groups[s] = append(groups[s], i)
		}
	}
	keys := make([]Stratum, 0, len(groups))
	for s := range groups {
		keys = append(keys, s)
	}
	slices.SortFunc(keys, func(a, b Stratum) int {
		return cmp.Or(cmp.Compare(b.Kind, a.Kind), // "n1-n2" before "m"
			fragments.CompareNames(a.Fragment, b.Fragment),
			cmp.Compare(a.N1, b.N1), cmp.Compare(a.N2, b.N2), cmp.Compare(a.MLo, b.MLo))
	})
	return keys, groups
}

// String names the stratum as the text report does, e.g. "A n1=3 n2=4" or
// "A m=16-20".
func (s Stratum) String() string {
	if s.Kind == "m" {
		return fmt.Sprintf("%s m=%d-%d", s.Fragment, s.MLo, s.MHi)
	}
	return fmt.Sprintf("%s n1=%d n2=%d", s.Fragment, s.N1, s.N2)
}

func mutualInfoReport(train []item, feats []Feature, o Options) MutualInfo {
	mi := MutualInfo{Split: "train", Records: len(train), Permutations: o.Permutations, Strata: []MIStratum{}}
	mi.Features = roundMI(mutualInfo(train, feats, o.Permutations, o.Seed))
	keys, groups := strata(train, o.MBin)
	for _, s := range keys {
		idx := groups[s]
		if len(idx) < o.MinStratum {
			continue
		}
		sub := make([]item, len(idx))
		for k, i := range idx {
			sub[k] = train[i]
		}
		mi.Strata = append(mi.Strata, MIStratum{Stratum: s, Records: len(idx), Features: roundMI(mutualInfo(sub, feats, o.Permutations, o.Seed))})
	}
	return mi
}

func roundMI(ms []MI) []MI {
	for i := range ms {
		ms[i].Plugin, ms[i].MillerMadow, ms[i].Permuted, ms[i].Excess = r6(ms[i].Plugin), r6(ms[i].MillerMadow), r6(ms[i].Permuted), r6(ms[i].Excess)
	}
	return ms
}

// evaluate scores the trained models on split s, overall, per feature and
// per stratum, and gives the split's verdict.
func (m *models) evaluate(s *split, o Options) SplitResult {
	y := labelsOf(s.items)
	base, look := m.predict(s.items)
	r := SplitResult{Split: s.name, Records: len(s.items), Strata: []StratumScore{}}
	for k, name := range m.names {
		r.Baselines = append(r.Baselines, score(name, base[k], y, nil, o))
	}
	for f := range m.feats {
		r.Lookups = append(r.Lookups, score(m.feats[f].Name, look[f], y, nil, o))
	}
	keys, groups := strata(s.items, o.MBin)
	for _, st := range keys {
		idx := groups[st]
		if len(idx) < o.MinStratum {
			r.SmallStrata++
			continue
		}
		ss := StratumScore{Stratum: st, Records: len(idx)}
		for k, name := range m.names {
			ss.Baselines = append(ss.Baselines, score(name, base[k], y, idx, o))
		}
		r.Strata = append(r.Strata, ss)
	}
	r.Verdict = m.verdict(r, o)
	r.Fragments = m.byFragment(s.items, base, look, y, o)
	return r
}

// byFragment scores the predictions on each fragment's records alone,
// when the items hold more than one fragment (nil otherwise), for each
// fragment with at least MinStratum records.
func (m *models) byFragment(items []item, base [][]int8, look [][]int8, y []int8, o Options) []FragmentResult {
	var out []FragmentResult
	// As for a stratum, a fragment with fewer than MinStratum records is
	// too small to tell a shortcut from the many chances.
	for _, g := range fragmentGroups(items, o.MinStratum) {
		f, idx := g.fragment, g.idx
		r := SplitResult{}
		for k, name := range m.names {
			r.Baselines = append(r.Baselines, score(name, base[k], y, idx, o))
		}
		for k := range m.feats {
			r.Lookups = append(r.Lookups, score(m.feats[k].Name, look[k], y, idx, o))
		}
		out = append(out, FragmentResult{Fragment: f, Records: len(idx), Baselines: r.Baselines, Lookups: r.Lookups, Verdict: m.verdict(r, o)})
	}
	return out
}

// verdict names every predictor above the threshold and what drives it:
// the largest weights of the count model, the strongest n-grams of the
// n-gram model.
func (m *models) verdict(r SplitResult, o Options) Verdict {
	v := Verdict{Leaks: []string{}}
	var descs []string
	best := r.Baselines[0]
	for k, s := range r.Baselines {
		if s.Lo > best.Lo {
			best = s
		}
		if !s.Above {
			continue
		}
		v.Leaks = append(v.Leaks, s.Name)
		d := fmt.Sprintf("%s %s", s.Name, accuracy(s))
		switch {
		case k == 0:
			d += " (the labels are unbalanced)"
		case k == 1:
			d += fmt.Sprintf(" (largest weights: %s)", strings.Join(topNames(m.feats, m.counts.W, 2), ", "))
		case k == 2:
			d += fmt.Sprintf(" (strongest n-grams: %s)", strings.Join(topGrams(m.vocab, m.bow.W, 3), ", "))
		case k == len(r.Baselines)-1:
			d += " (skeletons and word degrees, with their interactions)"
		case m.extra[k-3].Grams != nil:
			d += fmt.Sprintf(" (strongest n-grams: %s)", strings.Join(topGrams(m.extra[k-3].vocab, m.extra[k-3].grams.W, 3), ", "))
		}
		descs = append(descs, d)
	}
	for _, s := range r.Lookups {
		if s.Lo > best.Lo {
			best = s
			best.Name = "feature " + s.Name
		}
		if s.Above {
			v.Leaks = append(v.Leaks, "feature:"+s.Name)
			descs = append(descs, fmt.Sprintf("feature %s alone %s", s.Name, accuracy(s)))
		}
	}
	v.Shortcut = len(descs) > 0
	if v.Shortcut {
		v.Text = fmt.Sprintf("surface shortcut above %s: %s", percent(o.Threshold), strings.Join(descs, "; "))
	} else {
		v.Text = fmt.Sprintf("no surface shortcut above %s (highest lower bound: %s %s)", percent(o.Threshold), best.Name, accuracy(best))
	}
	return v
}

// topNames returns the names of the k largest weights in absolute value.
func topNames(fs []Feature, w []float64, k int) []string {
	idx := make([]int, len(w))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(abs(w[b]), abs(w[a])) })
	var names []string
	for _, i := range idx[:min(k, len(idx))] {
		names = append(names, fs[i].Name)
	}
	return names
}

// topGrams returns the n-grams of vocab with the k largest weights w in
// absolute value, quoted.
func topGrams(vocab []string, w []float64, k int) []string {
	idx := make([]int, len(vocab))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(abs(w[b]), abs(w[a])) })
	var names []string
	for _, i := range idx[:min(k, len(idx))] {
		names = append(names, fmt.Sprintf("%q", vocab[i]))
	}
	return names
}

func abs(x float64) float64 { return max(x, -x) }

// accuracy formats a score as "71.2% [69.0, 73.3]".
func accuracy(s Score) string {
	return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*s.Accuracy, 100*s.Lo, 100*s.Hi)
}

func percent(x float64) string { return fmt.Sprintf("%.4g%%", 100*x) }
