// Package units builds datasets of tasks whose records come in units of
// one record per class, balanced by construction: a unit (entailment's
// triple of three hypotheses on one premise set, for one) is drawn for a
// stratum, deduplicated by the instance that identifies it, and never
// crosses splits, so every stratum of every split holds the classes in
// equal numbers. It is the split driver of every such task: the task
// (Task) says how a unit is drawn and decided, what its records are and
// what the dataset's card says; the build, its shards and their merge,
// the manifest and the checksums are the same for all.
//
// The build draws candidate i for stratum i mod S from (seed ⊕ the
// task's draw stream, i) alone and accepts candidates in index order
// until every stratum holds its quota, so its output is the same for any
// number of workers or shards; an interrupted build resumes from its
// checkpoint. A task whose draws need a model of its own output
// (Piloted: entailment's matching of hypotheses on a model of their
// premise patterns) first draws a pilot from a stream of its own, a
// function of the plan alone, and fits the model to it; a Refiner then
// draws a residual pilot with that model, from another stream, and fits
// a second stage to it.
package units

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

// Config is what a user asks of a build.
type Config struct {
	Fragment fragments.Fragment
	// Fragments, if it holds more than one, makes a joint build: one
	// dataset of every fragment's strata, each with the record counts
	// asked for.
	Fragments []fragments.Fragment
	// Train, Validation and Test are record counts, multiples of the
	// number of classes (per fragment in a joint build).
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

// Plan is the fully resolved configuration of a build. Its JSON form is
// recorded in the manifest and identifies a build for resuming.
type Plan struct {
	Task       string                  `json:"task"`
	Fragment   string                  `json:"fragment"`
	Seed       uint64                  `json:"seed"`
	Sampler    fragments.SamplerParams `json:"sampler"`
	Vocabulary *fragments.Lexicon      `json:"vocabulary,omitempty"`
	Solver     string                  `json:"solver"`
	// Dedup is always split.DedupRenaming: no two units of the build are
	// identified by instances equal up to renaming and order (nor, so,
	// equal as written).
	Dedup string `json:"dedup"`
	// DrawLimit bounds the candidates of a stratum, as a multiple of the
	// units it must hold.
	DrawLimit int `json:"draw_limit"`
	// Pilot is the number of units a Piloted task draws before the
	// candidates, to fit the model it draws them with (0 for none).
	Pilot int `json:"pilot,omitempty"`
	// Residual is the number of units a Refiner draws after the pilot, by
	// the model fitted to it, to fit its residual stage (0 for none).
	Residual int       `json:"residual_pilot,omitempty"`
	Audit    bool      `json:"audit"`
	Source   string    `json:"source"`
	Strata   []Stratum `json:"strata"`
	Splits   []Split   `json:"splits"`
}

// Stratum is one stratum of a build: a stratum of the region and, in a
// joint build, the fragment it draws from (empty otherwise, the plan's).
type Stratum struct {
	split.Stratum
	Fragment string `json:"fragment,omitempty"`
}

// Split is one output file: its size in records and, per stratum, the
// units it holds (each one record per class). Its JSON form calls the
// units by the task's name for them (Task.Unit), plural.
type Split struct {
	Name  string
	File  string
	Size  int
	Units []int
	noun  string
}

// MarshalJSON writes the split with its units under the task's noun.
func (s Split) MarshalJSON() ([]byte, error) {
	units := s.Units
	if units == nil {
		units = []int{}
	}
	return marshalOrdered([]field{{"name", s.Name}, {"file", s.File}, {"size", s.Size}, {s.noun + "s", units}})
}

// UnmarshalJSON reads a split as MarshalJSON writes it, whatever its
// noun.
func (s *Split) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*s = Split{}
	for k, v := range m {
		var err error
		switch k {
		case "name":
			err = json.Unmarshal(v, &s.Name)
		case "file":
			err = json.Unmarshal(v, &s.File)
		case "size":
			err = json.Unmarshal(v, &s.Size)
		default:
			s.noun = strings.TrimSuffix(k, "s")
			err = json.Unmarshal(v, &s.Units)
		}
		if err != nil {
			return fmt.Errorf("split %s: %w", k, err)
		}
	}
	return nil
}

// field is one key and value of a JSON object written in a fixed order.
type field struct {
	key   string
	value any
}

// marshalOrdered writes the fields as a JSON object, in their order.
func marshalOrdered(fs []field) ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// NewPlan resolves c for task t. Its errors are about the configuration.
func NewPlan(t Task, c Config) (*Plan, error) {
	k := len(t.Classes())
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
	p := &Plan{Task: t.Name(), Seed: c.Seed, Sampler: c.Sampler, Vocabulary: c.Vocabulary,
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
		if sz.n < 0 || sz.n%k != 0 {
			return nil, fmt.Errorf("--%s %d: %s records come in %ss, one per label; give a multiple of %d", sz.name, sz.n, t.Name(), t.Unit(), k)
		}
		if sz.n == 0 {
			continue
		}
		sp := Split{Name: sz.name, File: "data/" + sz.name + ".jsonl", Size: sz.n * len(frags), noun: t.Unit()}
		for _, ss := range perFrag {
			sp.Units = append(sp.Units, spread(sz.n/k, len(ss))...)
		}
		p.Splits = append(p.Splits, sp)
	}
	if c.Train <= 0 {
		return nil, fmt.Errorf("--train must be above 0 for %s build", article(t.Name()))
	}
	if pt, ok := t.(Piloted); ok {
		p.Pilot = pt.PilotUnits(p.Units())
		if _, ok := t.(Refiner); ok {
			p.Residual = p.Pilot
		}
	}
	return p, nil
}

// article puts "a" or "an" before a task's name.
func article(name string) string {
	if strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// spread spreads n units over k strata as evenly as possible, the first
// strata taking one more when k does not divide n.
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
func (p *Plan) Frag() fragments.Fragment {
	f, _ := fragments.ParseFragment(p.Fragment)
	return f
}

// Joint reports whether the plan builds several fragments together: each
// stratum names its fragment, every split holds the sizes asked for per
// fragment, and no two units anywhere are identified by the same
// instance (up to renaming and order), whatever their fragments.
func (p *Plan) Joint() bool { return strings.Contains(p.Fragment, ",") }

// StratumFragment returns the fragment stratum s draws from.
func (p *Plan) StratumFragment(s int) fragments.Fragment {
	if name := p.Strata[s].Fragment; name != "" {
		f, _ := fragments.ParseFragment(name)
		return f
	}
	return p.Frag()
}

// Fragments returns the fragments of the plan, in its order.
func (p *Plan) Fragments() []string { return strings.Split(p.Fragment, ",") }

// Params returns the sampler parameters, with the plan's vocabulary.
func (p *Plan) Params() fragments.Params { return p.Sampler.WithLexicon(p.Vocabulary) }

// Lexicon returns the plan's vocabulary, the built-in one if none.
func (p *Plan) Lexicon() *fragments.Lexicon { return p.Vocabulary.OrDefault() }

// Digest identifies the plan: the SHA-256 of its JSON form.
func (p *Plan) Digest() string {
	b, _ := json.Marshal(p)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// quota is the number of units stratum s holds over all splits.
func (p *Plan) quota(s int) int {
	n := 0
	for _, sp := range p.Splits {
		n += sp.Units[s]
	}
	return n
}

// Records is the number of records the build writes.
func (p *Plan) Records() int {
	n := 0
	for _, sp := range p.Splits {
		n += sp.Size
	}
	return n
}

// Units is the number of units the build accepts.
func (p *Plan) Units() int {
	n := 0
	for s := range p.Strata {
		n += p.quota(s)
	}
	return n
}

// Command renders the plan as the command line that rebuilds it, with
// every option that changes the output, in a fixed order; solver is the
// --solver asked for.
func (c Config) Command(p *Plan, solver string) string {
	args := []string{"nlsat split --task " + p.Task, "--fragment " + p.Fragment}
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
