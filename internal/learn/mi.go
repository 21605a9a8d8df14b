package learn

import (
	"math"
	"slices"
)

// LabelCounts counts the labels 0 and 1.
func LabelCounts(labels []int8) [2]int {
	var c [2]int
	for _, l := range labels {
		c[l]++
	}
	return c
}

// PluginMI returns the plug-in mutual information in bits of bins and
// labels (0 or 1), the number of occupied cells of their joint table and
// the number of bins.
// Bins are visited in increasing order, so the sum is reproducible.
func PluginMI(bins []int, labels []int8) (mi float64, cells, nbins int) {
	joint := map[int]*[2]int{}
	for i, b := range bins {
		c := joint[b]
		if c == nil {
			c = new([2]int)
			joint[b] = c
		}
		c[labels[i]]++
	}
	py := LabelCounts(labels)
	keys := make([]int, 0, len(joint))
	for b := range joint {
		keys = append(keys, b)
	}
	slices.Sort(keys)
	n := float64(len(bins))
	for _, b := range keys {
		c := joint[b]
		nx := float64(c[0] + c[1])
		for y := range 2 {
			if c[y] == 0 {
				continue
			}
			cells++
			nxy := float64(c[y])
			mi += nxy / n * math.Log2(nxy*n/(nx*float64(py[y])))
		}
	}
	return max(mi, 0), cells, len(keys)
}
