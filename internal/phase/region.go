package phase

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/nlsat/nlsat/internal/binom"
	"github.com/nlsat/nlsat/internal/fragments"
)

// Region is the content of region.json: the points of one fragment whose
// estimated P(sat) lies in the band, and everything that produced them.
type Region struct {
	Fragment   string                  `json:"fragment"`
	Band       Band                    `json:"band"`
	Confidence float64                 `json:"confidence"`
	Seed       uint64                  `json:"seed"`
	Samples    int                     `json:"samples"`
	Budget     int                     `json:"budget"`
	Params     fragments.SamplerParams `json:"sampler"`
	Version    string                  `json:"version"`
	Solver     string                  `json:"solver"`
	// Labeller describes how the sweep labelled when not with the
	// solver's complete answers (the paper's method: one plain Z3 check,
	// unknowns dropped). Such a region only says where to draw; a
	// dataset drawn from it is labelled by its own solver.
	Labeller string        `json:"labeller,omitempty"`
	Points   []RegionPoint `json:"points"`
}

// RegionPoint is one point of a region with its estimate.
type RegionPoint struct {
	Point
	N int `json:"n"`
	// Unknown counts the instances of N left undecided, not in PSat.
	Unknown int            `json:"unknown,omitempty"`
	PSat    float64        `json:"p_sat"`
	CI      binom.Interval `json:"ci"`
	Verdict Verdict        `json:"verdict"`
}

// NewRegion collects the estimates of cfg.Fragment whose P(sat) lies in cfg.Band.
func NewRegion(cfg Config, es []Estimate, version, solverName string) *Region {
	r := &Region{Fragment: cfg.Fragment.String(), Band: cfg.Band, Confidence: Confidence, Seed: cfg.Seed,
		Samples: cfg.Samples, Budget: max(cfg.Budget, cfg.Samples), Version: version, Solver: solverName,
		Params: cfg.Params.SamplerParams,
		Points: []RegionPoint{}}
	for _, e := range es {
		if e.Fragment == cfg.Fragment && !math.IsNaN(e.P) && cfg.Band.Contains(e.P) {
			r.Points = append(r.Points, RegionPoint{Point: e.Point, N: e.N, Unknown: e.Unknown, PSat: round4(e.P),
				CI: binom.Interval{Lo: round4(e.CI.Lo), Hi: round4(e.CI.Hi)}, Verdict: e.Verdict})
		}
	}
	return r
}

// Write writes the region as indented JSON.
func (r *Region) Write(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadRegion parses and checks a region file.
func ReadRegion(rd io.Reader) (*Region, error) {
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	var r Region
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a region file: %w", err)
	}
	if _, err := fragments.ParseFragment(r.Fragment); err != nil {
		return nil, fmt.Errorf("region: %w", err)
	}
	if len(r.Points) == 0 {
		return nil, errors.New("region has no points")
	}
	for i, p := range r.Points {
		if p.M < 1 || p.N1 < 1 || p.N2 < 0 {
			return nil, fmt.Errorf("region point %d: m=%d n1=%d n2=%d is not a point", i, p.M, p.N1, p.N2)
		}
	}
	return &r, nil
}

// FragmentOf returns the region's fragment.
func (r *Region) FragmentOf() fragments.Fragment {
	f, _ := fragments.ParseFragment(r.Fragment)
	return f
}
