package audit

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/nlsat/nlsat/internal/learn"
)

// MI is the mutual information between the label and one discretised
// feature, in bits, over one set of records.
type MI struct {
	Feature string `json:"feature"`
	// Bins is the number of distinct values the feature takes.
	Bins int `json:"bins"`
	// Plugin is the plug-in estimate from the observed frequencies. It is
	// biased upwards: even an independent feature gets about
	// (Bins−1)/(2·N·ln 2) bits.
	Plugin float64 `json:"mi"`
	// MillerMadow subtracts the first-order bias of the three entropies:
	// (occupied cells of the label × feature table − Bins − labels seen +
	// 1)/(2·N·ln 2) bits. It can be slightly negative.
	MillerMadow float64 `json:"mi_miller_madow"`
	// Permuted is the mean plug-in estimate over random permutations of the
	// labels: what this feature scores when it cannot know the label.
	Permuted float64 `json:"mi_permuted"`
	// Excess is Plugin − Permuted: the information beyond what the
	// feature's number of bins buys by chance. Features are ranked by it,
	// since Miller–Madow under-corrects when bins are many and records few.
	Excess float64 `json:"mi_excess"`
}

// mutualInfo returns the MI of each feature of feats with the labels of
// items.
func mutualInfo(items []item, feats []Feature, permutations int, seed uint64) []MI {
	labels := make([]int8, len(items))
	for i := range items {
		labels[i] = items[i].label
	}
	// The permutations are drawn once and shared by all features.
	rng := rand.New(rand.NewPCG(seed, uint64(len(items))))
	perms := make([][]int8, permutations)
	for p := range perms {
		perms[p] = slices.Clone(labels)
		rng.Shuffle(len(labels), func(i, j int) { perms[p][i], perms[p][j] = perms[p][j], perms[p][i] })
	}
	out := make([]MI, len(feats))
	bins := make([]int, len(items))
	for f := range feats {
		for i := range items {
			bins[i] = feats[f].Bin(items[i].xs()[f])
		}
		mi, cells, nb := learn.PluginMI(bins, labels)
		labelsSeen := 0
		for _, c := range learn.LabelCounts(labels) {
			if c > 0 {
				labelsSeen++
			}
		}
		perm := 0.0
		for _, pl := range perms {
			v, _, _ := learn.PluginMI(bins, pl)
			perm += v
		}
		if permutations > 0 {
			perm /= float64(permutations)
		}
		bias := float64(cells-nb-labelsSeen+1) / (2 * float64(len(items)) * math.Ln2)
		out[f] = MI{Feature: feats[f].Name, Bins: nb, Plugin: mi, MillerMadow: mi - bias, Permuted: perm, Excess: mi - perm}
	}
	return out
}
