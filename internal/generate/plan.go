package generate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/nlsat/nlsat/internal/distract"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
)

// Range is an inclusive range of integers.
type Range struct{ Lo, Hi int }

// Options are what a user asks of a generate run; NewPlan resolves them.
type Options struct {
	Fragment fragments.Fragment
	// FragmentSet says that Fragment was asked for; otherwise a region
	// file's fragment is adopted.
	FragmentSet bool
	Sampler     fragments.SamplerParams
	// Vocabulary is the words to draw from (nil: the built-in ones).
	Vocabulary *fragments.Lexicon
	// M, N1, N2 are the ranges asked for (nil: the defaults; M nil: the
	// hard region's m at each n1, n2).
	M, N1, N2 *Range
	// Region is a region file to draw (m, n1, n2) from instead.
	Region string
	Seed   uint64
	Count  int
	// Distractors added to every instance, and how they are chosen.
	Distractors  int
	DistractMode distract.Mode
	// Solver is the decision procedure asked for (native, z3, both or
	// none), SolverName the name of its backend as records carry it
	// ("none" without one), and Timeout its limit, where it has one.
	Solver, SolverName string
	Timeout            time.Duration
	// Proofs gives every record a checked proof (proof.FindWithin, dataset.Record.SetProof) and
	// the fields of dataset.ProofSchemaVersion.
	Proofs bool
}

// Plan is the resolved configuration of a generate run: everything that
// decides its output. Its JSON form identifies the run for checkpoints
// and is what a shard records for the merge.
type Plan struct {
	Fragment     string                  `json:"fragment"`
	Sampler      fragments.SamplerParams `json:"sampler"`
	M            Range                   `json:"m"`
	N1           Range                   `json:"n1"`
	N2           Range                   `json:"n2"`
	AutoM        bool                    `json:"auto_m"`
	Seed         uint64                  `json:"seed"`
	Region       []phase.Point           `json:"region"`
	Count        int                     `json:"count"`
	Distractors  int                     `json:"distractors"`
	DistractMode string                  `json:"distractor_mode"`
	Solver       string                  `json:"solver"`
	Timeout      string                  `json:"timeout"`
	Vocabulary   *fragments.Lexicon      `json:"vocabulary,omitempty"`
	// Proofs: every record has a proof (absent from the JSON form when
	// false, so that the digests of other runs stay as they were).
	Proofs bool `json:"proofs,omitempty"`
}

// NewPlan checks the options and resolves them into a plan: the default
// ranges (n1 6–16 for S and W, 3–8 for V, Z and A; n2 0 and 3–8), the
// region's points, and a check that every corner of the ranges can be
// drawn. Its errors are about the options.
func NewPlan(o Options) (*Plan, error) {
	p := &Plan{Fragment: o.Fragment.String(), Sampler: o.Sampler, Seed: o.Seed, Count: o.Count, Solver: o.SolverName,
		Vocabulary: o.Vocabulary, Proofs: o.Proofs}
	switch {
	case o.Sampler.OwnShare < 0 || o.Sampler.OwnShare > 1 || o.Sampler.NegProb < 0 || o.Sampler.NegProb > 1:
		return nil, errors.New("--own-share and --neg-prob must lie in [0, 1]")
	case o.Count < 1:
		return nil, fmt.Errorf("--count must be at least 1, got %d", o.Count)
	case o.Distractors < 0:
		return nil, fmt.Errorf("--distractors must be at least 0, got %d", o.Distractors)
	case o.Distractors > 0 && o.Solver == "none":
		return nil, errors.New("--distractors needs a solver to prove the label unchanged; drop --solver none")
	case o.Proofs && o.Solver == "none":
		return nil, errors.New("--proofs needs a solver to find and check the proofs; drop --solver none")
	}
	if o.Distractors > 0 {
		p.Distractors, p.DistractMode = o.Distractors, o.DistractMode.String()
	}
	if o.Solver == "z3" || o.Solver == "both" {
		p.Timeout = o.Timeout.String()
	}
	if o.Region != "" {
		if o.M != nil || o.N1 != nil || o.N2 != nil {
			return nil, errors.New("--region and --m, --n1, --n2 are alternatives: give one")
		}
		return p, p.loadRegion(o.Region, o.FragmentSet)
	}
	p.setRanges(o)
	return p, p.checkCorners()
}

// setRanges fills the ranges from the options and the defaults.
func (p *Plan) setRanges(o Options) {
	monadic := !o.Fragment.HasVerbs()
	p.N1, p.N2 = Range{3, 8}, Range{3, 8}
	if monadic {
		p.N1, p.N2 = Range{6, 16}, Range{}
	}
	if o.N1 != nil {
		p.N1 = *o.N1
	}
	if o.N2 != nil {
		p.N2 = *o.N2
	}
	p.AutoM = o.M == nil
	if o.M != nil {
		p.M = *o.M
	}
}

// checkCorners checks that every corner of the ranges can be drawn.
func (p *Plan) checkCorners() error {
	params := p.Params()
	for _, n1 := range []int{p.N1.Lo, p.N1.Hi} {
		for _, n2 := range []int{p.N2.Lo, p.N2.Hi} {
			ms := []int{p.M.Lo, p.M.Hi}
			if p.AutoM {
				ms = []int{phase.HardM(p.Frag(), n1, n2)}
			}
			for _, m := range ms {
				if err := fragments.Validate(p.Frag(), params, m, n1, n2); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// loadRegion takes the points of a region file: its fragment must be the
// plan's (or is adopted when none was asked for), its sampler the plan's,
// and every point drawable.
func (p *Plan) loadRegion(name string, fragmentSet bool) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := phase.ReadRegion(f)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if r.Fragment != p.Fragment {
		if fragmentSet {
			return fmt.Errorf("%s is a region of fragment %s, not of --fragment %s", name, r.Fragment, p.Fragment)
		}
		p.Fragment = r.Fragment
	}
	if r.Params != p.Sampler {
		return fmt.Errorf("%s was measured with sampler parameters %+v, not this run's %+v", name, r.Params, p.Sampler)
	}
	for i, rp := range r.Points {
		if err := fragments.Validate(p.Frag(), p.Params(), rp.M, rp.N1, rp.N2); err != nil {
			return fmt.Errorf("%s: point %d: %w", name, i, err)
		}
		p.Region = append(p.Region, rp.Point)
	}
	return nil
}

// Frag returns the plan's fragment.
func (p *Plan) Frag() fragments.Fragment {
	f, _ := fragments.ParseFragment(p.Fragment)
	return f
}

// Params returns the sampler parameters, with the plan's vocabulary.
func (p *Plan) Params() fragments.Params { return p.Sampler.WithLexicon(p.Vocabulary) }

// Lexicon returns the words the run draws from.
func (p *Plan) Lexicon() *fragments.Lexicon { return p.Vocabulary.OrDefault() }

// Digest identifies the plan: equal plans generate equal output.
func (p *Plan) Digest() string {
	b, _ := json.Marshal(p)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func uniform(rng *rand.Rand, r Range) int { return r.Lo + rng.IntN(r.Hi-r.Lo+1) }

// Draw samples instance i: its parameters and sentences depend only on
// the seed and i.
func (p *Plan) Draw(i int) (fragments.Instance, error) {
	rng := rand.New(rand.NewPCG(p.Seed, uint64(i)))
	if len(p.Region) > 0 {
		pt := p.Region[rng.IntN(len(p.Region))]
		return fragments.Sample(rng, p.Frag(), p.Params(), pt.M, pt.N1, pt.N2)
	}
	n1, n2 := uniform(rng, p.N1), uniform(rng, p.N2)
	m := phase.HardM(p.Frag(), n1, n2)
	if !p.AutoM {
		m = uniform(rng, p.M)
	}
	return fragments.Sample(rng, p.Frag(), p.Params(), m, n1, n2)
}
