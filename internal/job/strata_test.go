package job

import (
	"slices"
	"testing"
)

// TestStratify checks that a stratified stream's shards compute exactly
// the first budget items of each stratum from the stream's start, and
// nothing at or past the shard limit, whatever the start's stratum.
func TestStratify(t *testing.T) {
	for _, c := range []struct {
		start   int
		budgets []int
	}{
		{0, []int{3, 1, 0, 2}},
		{10, []int{2, 5, 1}},   // start in the middle of a round
		{7, []int{0, 0, 4}},    // the last stratum paces the limit
		{5, []int{0, 0}},       // nothing to draw
		{100, []int{1}},        // one stratum
		{3, []int{4, 1, 1, 1}}, // the first stratum, behind the start, paces it
	} {
		st := Stream{Start: c.start}
		st.Stratify(c.budgets)
		n := len(c.budgets)
		var want, got []int
		seen := make([]int, n)
		for i := c.start; i < c.start+n*10; i++ {
			if s := i % n; seen[s] < c.budgets[s] {
				seen[s]++
				want = append(want, i)
			}
			if i < st.ShardLimit && st.Drawn(i) {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("start %d, budgets %v: shards compute %v, want %v", c.start, c.budgets, got, want)
		}
		last := c.start
		if len(want) > 0 {
			last = want[len(want)-1] + 1
		}
		if st.ShardLimit != last {
			t.Errorf("start %d, budgets %v: shard limit %d, want %d", c.start, c.budgets, st.ShardLimit, last)
		}
	}
}
