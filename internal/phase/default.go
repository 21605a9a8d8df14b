package phase

import (
	"bytes"
	"embed"
	"fmt"

	"github.com/nlsat/nlsat/internal/fragments"
)

// defaultRegions are the regions of the default sweep (nlsat phase-sweep
// with every default: band 0.35–0.65, 200 instances per point, the
// sampler's default parameters, native labels), shipped so that a dataset
// can be built without running a sweep first.
//
//go:embed regions/*.json
var defaultRegions embed.FS

// DefaultRegion returns the shipped region of fragment f.
func DefaultRegion(f fragments.Fragment) (*Region, error) {
	b, err := defaultRegions.ReadFile("regions/" + f.String() + ".json")
	if err != nil {
		return nil, fmt.Errorf("no built-in region for fragment %v", f)
	}
	r, err := ReadRegion(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("built-in region of %v: %w", f, err)
	}
	return r, nil
}

// PaperRegion returns the shipped paper band of fragment f: the points
// where a sweep with the paper's labeller (backends.PaperLabeller: one
// plain Z3 check, unknowns dropped) put P(sat) in the band
// (regions/paper-F.json, measured by scripts/paper-band.sh). For a
// fragment whose paper band was not measured apart, because Z3 decides
// its instances (S, W), it is DefaultRegion. The region only says where
// to draw: the labels of a dataset drawn from it are its own solver's.
func PaperRegion(f fragments.Fragment) (*Region, error) {
	if f == fragments.S || f == fragments.W {
		return DefaultRegion(f)
	}
	b, err := defaultRegions.ReadFile("regions/paper-" + f.String() + ".json")
	if err != nil {
		return nil, fmt.Errorf("no built-in paper region for fragment %v", f)
	}
	r, err := ReadRegion(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("built-in paper region of %v: %w", f, err)
	}
	return r, nil
}
