package split

import (
	"fmt"
	"testing"
)

// TestShardQuotaCoversStratum: the shards that draw a stratum's
// candidates hold, at their quotas, at least the stratum's pairs of each
// label times the oversample, for every number of strata and shards,
// those sharing a factor included (where a stratum's candidates fall to
// only some of the shards: with 26 strata and 8 shards, to 4 of them,
// and a quota of 1/8 of the pairs each once left a joint build's merge
// short). Which shards draw a stratum is counted here by walking the
// candidates' indices, not by the formula.
func TestShardQuotaCoversStratum(t *testing.T) {
	const oversample = 1.2
	for _, strata := range []int{1, 2, 3, 4, 6, 7, 12, 26, 48} {
		for _, count := range []int{1, 2, 3, 4, 5, 8, 16} {
			t.Run(fmt.Sprintf("%d strata, %d shards", strata, count), func(t *testing.T) {
				pl := Pool{Name: "main", Strata: make([]Stratum, strata)}
				pairs := make([]int, strata)
				for s := range pairs {
					pairs[s] = 50 + 37*s
				}
				pl.Splits = []Split{{Name: Train, Pairs: pairs}}
				p := &Plan{Pools: []Pool{pl}}
				const start = 1000 // the candidates follow the pilots
				for s := range strata {
					holders := map[int]bool{}
					for i := start; i < start+strata*count*2; i++ {
						if i%strata == s {
							holders[i%count] = true
						}
					}
					q := p.shardQuota(0, s, count, oversample)
					if got, want := float64(q*len(holders)), oversample*float64(pairs[s]); got < want {
						t.Errorf("stratum %d: %d shards draw it, with a quota of %d each: %g, want at least %g", s, len(holders), q, got, want)
					}
				}
			})
		}
	}
}
