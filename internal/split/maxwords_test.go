package split

import (
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
)

func regionConfig(f fragments.Fragment, region string, maxWords int) Config {
	return Config{Fragment: f, Train: 100, Validation: 10, Test: 10, Seed: 1, RegionFile: region, Dedup: DedupRenaming,
		DrawLimit: 20, Sampler: fragments.DefaultSampler(), Holdout: HoldoutNone, Balance: BalanceStrata, MaxWords: maxWords,
		Solver: "native", SolverName: "nlsat-native-1"}
}

// TestMaxWords plans builds of the shipped A region (m 12 to 52, at most
// 12 words a sentence) under several limits: the strata kept must be
// exactly the points with m·12 ≤ N, the manifest's plan must list every
// other point, and the card's source and the command line must say so.
func TestMaxWords(t *testing.T) {
	region, err := phase.DefaultRegion(fragments.A)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		words   int
		dropped int // of the 136 points
		err     bool
	}{
		{0, 0, false},         // off
		{1000, 0, false},      // 52 × 12 = 624 fits
		{624, 0, false},       // exactly
		{623, 1, false},       // only m = 52
		{300, 78, false},      // m ≤ 25
		{12 * 12, 134, false}, // only the two points of m = 12
		{143, 0, true},        // nothing fits
	} {
		p, err := NewPlan(regionConfig(fragments.A, "", tt.words))
		if tt.err {
			if err == nil || !strings.Contains(err.Error(), "no point of the region fits") {
				t.Errorf("--max-words %d: got %v, want an error", tt.words, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("--max-words %d: %v", tt.words, err)
		}
		var kept []phase.Point
		for _, st := range p.Pools[0].Strata {
			kept = append(kept, st.Points...)
		}
		if tt.words == 0 {
			if p.MaxWords != nil || len(kept) != len(region.Points) {
				t.Errorf("off: %+v, %d strata", p.MaxWords, len(kept))
			}
			continue
		}
		if got := len(p.MaxWords.Dropped); got != tt.dropped || len(kept)+got != len(region.Points) {
			t.Errorf("--max-words %d: dropped %d, kept %d; want %d dropped of %d", tt.words, got, len(kept), tt.dropped, len(region.Points))
		}
		for _, pt := range kept {
			if pt.M*12 > tt.words || slices.Contains(p.MaxWords.Dropped, pt) {
				t.Errorf("--max-words %d: kept m=%d", tt.words, pt.M)
			}
		}
		for _, pt := range p.MaxWords.Dropped {
			if pt.M*12 <= tt.words {
				t.Errorf("--max-words %d: dropped m=%d, which fits", tt.words, pt.M)
			}
		}
		cmd := regionConfig(fragments.A, "", tt.words).Command(p)
		if !strings.Contains(cmd, "--max-words") || !strings.Contains(p.Pools[0].Source, "--max-words") {
			t.Errorf("--max-words %d: not in the command %q or the source %q", tt.words, cmd, p.Pools[0].Source)
		}
	}
}

// TestRegionPaper plans builds with --region paper: V, Z and A draw from
// the shipped paper band (phase.PaperRegion, measured with the paper's
// labeller), S and W from their shipped true region; the card's source
// says that the band is the paper's and the labels this build's, and the
// command line carries --region paper.
func TestRegionPaper(t *testing.T) {
	for _, tt := range []struct {
		f     fragments.Fragment
		paper bool
	}{{fragments.S, false}, {fragments.W, false}, {fragments.V, true}, {fragments.Z, true}, {fragments.A, true}} {
		want, err := phase.DefaultRegion(tt.f)
		if tt.paper {
			want, err = phase.PaperRegion(tt.f)
		}
		if err != nil {
			t.Fatal(err)
		}
		if tt.paper && (want.Labeller == "" || !strings.HasPrefix(want.Labeller, "paper:")) {
			t.Errorf("%s: the paper region's labeller is %q", tt.f, want.Labeller)
		}
		c := regionConfig(tt.f, PaperRegion, 0)
		p, err := NewPlan(c)
		if err != nil {
			t.Fatalf("%s: %v", tt.f, err)
		}
		if got := RegionStrata(want.Points); !slices.EqualFunc(got, p.Pools[0].Strata, func(a, b Stratum) bool { return a.Key == b.Key }) {
			t.Errorf("%s: strata %v, want %v", tt.f, p.Pools[0].Strata, got)
		}
		src := p.Pools[0].Source
		if strings.Contains(src, "Every label of this dataset is decided by its own solver") != tt.paper || strings.Contains(src, "which is also the paper's band") == tt.paper {
			t.Errorf("%s: source %q", tt.f, src)
		}
		if !strings.Contains(c.Command(p), "--region paper") {
			t.Errorf("%s: command %q", tt.f, c.Command(p))
		}
	}
}
