package phase

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/nlsat/nlsat/internal/fragments"
)

// ReadPoints parses a points.csv written by WritePoints. Errors name the
// line.
func ReadPoints(r io.Reader) ([]Estimate, error) {
	rows, err := readCSV(r, PointsHeader)
	if err != nil {
		return nil, err
	}
	es := make([]Estimate, 0, len(rows))
	for i, row := range rows {
		e, err := parsePoint(row)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+2, err)
		}
		es = append(es, e)
	}
	return es, nil
}

func readCSV(r io.Reader, header []string) ([][]string, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(header)
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 || !slices.Equal(rows[0], header) {
		return nil, fmt.Errorf("line 1: header is not %v", header)
	}
	return rows[1:], nil
}

// parseKey reads the fragment and the point from the first four fields.
func parseKey(row []string) (fragments.Fragment, Point, error) {
	f, err := fragments.ParseFragment(row[0])
	if err != nil {
		return 0, Point{}, err
	}
	var v [3]int
	for i := range v {
		if v[i], err = strconv.Atoi(row[1+i]); err != nil || v[i] < 0 {
			return 0, Point{}, fmt.Errorf("%s %q is not a count", PointsHeader[1+i], row[1+i])
		}
	}
	return f, Point{M: v[0], N1: v[1], N2: v[2]}, nil
}

func parsePoint(row []string) (Estimate, error) {
	f, p, err := parseKey(row)
	if err != nil {
		return Estimate{}, err
	}
	e := Estimate{Fragment: f, Point: p}
	for i, dst := range []*int{&e.N, &e.Sat, &e.Unsat, &e.Unknown} {
		if *dst, err = strconv.Atoi(row[6+i]); err != nil || *dst < 0 {
			return e, fmt.Errorf("%s %q is not a count", PointsHeader[6+i], row[6+i])
		}
	}
	if e.Sat+e.Unsat+e.Unknown != e.N {
		return e, fmt.Errorf("sat + unsat + unknown = %d, not n = %d", e.Sat+e.Unsat+e.Unknown, e.N)
	}
	for i, dst := range []*float64{&e.P, &e.CI.Lo, &e.CI.Hi} {
		if *dst, err = strconv.ParseFloat(row[10+i], 64); err != nil || *dst < 0 || *dst > 1 {
			if !(i == 0 && err == nil && math.IsNaN(*dst)) {
				return e, fmt.Errorf("%s %q is not a probability", PointsHeader[10+i], row[10+i])
			}
		}
	}
	switch v := Verdict(row[13]); v {
	case Above, Inside, Below, Straddles:
		e.Verdict = v
	default:
		return e, fmt.Errorf("verdict %q is not above, inside, below or straddles", row[13])
	}
	return e, nil
}

// ReadTiming parses a timing.csv and adds its times to the estimates of
// the same fragment and point; it returns how many it matched.
func ReadTiming(r io.Reader, es []Estimate) (int, error) {
	rows, err := readCSV(r, TimingHeader)
	if err != nil {
		return 0, err
	}
	index := pointIndex(es)
	matched := 0
	for li, row := range rows {
		f, p, err := parseKey(row)
		if err != nil {
			return matched, fmt.Errorf("line %d: %w", li+2, err)
		}
		var t [2]float64
		for k := range t {
			if t[k], err = strconv.ParseFloat(row[5+k], 64); err != nil || !(t[k] >= 0) {
				return matched, fmt.Errorf("line %d: %s %q is not a time", li+2, TimingHeader[5+k], row[5+k])
			}
		}
		if i, ok := index[pointKey{f, p}]; ok {
			es[i].Timed = true
			es[i].MedianTime = time.Duration(t[0] * float64(time.Millisecond))
			es[i].P90Time = time.Duration(t[1] * float64(time.Millisecond))
			matched++
		}
	}
	return matched, nil
}

// pointKey identifies an estimate by its fragment and point.
type pointKey struct {
	f fragments.Fragment
	p Point
}

// pointIndex maps each estimate's fragment and point to its position in es.
func pointIndex(es []Estimate) map[pointKey]int {
	index := make(map[pointKey]int, len(es))
	for i, e := range es {
		index[pointKey{e.Fragment, e.Point}] = i
	}
	return index
}
