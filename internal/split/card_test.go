package split

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCardCitesAndThinned renders the card of the golden build with other
// counts: it cites the paper in its text and in BibTeX, and states the
// share of thinned candidates once, from the manifest's own counts, and
// only under the surface balance.
func TestCardCitesAndThinned(t *testing.T) {
	tests := []struct {
		name     string
		balance  string
		counts   [][2]int // per set: candidates, thinned
		thinned  string   // the sentence expected, "" for none
		nThinned int      // how often "thinned" ... "candidates drawn" appears
	}{
		{"one set", BalanceSurface, [][2]int{{1000, 467}}, "The surface balance thinned 467 of the 1000 candidates drawn (46.7%).", 1},
		{"two sets", BalanceSurface, [][2]int{{1000, 250}, {600, 150}}, "The surface balance thinned 400 of the 1600 candidates drawn (25.0%).", 1},
		{"nothing thinned", BalanceSurface, [][2]int{{800, 0}}, "The surface balance thinned 0 of the 800 candidates drawn (0.0%).", 1},
		{"strata balance", BalanceStrata, [][2]int{{800, 0}}, "", 0},
	}
	for _, tt := range tests {
		m, err := ReadManifest(filepath.Join("testdata", "small-Z."+ManifestFile))
		if err != nil {
			t.Fatal(err)
		}
		m.Plan.Balance.Mode = tt.balance
		m.Sets = m.Sets[:0]
		for i, c := range tt.counts {
			m.Sets = append(m.Sets, SetReport{Name: []string{"main", "extra"}[i], Counts: Counts{Candidates: c[0], Thinned: c[1]}})
		}
		card := Card(m)
		if tt.thinned != "" && !strings.Contains(card, tt.thinned) {
			t.Errorf("%s: the card does not say %q", tt.name, tt.thinned)
		}
		if n := strings.Count(card, "candidates drawn ("); n != tt.nThinned {
			t.Errorf("%s: the share of thinned candidates is stated %d times, want %d", tt.name, n, tt.nThinned)
		}
		for _, want := range []string{
			PaperCitation,
			"@misc{madusanka2025nls,",
			"author        = {Madusanka, Tharindu and Pratt-Hartmann, Ian and Batista-Navarro, Riza},",
			"eprint        = {2508.17153},",
			"@software{nlsat,",
		} {
			if strings.Count(card, want) != 1 {
				t.Errorf("%s: the card does not say %q once", tt.name, want)
			}
		}
	}
}
