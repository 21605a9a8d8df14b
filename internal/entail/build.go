package entail

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/split"
)

// Streams xored into the master seed of a build, beside Stream: the
// candidates' draws, the assignment of a stratum's triples to splits, and
// the order of each split's records.
const (
	BuildStream  = 0x656e7462756964 // "entbuid"
	assignStream = 0x656e7461736e67 // "entasng"
	orderStream  = 0x656e746f726472 // "entordr"
)

// BuildConfig is what a user asks of nlsat split --task entailment.
type BuildConfig struct {
	Fragment fragments.Fragment
	// Fragments, if it holds more than one, makes a joint build: one
	// dataset of every fragment's strata, each with the record counts
	// asked for (see Joint).
	Fragments []fragments.Fragment
	// Train, Validation and Test are record counts, multiples of 3 (per
	// fragment in a joint build).
	Train, Validation, Test int
	Seed                    uint64
	// RegionFile, Sampler and MaxWords choose the strata as for an
	// instance build (split.Config.Region).
	RegionFile string
	Sampler    fragments.SamplerParams
	Vocabulary *fragments.Lexicon
	MaxWords   int
	DrawLimit  int
	Audit      bool
	// Solver is the backend's name, for the records and the manifest.
	Solver string
}

// BuildPlan is the fully resolved configuration of an entailment build.
// Its JSON form is recorded in the manifest and identifies a build for
// resuming.
type BuildPlan struct {
	Task       string                  `json:"task"`
	Fragment   string                  `json:"fragment"`
	Seed       uint64                  `json:"seed"`
	Sampler    fragments.SamplerParams `json:"sampler"`
	Vocabulary *fragments.Lexicon      `json:"vocabulary,omitempty"`
	Solver     string                  `json:"solver"`
	// Dedup is always split.DedupRenaming: no two triples of the build
	// have premise sets equal up to renaming and order (nor, so, equal
	// as written).
	Dedup string `json:"dedup"`
	// DrawLimit bounds the candidates of a stratum, as a multiple of the
	// triples it must hold.
	DrawLimit int       `json:"draw_limit"`
	Audit     bool      `json:"audit"`
	Source    string    `json:"source"`
	Strata    []Stratum `json:"strata"`
	Splits    []Split   `json:"splits"`
}

// Stratum is one stratum of a build: a stratum of the region and, in a
// joint build, the fragment it draws from (empty otherwise, the plan's).
type Stratum struct {
	split.Stratum
	Fragment string `json:"fragment,omitempty"`
}

// Split is one output file: its size in records and, per stratum, the
// triples it holds (each one record per label).
type Split struct {
	Name    string `json:"name"`
	File    string `json:"file"`
	Size    int    `json:"size"`
	Triples []int  `json:"triples"`
}

// TaskName is the BuildPlan's Task.
const TaskName = "entailment"

// NewBuildPlan resolves c. Its errors are about the configuration.
func NewBuildPlan(c BuildConfig) (*BuildPlan, error) {
	if c.DrawLimit < 1 {
		return nil, fmt.Errorf("--draw-limit must be at least 1, got %d", c.DrawLimit)
	}
	frags := c.Fragments
	if len(frags) <= 1 {
		frags = []fragments.Fragment{c.Fragment}
	}
	if len(frags) > 1 && c.RegionFile != "" {
		return nil, inputerr.Errorf("a region file is one fragment's region: a joint build draws each fragment from its shipped region")
	}
	p := &BuildPlan{Task: TaskName, Seed: c.Seed, Sampler: c.Sampler, Vocabulary: c.Vocabulary,
		Solver: c.Solver, Dedup: split.DedupRenaming, DrawLimit: c.DrawLimit, Audit: c.Audit}
	var names, sources []string
	var perFrag [][]Stratum
	for _, f := range frags {
		strata, source, err := split.Config{Fragment: f, RegionFile: c.RegionFile, Sampler: c.Sampler, MaxWords: c.MaxWords}.Region()
		if err != nil && len(frags) > 1 {
			return nil, fmt.Errorf("fragment %s: %w", f, err)
		}
		if err != nil {
			return nil, err
		}
		var ss []Stratum
		for _, st := range strata {
			ss = append(ss, Stratum{Stratum: st})
			if len(frags) > 1 {
				ss[len(ss)-1].Fragment = f.String()
			}
		}
		perFrag = append(perFrag, ss)
		p.Strata = append(p.Strata, ss...)
		names, sources = append(names, f.String()), append(sources, f.String()+": "+source)
	}
	p.Fragment, p.Source = names[0], strings.TrimPrefix(sources[0], names[0]+": ")
	if len(frags) > 1 {
		p.Fragment, p.Source = strings.Join(names, ","), strings.Join(sources, "; ")
	}
	for _, sz := range []struct {
		name string
		n    int
	}{{split.Train, c.Train}, {split.Validation, c.Validation}, {split.Test, c.Test}} {
		if sz.n < 0 || sz.n%3 != 0 {
			return nil, fmt.Errorf("--%s %d: entailment records come in triples, one per label; give a multiple of 3", sz.name, sz.n)
		}
		if sz.n == 0 {
			continue
		}
		sp := Split{Name: sz.name, File: "data/" + sz.name + ".jsonl", Size: sz.n * len(frags)}
		for _, ss := range perFrag {
			sp.Triples = append(sp.Triples, spread(sz.n/3, len(ss))...)
		}
		p.Splits = append(p.Splits, sp)
	}
	if c.Train <= 0 {
		return nil, fmt.Errorf("--train must be above 0 for an entailment build")
	}
	return p, nil
}

// spread spreads n triples over k strata as evenly as possible, the
// first strata taking one more when k does not divide n.
func spread(n, k int) []int {
	out := make([]int, k)
	for s := range out {
		out[s] = n / k
		if s < n%k {
			out[s]++
		}
	}
	return out
}

// Frag returns the plan's fragment; a joint plan has none (see
// StratumFragment).
func (p *BuildPlan) Frag() fragments.Fragment {
	f, _ := fragments.ParseFragment(p.Fragment)
	return f
}

// Joint reports whether the plan builds several fragments together: each
// stratum names its fragment, every split holds the sizes asked for per
// fragment, and no two triples anywhere share a premise set (up to
// renaming and order), whatever their fragments.
func (p *BuildPlan) Joint() bool { return strings.Contains(p.Fragment, ",") }

// StratumFragment returns the fragment stratum s draws from.
func (p *BuildPlan) StratumFragment(s int) fragments.Fragment {
	if name := p.Strata[s].Fragment; name != "" {
		f, _ := fragments.ParseFragment(name)
		return f
	}
	return p.Frag()
}

// Fragments returns the fragments of the plan, in its order.
func (p *BuildPlan) Fragments() []string { return strings.Split(p.Fragment, ",") }

// Params returns the sampler parameters, with the plan's vocabulary.
func (p *BuildPlan) Params() fragments.Params { return p.Sampler.WithLexicon(p.Vocabulary) }

// Lexicon returns the plan's vocabulary, the built-in one if none.
func (p *BuildPlan) Lexicon() *fragments.Lexicon { return p.Vocabulary.OrDefault() }

// Digest identifies the plan: the SHA-256 of its JSON form.
func (p *BuildPlan) Digest() string {
	b, _ := json.Marshal(p)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// quota is the number of triples stratum s holds over all splits.
func (p *BuildPlan) quota(s int) int {
	n := 0
	for _, sp := range p.Splits {
		n += sp.Triples[s]
	}
	return n
}

// Records is the number of records the build writes.
func (p *BuildPlan) Records() int {
	n := 0
	for _, sp := range p.Splits {
		n += sp.Size
	}
	return n
}

// Command renders the plan as the command line that rebuilds it, with
// every option that changes the output, in a fixed order; solver is the
// --solver asked for.
func (c BuildConfig) Command(p *BuildPlan, solver string) string {
	args := []string{"nlsat split --task entailment", "--fragment " + p.Fragment}
	sizes := map[string]int{}
	for _, sp := range p.Splits {
		sizes[sp.Name] = sp.Size / len(p.Fragments()) // a joint build's sizes are per fragment
	}
	for _, n := range []string{split.Train, split.Validation, split.Test} {
		args = append(args, fmt.Sprintf("--%s %d", n, sizes[n]))
	}
	args = append(args, fmt.Sprintf("--seed %d", p.Seed), fmt.Sprintf("--draw-limit %d", p.DrawLimit))
	if c.RegionFile != "" {
		args = append(args, "--region "+c.RegionFile)
	}
	if c.MaxWords > 0 {
		args = append(args, fmt.Sprintf("--max-words %d", c.MaxWords))
	}
	args = append(args, split.SamplerArgs(p.Sampler)...)
	if !p.Audit {
		args = append(args, "--audit=false")
	}
	return strings.Join(append(args, "--solver "+solver), " ")
}

// SplitDefaults are the record counts of an entailment build whose sizes
// are not given.
var SplitDefaults = map[string]int{"train": 3000, "validation": 300, "test": 300}
