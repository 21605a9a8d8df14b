package phase

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
)

// GridSpec is what a user asks of a sweep's grid; a nil field keeps the
// fragment's default (DefaultGrid). At most one of M, Alpha and Beta may
// be given.
type GridSpec struct {
	N1, N2, M *Range
	MStep     int
	// N1Step and N2Step take every k-th value of N1 and N2 (0: every
	// one).
	N1Step, N2Step int
	Alpha, Beta    *Ratios
}

// Grid resolves the spec into the grid of fragment f. N2 is ignored for
// the monadic fragments, which have no verbs.
func (s GridSpec) Grid(f fragments.Fragment) (Grid, error) {
	g := DefaultGrid(f)
	if btoi(s.M != nil)+btoi(s.Alpha != nil)+btoi(s.Beta != nil) > 1 {
		return g, errors.New("--m, --alpha and --beta are alternatives: give one")
	}
	if s.N1 != nil {
		g.N1, g.N1Step = *s.N1, s.N1Step
	}
	if s.N2 != nil && f.HasVerbs() {
		g.N2, g.N2Step = *s.N2, s.N2Step
	}
	switch {
	case s.M != nil:
		g.M, g.Alpha, g.MStep = s.M, nil, s.MStep
	case s.Alpha != nil:
		g.Alpha = s.Alpha
	case s.Beta != nil:
		if !f.HasVerbs() {
			return g, fmt.Errorf("--beta needs verbs: fragment %s has no verbs (use --alpha or --m)", f)
		}
		g.Alpha, g.Beta = nil, s.Beta
	}
	if s.MStep < 1 {
		return g, fmt.Errorf("--m-step must be at least 1, got %d", s.MStep)
	}
	return g, nil
}

// ParseRatios reads a range of ratios written "LO-HI:STEP", "LO-HI" (step
// 1) or a single "R".
func ParseRatios(s string) (Ratios, error) {
	bad := fmt.Errorf("%q is not a ratio or a range such as 0.5-3:0.25", s)
	span, step, hasStep := strings.Cut(strings.TrimSpace(s), ":")
	lo, hi, isRange := strings.Cut(span, "-")
	var v [3]float64
	var err error
	for i, t := range []string{lo, hi, step} {
		if t == "" && (i == 1 && !isRange || i == 2 && !hasStep) {
			continue
		}
		if v[i], err = strconv.ParseFloat(strings.TrimSpace(t), 64); err != nil || !(v[i] >= 0) || v[i] > 1e3 {
			return Ratios{}, bad
		}
	}
	if !isRange {
		v[1] = v[0]
	}
	if !hasStep {
		v[2] = 1
	}
	if v[1] < v[0] || v[2] <= 0 {
		return Ratios{}, fmt.Errorf("%q needs low <= high and a positive step", s)
	}
	return Ratios{Lo: v[0], Hi: v[1], Step: v[2]}, nil
}

// String writes the ratios as ParseRatios reads them.
func (r Ratios) String() string { return fmt.Sprintf("%g-%g:%g", r.Lo, r.Hi, r.Step) }
