package split

import (
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

// TestMainPools checks which sets hold train, validation and test, and
// the pilots they get: with the surface balance, validation and test are
// a set of their own whose pilot is as large as train's (both sized for
// the three splits together), so that train and test are thinned by
// models fitted to different candidates.
func TestMainPools(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Config)
		sets    []string // "name: split split ..."
		pilots  []int
		pilotOf int // the pilot a one-set build of these sizes gets
	}{
		{"surface", func(c *Config) {}, []string{"main: train", "evaluation: validation test"}, []int{14000, 14000}, 14000},
		{"strata", func(c *Config) { c.Balance = BalanceStrata }, []string{"main: train validation test"}, []int{0}, 0},
		{"train only", func(c *Config) { c.Validation, c.Test = 0, 0 }, []string{"main: train"}, []int{10000}, 10000},
		{"no train", func(c *Config) { c.Train = 0 }, []string{"main: validation test"}, []int{10000}, 10000},
		{"vocabulary held out", func(c *Config) { c.Holdout, c.HoldoutShare = HoldoutVocabulary, 0.2 },
			[]string{"main: train validation", "test: test"}, []int{12000, 8000}, 0},
		{"large", func(c *Config) { c.Train, c.Validation, c.Test = 60000, 6000, 6000 },
			[]string{"main: train", "evaluation: validation test"}, []int{100000, 100000}, 100000},
	}
	for _, tt := range tests {
		c := regionConfig(fragments.V, "", 0)
		c.Train, c.Validation, c.Test = 5000, 1000, 1000
		c.Balance, c.Pilot = BalanceSurface, DefaultPilot
		tt.edit(&c)
		p, err := NewPlan(c)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var sets []string
		var pilots []int
		for k, pl := range p.Pools {
			var names []string
			for _, sp := range pl.Splits {
				names = append(names, sp.Name)
			}
			sets = append(sets, pl.Name+": "+strings.Join(names, " "))
			pilots = append(pilots, p.PilotFor(k))
		}
		if !slices.Equal(sets, tt.sets) || !slices.Equal(pilots, tt.pilots) {
			t.Errorf("%s: sets %q with pilots %v, want %q with %v", tt.name, sets, pilots, tt.sets, tt.pilots)
		}
		if len(p.Pools) == 2 && p.Pools[1].Name == evaluationPool {
			// Train's pilot is the one the whole build would have had
			// in one set: the same candidates, fitted the same way.
			one := *p
			one.Pools = []Pool{p.Pools[0]}
			one.Pools[0].Splits = append(slices.Clone(p.Pools[0].Splits), p.Pools[1].Splits...)
			one.Pools[0].PilotSize = 0
			if got := one.PilotFor(0); got != tt.pilotOf || got != pilots[0] {
				t.Errorf("%s: one set would get a pilot of %d, train's set gets %d, want %d", tt.name, got, pilots[0], tt.pilotOf)
			}
		}
	}
}
