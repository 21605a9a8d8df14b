package split

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
)

// Config is what a user asks of a build; NewPlan resolves it into a Plan.
type Config struct {
	Fragment fragments.Fragment
	// Fragments, when it holds more than one, asks for a joint build:
	// every size is per fragment (see joint.go).
	Fragments []fragments.Fragment
	// Sizes of the sets (0: none).
	Train, Validation, Test, Generalisation, ZeroShot int
	// Seed is the master seed.
	Seed uint64
	// RegionFile is a region file of nlsat phase-sweep ("": the region
	// shipped for the fragment; PaperRegion: the paper's band shipped
	// for it).
	RegionFile string
	Dedup      string
	DrawLimit  int
	Sampler    fragments.SamplerParams
	// Vocabulary is the words to draw from (nil: the built-in ones).
	Vocabulary *fragments.Lexicon
	// Holdout is the kind of held-out test split, with its settings.
	Holdout      string
	HoldoutN     int     // size: the largest n of train (0: the median)
	HoldoutShare float64 // vocabulary: the share of words kept for test
	HoldoutMUS   int     // difficulty: the largest MUS of train
	HoldoutPairs string  // templates: "A1+A2,V3+Z1" ("": the fragment's 1 and 2)
	HoldoutDepth int     // depth: the deepest proof of train
	Balance      string
	Pilot        int
	MinCore      int // 0: any; else no unsatisfiable subset smaller than this
	Audit        bool
	// MaxWords, when above 0, keeps only the region's points whose
	// instances have at most this many words (limitWords).
	MaxWords int
	// Solver is the decision procedure asked for (for the command line)
	// and SolverName its backend's name (for the records).
	Solver, SolverName string
	// Proofs gives every record a checked proof (proof.FindWithin, dataset.Record.SetProof); the
	// depth hold-out implies it.
	Proofs bool
}

// NewPlan resolves the configuration into a plan: the region's strata,
// the held-out splits, the further sets. Its errors are about the
// configuration.
func NewPlan(c Config) (*Plan, error) {
	if c.DrawLimit < 1 {
		return nil, fmt.Errorf("--draw-limit must be at least 1, got %d", c.DrawLimit)
	}
	if c.MinCore != 0 && (c.MinCore < 2 || c.MinCore > 8) {
		return nil, fmt.Errorf("--min-core must be 0 (off) or from 2 to 8, got %d", c.MinCore)
	}
	if len(c.Fragments) > 1 {
		return newJointPlan(c)
	}
	p := c.basePlan()
	strata, source, limit, err := c.region()
	if err != nil {
		return nil, err
	}
	p.MaxWords = limit
	main := Pool{Name: "main", Source: source, Strata: strata}
	allowed, err := c.holdout(p, &main)
	if err != nil {
		return nil, err
	}
	if err := c.mainPools(p, main, allowed); err != nil {
		return nil, err
	}
	if err := c.furtherPools(p); err != nil {
		return nil, err
	}
	return p, p.Validate()
}

// Region returns the strata of c's region (one per point, as in the
// main pool of NewPlan, --max-words applied) and their description for
// a card. Only the fragment, the region file, the sampler and MaxWords
// of c matter.
func (c Config) Region() ([]Stratum, string, error) {
	strata, source, _, err := c.region()
	return strata, source, err
}

// region is Region, with the limit on words that dropped points.
func (c Config) region() ([]Stratum, string, *WordLimit, error) {
	region, source, err := c.loadRegion()
	if err != nil {
		return nil, "", nil, err
	}
	var limit *WordLimit
	if c.MaxWords > 0 {
		total := len(region)
		if region, limit, err = limitWords(c.Fragment, region, c.MaxWords); err != nil {
			return nil, "", nil, err
		}
		source += limit.describe(total)
	}
	return RegionStrata(region), source, limit, nil
}

// basePlan is the plan of c without its sets.
func (c Config) basePlan() *Plan {
	p := &Plan{Fragment: c.Fragment.String(), Seed: c.Seed, Dedup: c.Dedup, DrawLimit: c.DrawLimit, Solver: c.SolverName, Audit: c.Audit,
		Sampler: c.Sampler, Balance: Balance{Mode: c.Balance}, MinCore: c.MinCore, Vocabulary: c.Vocabulary,
		Proofs: c.Proofs || c.Holdout == HoldoutDepth}
	if p.Balance.Mode == BalanceSurface {
		p.Balance.Pilot = c.Pilot
		p.Balance.Residual = true
	}
	return p
}

// holdout resolves the held-out split into p.Holdout and main, and
// returns which strata each of train, validation and test may use (nil:
// all).
func (c Config) holdout(p *Plan, main *Pool) ([][]bool, error) {
	allowed := make([][]bool, 3)
	p.Holdout.Kind = c.Holdout
	switch c.Holdout {
	case HoldoutSize:
		p.Holdout.MaxTrainN = c.HoldoutN
		if p.Holdout.MaxTrainN == 0 {
			p.Holdout.MaxTrainN = medianN(main.Strata)
		}
		for t := range allowed {
			allowed[t] = make([]bool, len(main.Strata))
			for k, st := range main.Strata {
				pt := st.Points[0]
				allowed[t][k] = (pt.N1+pt.N2 <= p.Holdout.MaxTrainN) == (t < 2)
			}
		}
	case HoldoutTemplates:
		pairs, err := parsePairs(c.HoldoutPairs, c.Fragment)
		if err != nil {
			return nil, err
		}
		p.Holdout.HeldPairs = pairs
		main.Templates = "train"
	case HoldoutDifficulty:
		if c.HoldoutMUS < 1 {
			return nil, fmt.Errorf("--holdout-mus must be at least 1, got %d", c.HoldoutMUS)
		}
		p.Holdout.MaxTrainMUS = c.HoldoutMUS
	case HoldoutDepth:
		if c.HoldoutDepth < 1 {
			return nil, fmt.Errorf("--holdout-depth must be at least 1, got %d", c.HoldoutDepth)
		}
		p.Holdout.MaxTrainDepth = c.HoldoutDepth
	case HoldoutVocabulary:
		if !(c.HoldoutShare > 0 && c.HoldoutShare < 1) {
			return nil, errors.New("--holdout-share must lie strictly between 0 and 1")
		}
		p.Holdout = VocabularyHoldout(p.Lexicon(), c.Seed, c.HoldoutShare)
		main.Vocabulary = "train"
	}
	return allowed, nil
}

// medianN is the median of the distinct n = n1 + n2 of the strata.
func medianN(strata []Stratum) int {
	var ns []int
	for _, st := range strata {
		ns = append(ns, st.Points[0].N1+st.Points[0].N2)
	}
	slices.Sort(ns)
	ns = slices.Compact(ns)
	return ns[(len(ns)-1)/2]
}

// parsePairs reads --holdout-pairs.
func parsePairs(spec string, f fragments.Fragment) ([][2]string, error) {
	if spec == "" {
		spec = fmt.Sprintf("%s1+%s2", f, f)
	}
	var out [][2]string
	for _, item := range strings.Split(spec, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(item), "+")
		if !ok {
			return nil, fmt.Errorf("--holdout-pairs: %q is not a pair of templates such as %s1+%s2", item, f, f)
		}
		out = append(out, [2]string{strings.TrimSpace(a), strings.TrimSpace(b)})
	}
	return out, nil
}

// mainPools adds the pools of train, validation and test: two when test
// draws from other words or templates than the others (train's with
// validation, and test's); else, when the surface balance thins them,
// two (train's, and the evaluation pool of validation and test, see
// Pool.PilotSize); else one.
func (c Config) mainPools(p *Plan, main Pool, allowed [][]bool) error {
	test := main
	test.Name, test.Splits = "test", nil
	if main.Vocabulary != "" {
		test.Vocabulary = "test"
	}
	if main.Templates != "" {
		test.Templates = "test"
	}
	apart := p.Holdout.Kind == HoldoutVocabulary || p.Holdout.Kind == HoldoutTemplates
	// evaluation: validation and test are a pool of their own, so that
	// the balance model that thins them is not the one that thins train.
	evaluation := !apart && p.Balance.Mode == BalanceSurface && c.Train > 0 && c.Validation+c.Test > 0
	if evaluation {
		test.Name = evaluationPool
		if main.Name != "main" {
			test.Name = main.Name + "-" + evaluationPool
		}
	}
	for t, sz := range []struct {
		name string
		n    int
	}{{Train, c.Train}, {Validation, c.Validation}, {Test, c.Test}} {
		if sz.n == 0 {
			continue
		}
		sp, err := NewSplitOver(sz.name, sz.n, len(main.Strata), allowed[t])
		if err != nil {
			return fmt.Errorf("--%s: %w", sz.name, err)
		}
		if t == 2 && apart || t > 0 && evaluation {
			test.Splits = append(test.Splits, sp)
		} else {
			main.Splits = append(main.Splits, sp)
		}
	}
	if len(main.Splits)+len(test.Splits) == 0 {
		return errors.New("--train, --validation and --test are all 0: nothing to build")
	}
	if evaluation {
		main.PilotSize = main.Size() + test.Size()
		test.PilotSize = main.PilotSize
	}
	for _, pl := range []Pool{main, test} {
		if len(pl.Splits) > 0 {
			p.Pools = append(p.Pools, pl)
		}
	}
	return nil
}

// furtherPools adds the generalisation and zero-shot sets.
func (c Config) furtherPools(p *Plan) error {
	for _, e := range []struct {
		name  string
		n     int
		sizes func(fragments.Fragment) (int, int, int, int)
		make  func(fragments.Fragment, int, int, int, int) []Stratum
		what  string
	}{
		{Generalisation, c.Generalisation, GeneralisationSizes, SizeStrata, "one stratum per (n1, n2)"},
		{ZeroShot, c.ZeroShot, ZeroShotSizes, TotalStrata, "one stratum per n = n1 + n2, its (n1, n2) drawn uniformly"},
	} {
		if e.n == 0 {
			continue
		}
		a, b, lo, hi := e.sizes(c.Fragment)
		pool := Pool{Name: e.name, Strata: e.make(c.Fragment, a, b, lo, hi)}
		pool.Source = fmt.Sprintf("n1 %d–%d", a, b)
		if hi > 0 {
			pool.Source += fmt.Sprintf(", n2 %d–%d", lo, hi)
		}
		pool.Source += ", " + e.what + ", m at the fitted hard m of each (n1, n2)"
		sp, err := NewSplit(e.name, e.n, len(pool.Strata))
		if err != nil {
			return fmt.Errorf("--%s: %w", e.name, err)
		}
		pool.Splits = []Split{sp}
		p.Pools = append(p.Pools, pool)
	}
	return nil
}

// PaperRegion is the RegionFile that selects the paper's band
// (phase.PaperRegion) rather than a file.
const PaperRegion = "paper"

// paperSource describes the paper region of f for the card, with its m
// beside the true band's.
func paperSource(f fragments.Fragment, r *phase.Region) string {
	if r.Labeller == "" {
		return "the points of the region shipped with nlsat for " + f.String() + ", which is also the paper's band: the paper's Z3 check decides S and W instances (60 of 60 of each in the hard region), so its labels do not move the band"
	}
	s := "the points of the paper's band for " + f.String() + " shipped with nlsat: where the paper's labelling method puts P(sat) in the band (labeller: " + r.Labeller +
		"). Z3 leaves satisfiable instances undecided, which biases that P(sat) low, so the band lies at smaller m than the true one"
	if t, err := phase.DefaultRegion(f); err == nil {
		lo, hi, mean := mRange(r.Points)
		tlo, thi, tmean := mRange(t.Points)
		s += fmt.Sprintf(": m %d–%d (mean %.1f over its points) against %d–%d (mean %.1f) for the true band", lo, hi, mean, tlo, thi, tmean)
	}
	return s + ". Every label of this dataset is decided by its own solver, never taken from that method"
}

// mRange returns the least, greatest and mean m of the points.
func mRange(pts []phase.RegionPoint) (lo, hi int, mean float64) {
	lo = pts[0].M
	for _, p := range pts {
		lo, hi, mean = min(lo, p.M), max(hi, p.M), mean+float64(p.M)
	}
	return lo, hi, mean / float64(len(pts))
}

// loadRegion returns the points of the region and a description for the
// card.
func (c Config) loadRegion() ([]phase.RegionPoint, string, error) {
	var r *phase.Region
	var err error
	what := "the points of the region shipped with nlsat for " + c.Fragment.String()
	switch c.RegionFile {
	case "":
		if r, err = phase.DefaultRegion(c.Fragment); err != nil {
			return nil, "", err
		}
	case PaperRegion:
		if r, err = phase.PaperRegion(c.Fragment); err != nil {
			return nil, "", err
		}
		what = paperSource(c.Fragment, r)
	default:
		f, err := os.Open(c.RegionFile)
		if err != nil {
			return nil, "", err
		}
		defer f.Close()
		if r, err = phase.ReadRegion(f); err != nil {
			return nil, "", fmt.Errorf("%s: %w", c.RegionFile, err)
		}
		if rf := r.FragmentOf(); rf != c.Fragment {
			return nil, "", fmt.Errorf("%s is a region of fragment %s, not of --fragment %s", c.RegionFile, rf, c.Fragment)
		}
		what = "the points of the region file " + c.RegionFile
	}
	if r.Params != c.Sampler {
		return nil, "", fmt.Errorf("the region was measured with sampler parameters %+v, not this run's %+v: its points are not hard for this sampler; measure a region with nlsat phase-sweep and pass it with --region", r.Params, c.Sampler)
	}
	if len(r.Points) == 0 {
		return nil, "", fmt.Errorf("the region of %s has no points", c.Fragment)
	}
	what += fmt.Sprintf(" (P(sat) in [%g, %g] at %d instances per point, seed %d), one stratum per point (m, n1, n2)", r.Band.Lo, r.Band.Hi, r.Samples, r.Seed)
	return r.Points, what, nil
}

// SamplerArgs are the command-line flags that give sampler parameters
// sp, in a fixed order.
func SamplerArgs(sp fragments.SamplerParams) []string {
	args := []string{fmt.Sprintf("--own-share %g --neg-prob %g", sp.OwnShare, sp.NegProb)}
	if !sp.Distinct {
		args = append(args, "--allow-repeats")
	}
	if sp.Equivalent {
		args = append(args, "--allow-equivalent")
	}
	return args
}

// Command renders the plan as the command line that rebuilds it, with
// every option that changes the output, in a fixed order.
func (c Config) Command(p *Plan) string {
	args := []string{"nlsat split", "--fragment " + p.Fragment}
	sizes := map[string]int{}
	for _, pl := range p.Pools {
		for _, sp := range pl.Splits {
			sizes[sp.Name] = sp.Size
		}
	}
	for _, n := range []string{Train, Validation, Test, Generalisation, ZeroShot} {
		args = append(args, fmt.Sprintf("--%s %d", n, sizes[n]))
	}
	args = append(args, fmt.Sprintf("--seed %d", p.Seed), "--dedup "+p.Dedup, fmt.Sprintf("--draw-limit %d", p.DrawLimit))
	if c.RegionFile != "" {
		args = append(args, "--region "+c.RegionFile)
	}
	if c.MaxWords > 0 {
		args = append(args, fmt.Sprintf("--max-words %d", c.MaxWords))
	}
	args = append(args, SamplerArgs(p.Sampler)...)
	args = append(args, c.holdoutArgs(p)...)
	if p.MinCore > 0 {
		args = append(args, fmt.Sprintf("--min-core %d", p.MinCore))
	}
	if p.Balance.Mode == BalanceSurface {
		args = append(args, fmt.Sprintf("--balance surface --balance-pilot %d", p.Balance.Pilot))
	} else {
		args = append(args, "--balance "+p.Balance.Mode)
	}
	if !p.Audit {
		args = append(args, "--audit=false")
	}
	if p.Proofs && p.Holdout.Kind != HoldoutDepth {
		args = append(args, "--proofs")
	}
	args = append(args, "--solver "+c.Solver)
	return strings.Join(args, " ")
}

// holdoutArgs are the hold-out flags of the command line.
func (c Config) holdoutArgs(p *Plan) []string {
	switch p.Holdout.Kind {
	case HoldoutSize:
		return []string{fmt.Sprintf("--holdout size --holdout-n %d", p.Holdout.MaxTrainN)}
	case HoldoutVocabulary:
		return []string{fmt.Sprintf("--holdout vocabulary --holdout-share %g", c.HoldoutShare)}
	case HoldoutDifficulty:
		return []string{fmt.Sprintf("--holdout difficulty --holdout-mus %d", p.Holdout.MaxTrainMUS)}
	case HoldoutDepth:
		return []string{fmt.Sprintf("--holdout depth --holdout-depth %d", p.Holdout.MaxTrainDepth)}
	case HoldoutTemplates:
		var pairs []string
		for _, pair := range p.Holdout.HeldPairs {
			pairs = append(pairs, pair[0]+"+"+pair[1])
		}
		return []string{"--holdout templates --holdout-pairs " + strings.Join(pairs, ",")}
	}
	return nil
}

// DefaultHoldoutDepth is the default largest proof depth of train and
// validation under a depth hold-out: the median proof depth of the
// unsat instances of S, W and V in their regions (docs/measurements.md,
// Proofs), so that train keeps depths 1 and 2 and test has 3 and more.
const DefaultHoldoutDepth = 2
