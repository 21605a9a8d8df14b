package split

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
)

// Set names, as used for file names and split names.
const (
	Train          = "train"
	Validation     = "validation"
	Test           = "test"
	Generalisation = "generalisation"
	ZeroShot       = "zero-shot"
)

// PoolStride separates the candidate indices of pools: candidate i of pool
// p has the global index p·PoolStride + i, which its record's seed names.
const PoolStride = 1_000_000_000_000

// Dedup rules.
const (
	DedupExact    = "exact"    // no two instances with the same set of sentences
	DedupRenaming = "renaming" // also none equal up to renaming and order
)

// Plan is the fully resolved configuration of a build. Its JSON form is
// recorded in the manifest and identifies a build for resuming.
type Plan struct {
	Fragment string                  `json:"fragment"`
	Seed     uint64                  `json:"seed"`
	Sampler  fragments.SamplerParams `json:"sampler"`
	Dedup    string                  `json:"dedup"`
	// DrawLimit bounds the candidates drawn for a stratum, as a multiple
	// of the instances it must hold; a stratum that is not full by then
	// stops the build.
	DrawLimit int    `json:"draw_limit"`
	Solver    string `json:"solver"`
	// Holdout says what the test split holds out from train and
	// validation, if anything.
	Holdout Holdout `json:"holdout"`
	// Balance says how labels are balanced beyond equal counts per
	// stratum.
	Balance Balance `json:"balance"`
	// MinCore, when above 0, keeps out unsat instances that have an
	// unsatisfiable subset of fewer than MinCore sentences: with 3, no
	// instance holds two sentences that contradict each other.
	MinCore int `json:"min_core,omitempty"`
	// MaxWords, with --max-words, records the limit and the region's
	// points it dropped.
	MaxWords *WordLimit `json:"max_words,omitempty"`
	// Audit says whether the finished data gets a shortcut audit.
	Audit bool   `json:"audit"`
	Pools []Pool `json:"pools"`
	// Vocabulary is the words drawn from, when not the built-in ones.
	Vocabulary *fragments.Lexicon `json:"vocabulary,omitempty"`
	// Proofs: every record has a checked proof (proof.FindWithin, dataset.Record.SetProof) and the
	// fields of dataset.ProofSchemaVersion.
	Proofs bool `json:"proofs,omitempty"`
}

// Hold-out kinds.
const (
	HoldoutNone       = "none"
	HoldoutSize       = "size"       // test: larger n = n1 + n2 than train and validation
	HoldoutVocabulary = "vocabulary" // test: nouns and verbs train and validation never use
	HoldoutDifficulty = "difficulty" // test: unsat instances whose every MUS is larger than train's
	HoldoutTemplates  = "templates"  // test: pairs of templates that never co-occur in train and validation
	HoldoutDepth      = "depth"      // test: unsat instances whose proof is deeper than train's
)

// Holdout describes a split that tests generalisation.
type Holdout struct {
	Kind string `json:"kind"`
	// MaxTrainN: with size, train and validation hold the strata with
	// n = n1 + n2 ≤ MaxTrainN and test the others.
	MaxTrainN int `json:"max_train_n"`
	// TestNouns, TestVerbs: with vocabulary, the words only the test split
	// draws from; train and validation draw from all the others.
	TestNouns []string `json:"test_nouns"`
	TestVerbs []string `json:"test_verbs"`
	// MaxTrainMUS: with difficulty, every unsat instance of train and
	// validation has a certified MUS of at most MaxTrainMUS sentences, and
	// every unsat instance of test has no unsatisfiable subset of that
	// many sentences or fewer. Sat instances are drawn alike for all.
	MaxTrainMUS int `json:"max_train_mus,omitempty"`
	// HeldPairs: with templates, pairs of template ids (such as "A1",
	// "A2") that no instance of train or validation holds both of, and
	// every instance of test holds both of for at least one pair.
	HeldPairs [][2]string `json:"held_pairs,omitempty"`
	// MaxTrainDepth: with depth, every unsat instance of train and
	// validation has a checked proof of depth at most MaxTrainDepth, and
	// every unsat instance of test one deeper (RuleTaker's "train
	// shallow, test deep"). Unsat instances without a proof within the
	// budget go nowhere. Sat instances are drawn alike for all.
	MaxTrainDepth int `json:"max_train_depth,omitempty"`
}

// Pool is a source of candidates feeding one or more splits: the three
// main splits share the region's pool; each further set has its own.
type Pool struct {
	Name string `json:"name"`
	// Fragment is the fragment the pool draws from in a joint build
	// ("": the plan's one fragment).
	Fragment string `json:"fragment,omitempty"`
	// Source says where the strata come from, for the card.
	Source string `json:"source"`
	// Vocabulary is "" (every word), "train" (every word but the held-out
	// ones) or "test" (only the held-out ones).
	Vocabulary string `json:"vocabulary"`
	// Templates is "" (any combination), "train" (no held-out pair
	// together: each candidate draws without one template of each pair,
	// chosen by a fair coin from its seed) or "test" (only candidates
	// holding both templates of some held-out pair are accepted).
	Templates string    `json:"templates,omitempty"`
	Strata    []Stratum `json:"strata"`
	Splits    []Split   `json:"splits"`
	// PilotSize, when not 0, is the number of instances the pool's
	// surface-balance pilot is sized for (PilotFor) instead of its own.
	// Train and the evaluation pool (validation and test) each fit their
	// own balance model to their own pilot, sized for the three splits
	// together: both models are as good as one model of the whole build
	// would be, and neither model's errors, which thinning plants as a
	// faint pattern in what it keeps, are shared by what a model is
	// trained on and what it is scored on.
	PilotSize int `json:"pilot_size,omitempty"`
}

// evaluationPool names the pool of validation and test (prefixed by the
// fragment's set in a joint build).
const evaluationPool = "evaluation"

// Stratum is a cell that holds, in every split, exactly as many sat as
// unsat instances. A candidate of the stratum draws one of its points
// uniformly.
type Stratum struct {
	Key    string        `json:"key"`
	Points []phase.Point `json:"points"`
	// PSat is the measured probability that a candidate is satisfiable,
	// where known (0 otherwise); sharded builds size their share of
	// candidates by it.
	PSat float64 `json:"p_sat"`
}

// Split is one output file with its size and, per stratum of its pool, the
// number of sat (and as many unsat) instances it holds.
type Split struct {
	Name  string `json:"name"`
	File  string `json:"file"`
	Size  int    `json:"size"`
	Pairs []int  `json:"pairs"`
}

// Params returns the sampler parameters, with the plan's vocabulary.
func (p *Plan) Params() fragments.Params { return p.Sampler.WithLexicon(p.Vocabulary) }

// Lexicon returns the words the build draws from.
func (p *Plan) Lexicon() *fragments.Lexicon { return p.Vocabulary.OrDefault() }

// PoolParams returns the sampler parameters of pool k, with its
// vocabulary.
func (p *Plan) PoolParams(k int) (fragments.Params, error) {
	params := p.Params()
	v := p.Pools[k].Vocabulary
	if v == "" {
		return params, nil
	}
	if v != "train" && v != "test" {
		return params, fmt.Errorf("set %s: vocabulary %q: expected train or test", p.Pools[k].Name, v)
	}
	held := map[string]bool{}
	for _, w := range append(slices.Clone(p.Holdout.TestNouns), p.Holdout.TestVerbs...) {
		held[w] = true
	}
	var nouns []fragments.Noun
	var verbs []fragments.Verb
	lexicon := p.Lexicon()
	for _, n := range lexicon.Nouns() {
		if held[n.Word] == (v == "test") {
			nouns = append(nouns, n)
		}
	}
	for _, vb := range lexicon.Verbs() {
		if held[vb.Base] == (v == "test") {
			verbs = append(verbs, vb)
		}
	}
	lx, err := fragments.NewLexicon(nouns, verbs)
	if err != nil {
		return params, fmt.Errorf("set %s: %w", p.Pools[k].Name, err)
	}
	params.Lexicon = lx
	return params, nil
}

// VocabularyHoldout picks the words the test split alone uses: a share of
// the nouns and verbs of lx, by a shuffle seeded with seed.
func VocabularyHoldout(lx *fragments.Lexicon, seed uint64, share float64) Holdout {
	rng := rand.New(rand.NewPCG(seed, 0x766f636162)) // "vocab"
	pick := func(words []string) []string {
		rng.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
		out := slices.Clone(words[:int(math.Ceil(share*float64(len(words))))])
		slices.Sort(out)
		return out
	}
	var nouns, verbs []string
	for _, n := range lx.Nouns() {
		nouns = append(nouns, n.Word)
	}
	for _, v := range lx.Verbs() {
		verbs = append(verbs, v.Base)
	}
	return Holdout{Kind: HoldoutVocabulary, TestNouns: pick(nouns), TestVerbs: pick(verbs)}
}

// Frag returns the plan's fragment.
func (p *Plan) Frag() fragments.Fragment {
	f, _ := fragments.ParseFragment(p.Fragment)
	return f
}

// Digest identifies the plan: equal plans build equal datasets.
func (p *Plan) Digest() string {
	b, _ := json.Marshal(p)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Size returns the number of instances the pool's splits hold.
func (pl *Pool) Size() int {
	n := 0
	for _, s := range pl.Splits {
		n += s.Size
	}
	return n
}

// stratumPairs returns the pairs of stratum k over all splits.
func (pl *Pool) stratumPairs(k int) int {
	n := 0
	for _, s := range pl.Splits {
		n += s.Pairs[k]
	}
	return n
}

// Validate checks that the plan can be built: known fragment and rules,
// every point drawable, sizes even and matching their pairs.
func (p *Plan) Validate() error {
	f, err := fragments.ParseFragment(p.Fragment)
	if p.Joint() {
		err = p.validateJoint()
	}
	if err != nil {
		return err
	}
	if p.Dedup != DedupExact && p.Dedup != DedupRenaming {
		return fmt.Errorf("dedup rule %q: expected %s or %s", p.Dedup, DedupExact, DedupRenaming)
	}
	switch p.Balance.Mode {
	case BalanceStrata:
	case BalanceSurface:
		if p.Balance.Pilot < 100 {
			return fmt.Errorf("balance pilot %d: expected at least 100 candidates", p.Balance.Pilot)
		}
	default:
		return fmt.Errorf("balance mode %q: expected %s or %s", p.Balance.Mode, BalanceSurface, BalanceStrata)
	}
	if err := p.validatePooled(); err != nil {
		return err
	}
	if p.DrawLimit < 1 {
		return fmt.Errorf("draw limit %d: expected at least 1", p.DrawLimit)
	}
	for _, pair := range p.Holdout.HeldPairs {
		for _, id := range pair {
			t, err := fragments.ParseTemplate(id)
			if err != nil || !slices.Contains(f.Templates(), t) {
				return fmt.Errorf("held-out pair %s+%s: %q is not a template of fragment %s (expected one of %v)", pair[0], pair[1], id, f, f.Templates())
			}
		}
		if pair[0] == pair[1] {
			return fmt.Errorf("held-out pair %s+%s: a pair needs two different templates", pair[0], pair[1])
		}
	}
	files := map[string]string{}
	for k, pl := range p.Pools {
		if pl.Templates != "" && pl.Templates != "train" && pl.Templates != "test" {
			return fmt.Errorf("set %s: templates %q: expected train or test", pl.Name, pl.Templates)
		}
		params, err := p.PoolParams(k)
		if err != nil {
			return err
		}
		if len(pl.Strata) == 0 {
			return fmt.Errorf("set %s has no strata", pl.Name)
		}
		for _, st := range pl.Strata {
			if len(st.Points) == 0 {
				return fmt.Errorf("set %s: stratum %s has no points", pl.Name, st.Key)
			}
			for _, pt := range st.Points {
				if err := fragments.Validate(p.PoolFrag(k), params, pt.M, pt.N1, pt.N2); err != nil {
					return fmt.Errorf("set %s: stratum %s: %w", pl.Name, st.Key, err)
				}
			}
		}
		for _, s := range pl.Splits {
			// Only the same split of the fragments of a joint build
			// shares a file.
			if name, ok := files[s.File]; ok && (!p.Joint() || name != s.Name) {
				return fmt.Errorf("two splits write %s", s.File)
			}
			files[s.File] = s.Name
			if len(s.Pairs) != len(pl.Strata) {
				return fmt.Errorf("split %s: %d quotas for %d strata", s.Name, len(s.Pairs), len(pl.Strata))
			}
			sum := 0
			for _, n := range s.Pairs {
				sum += n
			}
			if 2*sum != s.Size {
				return fmt.Errorf("split %s: quotas hold %d instances, not %d", s.Name, 2*sum, s.Size)
			}
		}
	}
	return nil
}

// NewSplit spreads size instances over n strata: size/2 sat-unsat pairs,
// as evenly as possible, the first strata taking one pair more when they
// do not divide. size must be even.
func NewSplit(name string, size, n int) (Split, error) {
	return NewSplitOver(name, size, n, nil)
}

// NewSplitOver is NewSplit over the strata k with allowed[k] only (every
// stratum if allowed is nil).
func NewSplitOver(name string, size, n int, allowed []bool) (Split, error) {
	if size < 0 || size%2 != 0 {
		return Split{}, fmt.Errorf("%s: size %d must be even (half sat, half unsat)", name, size)
	}
	var use []int
	for k := range n {
		if allowed == nil || allowed[k] {
			use = append(use, k)
		}
	}
	if len(use) == 0 && size > 0 {
		return Split{}, fmt.Errorf("%s: no stratum to draw from", name)
	}
	pairs := make([]int, n)
	for i, k := range use {
		pairs[k] = size / 2 / len(use)
		if i < size/2%len(use) {
			pairs[k]++
		}
	}
	return Split{Name: name, File: "data/" + name + ".jsonl", Size: size, Pairs: pairs}, nil
}

// RegionStrata makes one stratum per point of a region, in the order
// (n1, n2, m), so that a stratum is fragment × n1 × n2 × m.
func RegionStrata(pts []phase.RegionPoint) []Stratum {
	pts = slices.Clone(pts)
	slices.SortFunc(pts, func(a, b phase.RegionPoint) int {
		if a.N1 != b.N1 {
			return a.N1 - b.N1
		}
		if a.N2 != b.N2 {
			return a.N2 - b.N2
		}
		return a.M - b.M
	})
	pts = slices.CompactFunc(pts, func(a, b phase.RegionPoint) bool { return a.Point == b.Point })
	out := make([]Stratum, len(pts))
	for i, pt := range pts {
		out[i] = Stratum{Key: pt.Point.Key(), Points: []phase.Point{pt.Point}, PSat: pt.PSat}
	}
	return out
}

// surfaceKeep is the share of candidates the surface balance keeps, about
// 0.6 in the default regions, with a margin.
const surfaceKeep = 0.5

// residualKeep is the share of what the first stages keep that the
// residual stage keeps, about 0.58 on A, with a margin.
const residualKeep = 0.45

// minCoreKeep is the share of unsat candidates that Plan.MinCore (k)
// lets in: those without an unsatisfiable subset of fewer than k
// sentences. In the default regions about four in ten unsat instances
// hold no contradictory pair (k = 3); count on one in four, and on one in
// ten where subsets of three sentences are kept out too.
func minCoreKeep(k int) float64 {
	switch {
	case k <= 2:
		return 1
	case k == 3:
		return 0.25
	}
	return 0.1
}

// budget is the number of candidates a sharded build draws for stratum s
// of pool k: for its r pairs and the rarer label's probability q (from the
// measured P(sat), 0.3 where unmeasured, times surfaceKeep under the
// surface balance, residualKeep under its residual stage and
// minCoreKeep under MinCore; under the difficulty hold-out, see below),
// the mean number of draws that yield r of that label plus four standard
// deviations (a negative binomial: r/q and √(r(1−q))/q), times
// oversample, plus 16.
func (p *Plan) budget(k, s int, oversample float64) int {
	pairs := p.Pools[k].stratumPairs(s)
	if pairs == 0 {
		return 0
	}
	q := p.Pools[k].Strata[s].PSat
	q = min(q, 1-q)
	if q <= 0.05 {
		q = 0.3
	}
	if p.Balance.Mode == BalanceSurface {
		q *= surfaceKeep
	}
	if p.Balance.Residual {
		q *= residualKeep
	}
	// Whichever label is rarer, the unsat candidates MinCore lets in
	// are no rarer than this.
	q *= minCoreKeep(p.MinCore)
	r := float64(pairs)
	if p.Holdout.Kind == HoldoutDifficulty || p.Holdout.Kind == HoldoutDepth {
		// Train and validation take only unsat instances with a small MUS
		// (about three in four), test only hard ones: one in five
		// overall, but rarer at small m, so count on one in twenty. The
		// kind that needs more draws paces the stratum.
		test := 0
		for _, sp := range p.Pools[k].Splits {
			if sp.Name == Test {
				test += sp.Pairs[s]
			}
		}
		if rest := r - float64(test); rest/0.7 >= float64(test)/0.05 {
			r, q = rest, q*0.7
		} else {
			r, q = float64(test), q*0.05
		}
	}
	return int(math.Ceil(oversample*(r/q+4*math.Sqrt(r*(1-q))/q))) + 16
}

// shardQuota returns how many candidates of each label a shard, one of
// count, keeps of stratum s of pool k before it stops drawing the
// stratum, or -1 when it draws its whole budget: those the balance keeps
// and a split of the stratum admits (whatever the other rules, which the
// merge applies, reject). Candidate i belongs to stratum i mod S (S
// strata) and to shard i mod count, so a stratum's candidates fall to
// the count/g shards j ≡ s (mod g), g = gcd(S, count), in equal turns.
// The merge fills the stratum from them in index order, so when it is
// full it has taken about g/count of each label's r pairs from each,
// binomially: the quota is that share plus four standard deviations,
// times oversample, plus 4. Under the difficulty and depth hold-outs the
// splits of a stratum admit different candidates, and the shard draws
// its budget.
func (p *Plan) shardQuota(k, s, count int, oversample float64) int {
	if p.Holdout.Kind == HoldoutDifficulty || p.Holdout.Kind == HoldoutDepth {
		return -1
	}
	holders := count / gcd(len(p.Pools[k].Strata), count)
	r := float64(p.Pools[k].stratumPairs(s)) / float64(holders)
	if r == 0 {
		return 0
	}
	return int(math.Ceil(oversample*(r+4*math.Sqrt(r)))) + 4
}

// gcd returns the greatest common divisor of a and b, both positive.
func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// SizeStrata makes one stratum per (n1, n2) with n1 in [n1lo, n1hi] and n2
// in [n2lo, n2hi], each at the fitted hard m (phase.HardM).
func SizeStrata(f fragments.Fragment, n1lo, n1hi, n2lo, n2hi int) []Stratum {
	var out []Stratum
	for n1 := n1lo; n1 <= n1hi; n1++ {
		for n2 := n2lo; n2 <= n2hi; n2++ {
			pt := phase.Point{M: phase.HardM(f, n1, n2), N1: n1, N2: n2}
			out = append(out, Stratum{Key: fmt.Sprintf("n1=%d n2=%d", n1, n2), Points: []phase.Point{pt}})
		}
	}
	return out
}

// TotalStrata makes one stratum per value of n = n1 + n2, each holding
// every (n1, n2) of the ranges with that sum at the fitted hard m.
func TotalStrata(f fragments.Fragment, n1lo, n1hi, n2lo, n2hi int) []Stratum {
	var out []Stratum
	for n := n1lo + n2lo; n <= n1hi+n2hi; n++ {
		st := Stratum{Key: fmt.Sprintf("n=%d", n)}
		for n1 := n1lo; n1 <= n1hi; n1++ {
			if n2 := n - n1; n2 >= n2lo && n2 <= n2hi {
				st.Points = append(st.Points, phase.Point{M: phase.HardM(f, n1, n2), N1: n1, N2: n2})
			}
		}
		out = append(out, st)
	}
	return out
}

// GeneralisationSizes returns the paper's generalisation ranges for f:
// n1 16–24 for S and W; n1 8–12 and n2 8–24 for V, Z and A.
func GeneralisationSizes(f fragments.Fragment) (n1lo, n1hi, n2lo, n2hi int) {
	if f == fragments.S || f == fragments.W {
		return 16, 24, 0, 0
	}
	return 8, 12, 8, 24
}

// ZeroShotSizes returns the paper's zero-shot ranges for f: n1 5–10 for S
// and W; n1 3–5 and n2 2–5 for V, Z and A (n = n1 + n2 from 5 to 10).
func ZeroShotSizes(f fragments.Fragment) (n1lo, n1hi, n2lo, n2hi int) {
	if f == fragments.S || f == fragments.W {
		return 5, 10, 0, 0
	}
	return 3, 5, 2, 5
}
