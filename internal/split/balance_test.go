package split

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/cardtest"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/solver"
)

func TestKeepProb(t *testing.T) {
	r := PClip / (1 - PClip)
	tests := []struct {
		p, odds    float64
		sat, unsat float64
	}{
		{0.5, 1, 1, 1},
		{0.8, 1, 0.25, 1},
		{0.2, 1, 1, 0.25},
		{0.99, 1, r, 1}, // clipped
		{0, 1, 1, r},
		// A pilot with twice as many of class 1: P = 2/3 is its base rate.
		{2.0 / 3, 2, 1, 1},
		{0.8, 2, 0.5, 1},
		{0.5, 2, 1, 0.5},
	}
	for _, tt := range tests {
		sat, unsat := keepProb(tt.p, dataset.LabelSat, tt.odds), keepProb(tt.p, dataset.LabelUnsat, tt.odds)
		if math.Abs(sat-tt.sat) > 1e-12 || math.Abs(unsat-tt.unsat) > 1e-12 {
			t.Errorf("p=%g odds=%g: keep sat %g unsat %g, want %g and %g", tt.p, tt.odds, sat, unsat, tt.sat, tt.unsat)
		}
		// What is kept has the pilot's odds: p·keep(sat) = odds·(1−p)·keep(unsat).
		q := math.Min(math.Max(tt.p, PClip), 1-PClip)
		if d := q*sat - tt.odds*(1-q)*unsat; math.Abs(d) > 1e-12 {
			t.Errorf("p=%g odds=%g: kept sat and unsat mass differ by %g from the pilot's odds", tt.p, tt.odds, d)
		}
	}
}

func TestFeatures(t *testing.T) {
	r := &dataset.Record{N1: 3, N2: 1,
		Sentences: []string{"Some non-artist admires every baker.", "No baker is a cook.", "Every cook who is not an artist is a baker."},
		Templates: []string{"V1.some-every", "S2", "W1"},
		Nouns:     []string{"artist", "baker", "cook"}, Verbs: []string{"admire"},
		Formulas: []string{"∃x(¬artist(x) ∧ ∀y(baker(y) → admire(x,y)))", "∀x(baker(x) → ¬cook(x))",
			"∀x(cook(x) ∧ ¬artist(x) → baker(x))"}}
	x := Features(fragments.W, r)
	names := FeatureNames(fragments.W)
	if len(x) != len(names) {
		t.Fatalf("%d features, %d names", len(x), len(names))
	}
	want := map[string]float64{
		"m": 3, "n1": 3, "n2": 1, "alpha": 1, "beta": 3, "#S2": 1, "share W1": 1.0 / 3, "#V1.some-every": 0, // not a W shape: not counted
		"#non-": 1, "#is": 3, "#a": 2, "#an": 1, "#some": 1, "#every": 2, "share² every": 4.0 / 9, "log(1+#an)": math.Log(2), "#some non-": 1, "#is not": 1, "#not an": 1, "#is a": 2, "share who is": 1.0 / 3,
		"Σ log(1+noun occurrences)": 2*math.Log(3) + math.Log(4), "Σ noun occurrences²": 4 + 9 + 4,
		"most occurrences of a noun": 3, "nouns used": 3, "Σ verb occurrences²": 1, "verbs used": 1,
		"existential share in [30%, 40%)": 1, "existential share in [0%, 10%)": 0,
	}
	got := map[string]float64{}
	for j, n := range names {
		got[n] = x[j]
	}
	for n, w := range want {
		v, ok := got[n]
		if n == "#V1.some-every" {
			if ok {
				t.Errorf("feature %q exists for W", n)
			}
			continue
		}
		if !ok || math.Abs(v-w) > 1e-12 {
			t.Errorf("%s = %g (present %v), want %g", n, v, ok, w)
		}
	}
}

// TestFeatureCounts: a surface holds its Features as counts
// (featureCounts), which give the values bit for bit, appended after
// whatever the buffer held; logarithms of counts past the table are
// computed.
func TestFeatureCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, f := range fragments.All() {
		for range 20 {
			n2 := 2 + rng.IntN(5)
			if f == fragments.S || f == fragments.W {
				n2 = 0
			}
			inst, err := fragments.Sample(rng, f, fragments.DefaultParams(), 6+rng.IntN(12), 3+rng.IntN(4), n2)
			if err != nil {
				t.Fatal(err)
			}
			r := dataset.NewRecord(inst, solver.Verdict{}, "")
			want := append([]float64{-1}, Features(f, r)...)
			s := surfaceOf(f, r)
			got := s.features([]float64{-1})
			if len(got) != len(want) || s.nfeatures() != len(want)-1 || len(FeatureNames(f)) != len(want)-1 {
				t.Fatalf("%s: %d features, want %d", f, len(got), len(want))
			}
			for j := range got {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					t.Fatalf("%s: feature %d is %v, want %v", f, j, got[j], want[j])
				}
			}
		}
	}
	for _, k := range []uint32{0, 1, 2, 255, 256, 1000, 1 << 31} {
		if got, want := log1pCount(k), math.Log1p(float64(k)); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("log1pCount(%d) = %v, want %v", k, got, want)
		}
	}
}

// TestSurfaceBalanceRemovesShortcut builds the same V split with and
// without the surface balance and audits both: without it a logistic model
// on surface counts beats chance on test, with it no baseline does, and
// the sentence-pairs baselines find nothing on the instances without a
// two-sentence contradiction.
func TestSurfaceBalanceRemovesShortcut(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two splits of 8,000")
	}
	var pairVerdicts []string
	accuracy := func(mode string) (counts, bow, gbm audit.Score) {
		p := smallPlan(t, fragments.V, 6000, 200, 2000, 0, 0)
		p.Balance = Balance{Mode: mode}
		if mode == BalanceSurface {
			p.Balance.Pilot = DefaultPilot
		}
		dir := t.TempDir()
		if _, err := Run(context.Background(), p, testOptions(dir, 0)); err != nil {
			t.Fatal(err)
		}
		rep, err := audit.Run(context.Background(), TaskAudit, dir, audit.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if mode == BalanceSurface {
			for _, ps := range rep.SentencePairs.Splits {
				if ps.Split == Test && ps.Verdict.Shortcut {
					pairVerdicts = append(pairVerdicts, ps.Verdict.Text)
				}
			}
		}
		for _, r := range rep.Results {
			if r.Split != Test {
				continue
			}
			for _, s := range r.Baselines {
				switch s.Name {
				case audit.CountsLogreg:
					counts = s
				case audit.BoWLogreg:
					bow = s
				case audit.GBMStructure:
					gbm = s
				}
			}
		}
		return counts, bow, gbm
	}
	show := func(s audit.Score) string {
		return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*s.Accuracy, 100*s.Lo, 100*s.Hi)
	}
	counts0, bow0, gbm0 := accuracy(BalanceStrata)
	t.Logf("strata balance only: counts-logreg %s, bow-logreg %s, gbm-structure %s", show(counts0), show(bow0), show(gbm0))
	if counts0.Lo <= 0.55 || bow0.Lo <= 0.55 || gbm0.Lo <= 0.55 {
		t.Fatalf("without the surface balance the baselines score %+v, %+v and %+v: the test no longer shows a shortcut to remove", counts0, bow0, gbm0)
	}
	counts, bow, gbm := accuracy(BalanceSurface)
	t.Logf("surface balance: counts-logreg %s, bow-logreg %s, gbm-structure %s", show(counts), show(bow), show(gbm))
	// What is left of the shortcut is at most a third of it, and no more
	// than estimation noise: the interval reaches down to 51%.
	for _, s := range [][2]audit.Score{{counts0, counts}, {bow0, bow}, {gbm0, gbm}} {
		before, after := s[0], s[1]
		if after.Accuracy-0.5 > (before.Accuracy-0.5)/3 || after.Lo > 0.51 {
			b, _ := json.Marshal(after)
			t.Errorf("with the surface balance %s (%.1f%% without)", b, 100*before.Accuracy)
		}
	}
	// The sentence pairs tell nothing on the instances without a
	// two-sentence contradiction (a balance of single sentences alone left
	// 59.4% [56.3, 62.4] there, AUC 0.64).
	for _, v := range pairVerdicts {
		t.Errorf("with the surface balance, test: %s", v)
	}
}

// TestCalibrationShrinksNoise fits the balance models to labels that no
// feature predicts and to labels that one feature does: the calibrated
// probabilities stay near the base rate in the first case (so thinning
// cannot plant the weights' noise as a pattern) and follow the feature in
// the second.
func TestCalibrationShrinksNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, dim = 4000, 40
	x := make([][]float64, n)
	idx := make([]int, n)
	for i := range x {
		x[i] = make([]float64, dim)
		for j := range x[i] {
			x[i][j] = float64(rng.IntN(5))
		}
		idx[i] = i
	}
	spread := func(y []int8) (lo, hi float64, corr float64) {
		m := fitStage(surfaces(x), y, idx, nil)
		lo, hi = 1, 0
		var sx, sp, sxx, spp, sxp float64
		for i := range x {
			p := m.prob(surface{x: x[i]}, -1)
			lo, hi = math.Min(lo, p), math.Max(hi, p)
			sx, sp, sxx, spp, sxp = sx+x[i][0], sp+p, sxx+x[i][0]*x[i][0], spp+p*p, sxp+x[i][0]*p
		}
		cov := sxp/n - sx/n*sp/n
		return lo, hi, cov / math.Sqrt((sxx/n-sx/n*sx/n)*(spp/n-sp/n*sp/n))
	}
	noise := make([]int8, n)
	signal := make([]int8, n)
	for i := range x {
		noise[i] = int8(rng.IntN(2))
		if rng.Float64() < 1/(1+math.Exp(-(x[i][0]-2))) {
			signal[i] = 1
		}
	}
	if lo, hi, _ := spread(noise); hi-lo > 0.1 {
		t.Errorf("labels without signal: calibrated P(sat) spans [%.3f, %.3f]", lo, hi)
	}
	if lo, hi, corr := spread(signal); hi-lo < 0.5 || corr < 0.9 {
		t.Errorf("labels following feature 0: calibrated P(sat) spans [%.3f, %.3f], correlation %.3f with the feature", lo, hi, corr)
	}
	// Labels that follow an interaction (sat when exactly one of features
	// 0 and 1 is above 2), which no linear model sees: the trees do.
	xor := make([]int8, n)
	for i := range x {
		if (x[i][0] > 2) != (x[i][1] > 2) == (rng.Float64() < 0.9) {
			xor[i] = 1
		}
	}
	m := fitStage(surfaces(x), xor, idx, nil)
	right := 0
	for i := range x {
		if (m.prob(surface{x: x[i]}, -1) >= 0.5) == (xor[i] == 1) {
			right++
		}
	}
	if acc := float64(right) / n; acc < 0.85 || m.Shortcut.Linear > 0.6 || m.Shortcut.Accuracy < 0.85 {
		t.Errorf("labels following an exclusive or: the balance model predicts %.3f of them (out of fold: linear %.3f, with trees %.3f); want above 0.85 with trees, near 0.5 without",
			acc, m.Shortcut.Linear, m.Shortcut.Accuracy)
	}
}

// TestShardsMergeHoldouts merges shards of builds held out by difficulty
// and by template pair, whose acceptance depends on more than the label:
// the merged bytes must equal the unsharded ones.
func TestShardsMergeHoldouts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds several datasets sharded and unsharded")
	}
	for _, kind := range []string{HoldoutDifficulty, HoldoutTemplates} {
		t.Run(kind, func(t *testing.T) {
			p := smallPlan(t, fragments.V, 300, 0, 60, 0, 0)
			p.Holdout = Holdout{Kind: kind, MaxTrainMUS: 3}
			if kind == HoldoutTemplates {
				p.Holdout = Holdout{Kind: kind, HeldPairs: [][2]string{{"V1", "V2"}}}
				test := p.Pools[0]
				test.Name, test.Templates, test.Splits = "test", "test", p.Pools[0].Splits[2:]
				p.Pools[0].Templates, p.Pools[0].Splits = "train", p.Pools[0].Splits[:2]
				p.Pools = append(p.Pools, test)
			}
			ref := t.TempDir()
			m, err := Run(context.Background(), p, testOptions(ref, 2))
			if err != nil {
				t.Fatal(err)
			}
			held := 0
			for _, s := range m.Sets {
				held += s.HeldOut
			}
			if held == 0 {
				t.Error("no candidate was held out: the test does not exercise the rule")
			}
			dirs := []string{filepath.Join(t.TempDir(), "shard"), filepath.Join(t.TempDir(), "shard")}
			out := filepath.Join(t.TempDir(), "merged")
			if _, err := shardTurns(context.Background(), p, dirs, out, 1); err != nil {
				t.Fatal(err)
			}
			sameTree(t, cardtest.ReadTree(t, ref), cardtest.ReadTree(t, out))
		})
	}
}

// TestPilotOneLabel refuses to fit the surface balance to a pilot of one
// label, naming the set and the fix, instead of writing a degenerate model.
func TestPilotOneLabel(t *testing.T) {
	p := smallPlan(t, fragments.S, 40, 0, 0, 0, 0)
	// A single sentence is always satisfiable.
	p.Pools[0].Strata = []Stratum{{Key: "m=1 n1=2 n2=0", Points: []phase.Point{{M: 1, N1: 2}}}}
	p.Pools[0].Splits = p.Pools[0].Splits[:1]
	p.Pools[0].Splits[0].Pairs = []int{20}
	_, err := Run(context.Background(), p, testOptions(t.TempDir(), 2))
	if err == nil || !strings.Contains(err.Error(), "too few of one label to fit the surface balance; use --balance strata") {
		t.Fatalf("got %v, want a refusal of the one-label pilot", err)
	}
}

// surfaces wraps feature rows as surfaces without structure.
func surfaces(x [][]float64) []surface {
	out := make([]surface, len(x))
	for i := range x {
		out[i] = surface{x: x[i]}
	}
	return out
}

// TestBalanceLeavesPairsNothing fits the two stages to a pilot whose
// labels a pair pattern and a surface feature tell: sat candidates show
// pattern 1 more often than unsat ones without a contradictory pair, and
// unsat ones with a pair have larger values of feature 0. On fresh
// candidates kept by the models, the pattern is as common among sat as
// among unsat candidates without a pair, feature 0 has one mean in all
// three kinds, and the share of unsat candidates with a pair is the
// pilot's.
func TestBalanceLeavesPairsNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const dim = 40 // as many as boostRow needs
	draw := func(i int) (surface, int8) {
		s := surface{x: make([]float64, dim)}
		s.x[0] = float64(rng.IntN(4))
		var y int8
		switch r := rng.Float64(); {
		case r < 0.5:
			y = 1
			if rng.Float64() < 0.6 {
				s.pairs[0] = []uint64{1}
			}
		case r < 0.7:
			if rng.Float64() < 0.2 {
				s.pairs[0] = []uint64{1}
			}
		default:
			s.core = true
			s.x[0] += float64(rng.IntN(3))
			if rng.Float64() < 0.4 {
				s.pairs[0] = []uint64{1}
			}
		}
		s.pairs[0] = append(s.pairs[0], uint64(2+rng.IntN(3)))
		return s, y
	}
	const n = 6000
	s, y, idx := make([]surface, n), make([]int8, n), make([]int, n)
	for i := range s {
		s[i], y[i] = draw(i)
		idx[i] = i
	}
	m := fitModels(s, y, idx, func(i int) float64 { return keepDraw(7, pilotSeed, i) })
	if m.Free == nil || m.Free.Pairs == nil || m.Core == nil {
		t.Fatalf("stages: free %v, core %v", m.Free != nil, m.Core != nil)
	}
	// kind 0: unsat with a pair, 1: sat, 2: unsat without.
	var kept, withPattern [3]int
	var x0 [3]float64
	for i := range 60000 {
		c, label := draw(i)
		if !m.keep(7, i, c, int(label)) {
			continue
		}
		k := 0
		switch {
		case label == 1:
			k = 1
		case !c.core:
			k = 2
		}
		kept[k]++
		x0[k] += c.x[0]
		if c.pairs[0][0] == 1 {
			withPattern[k]++
		}
	}
	share := func(k int) float64 { return float64(withPattern[k]) / float64(kept[k]) }
	mean := func(k int) float64 { return x0[k] / float64(kept[k]) }
	t.Logf("kept %v; pattern share sat %.3f, unsat without a pair %.3f; feature 0 mean %.3f %.3f %.3f", kept, share(1), share(2), mean(0), mean(1), mean(2))
	if d := math.Abs(share(1) - share(2)); d > 0.04 {
		t.Errorf("pattern 1 in %.3f of kept sat and %.3f of kept unsat without a pair (0.6 and 0.2 before)", share(1), share(2))
	}
	if d := math.Max(math.Abs(mean(0)-mean(1)), math.Abs(mean(2)-mean(1))); d > 0.08 {
		t.Errorf("feature 0 means %.3f (with a pair), %.3f (sat), %.3f (without): differ by %.3f", mean(0), mean(1), mean(2), d)
	}
	// 0.3 of the draws are unsat with a pair, 0.2 without: 60% of unsat.
	if sh := float64(kept[0]) / float64(kept[0]+kept[2]); math.Abs(sh-0.6) > 0.04 {
		t.Errorf("%.3f of kept unsat candidates hold a pair, want about 0.6 as drawn", sh)
	}
}

// refCountWords is countWords written the plain way: every sentence
// lower-cased and split into fields, the tokens listed, then each token
// and pair of tokens looked for among balanceWords and balanceBigrams.
func refCountWords(s string, words, bigrams []uint32) {
	var toks []string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.TrimRight(w, ".")
		if rest, ok := strings.CutPrefix(w, "non-"); ok {
			toks = append(toks, "non-", rest)
		} else {
			toks = append(toks, w)
		}
	}
	for i, w := range toks {
		if j := slices.Index(balanceWords, w); j >= 0 {
			words[j]++
		}
		if i > 0 {
			if j := slices.Index(balanceBigrams, [2]string{toks[i-1], w}); j >= 0 {
				bigrams[j]++
			}
		}
	}
}

// checkCountWords fails t if countWords and refCountWords count s
// differently.
func checkCountWords(t *testing.T, s string) {
	t.Helper()
	got, want := make([]uint32, len(balanceWords)+len(balanceBigrams)), make([]uint32, len(balanceWords)+len(balanceBigrams))
	countWords(s, got[:len(balanceWords)], got[len(balanceWords):])
	refCountWords(s, want[:len(balanceWords)], want[len(balanceWords):])
	if !slices.Equal(got, want) {
		t.Fatalf("%q: counted %v, want %v", s, got, want)
	}
}

// TestCountWords: the words and bigrams of sentences of every shape the
// tokens can take, counted as the plain way counts them.
func TestCountWords(t *testing.T) {
	for _, s := range []string{
		"",
		"Every artist who admires some beekeeper is a carpenter.",
		"No non-artist is an apple.",
		"Some baker does not admire any non-carpenter.",
		"EVERY  Non-Artist\tIS\na\r\vnon-  non- .. .",
		"Every artist who admires him is not a baker...",
		"Every café owner is a non-ÉLÈVE.",   // not ASCII: the general path
		"Every\u00a0artist is\u0085a baker.", // white space outside ASCII
		"non-non-artist is a is an is not a",
		"Who DOES not love him?",
	} {
		checkCountWords(t, s)
	}
}

// FuzzCountWords: countWords counts any text as the plain way does.
func FuzzCountWords(f *testing.F) {
	f.Add("Every artist who admires some beekeeper is a carpenter.")
	f.Add("No NON-artist is\tan apple .")
	f.Add("Some café is non-\u00a0a.")
	f.Fuzz(func(t *testing.T, s string) { checkCountWords(t, s) })
}
