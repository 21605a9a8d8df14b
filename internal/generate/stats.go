package generate

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/nlsat/nlsat/internal/solver"
)

// Stats counts the instances a run drew, and those left undecided, per
// (m, n1, n2) point.
type Stats struct {
	drawn    int
	points   map[[3]int]*pointCount
	statuses [3]int
}

type pointCount struct {
	drawn, unknown int
	reasons        map[string]int
	statuses       [3]int
}

// NewStats returns empty counts.
func NewStats() *Stats { return &Stats{points: map[[3]int]*pointCount{}} }

// PointStat is one point's counts in a checkpoint.
type PointStat struct {
	Point   [3]int         `json:"point"`
	Drawn   int            `json:"drawn"`
	Unknown int            `json:"unknown"`
	Reasons map[string]int `json:"reasons"`
	Status  [3]int         `json:"status"`
}

// export lists the counts in a stable order, for checkpoints.
func (u *Stats) export() []PointStat {
	out := []PointStat{}
	for k, pc := range u.points {
		out = append(out, PointStat{Point: k, Drawn: pc.drawn, Unknown: pc.unknown, Reasons: pc.reasons, Status: pc.statuses})
	}
	slices.SortFunc(out, func(a, b PointStat) int { return slices.Compare(a.Point[:], b.Point[:]) })
	return out
}

// load adds counts exported by an earlier run.
func (u *Stats) load(ps []PointStat) {
	for _, p := range ps {
		pc := &pointCount{drawn: p.Drawn, unknown: p.Unknown, reasons: p.Reasons, statuses: p.Status}
		if pc.reasons == nil {
			pc.reasons = map[string]int{}
		}
		u.points[p.Point] = pc
		u.drawn += p.Drawn
		for st, n := range p.Status {
			u.statuses[st] += n
		}
	}
}

// Add counts one instance of point (m, n1, n2) with its status, and the
// reason when it is Unknown.
func (u *Stats) Add(point [3]int, st solver.Status, why string) {
	u.drawn++
	u.statuses[st]++
	pc := u.points[point]
	if pc == nil {
		pc = &pointCount{reasons: map[string]int{}}
		u.points[point] = pc
	}
	pc.drawn++
	pc.statuses[st]++
	if st == solver.Unknown {
		pc.unknown++
		pc.reasons[why]++
	}
}

// Drawn returns the number of instances counted.
func (u *Stats) Drawn() int { return u.drawn }

// Undecided returns the number of instances counted Unknown.
func (u *Stats) Undecided() int { return u.statuses[solver.Unknown] }

// Report writes how many instances were written and drawn and, if any
// stayed undecided, how many per point and why.
func (u *Stats) Report(w io.Writer, written int) {
	fmt.Fprintf(w, "nlsat: wrote %d instances (%d sat, %d unsat) from %d drawn; %d undecided and dropped\n",
		written, u.statuses[solver.Sat], u.statuses[solver.Unsat], u.drawn, u.statuses[solver.Unknown])
	if u.statuses[solver.Unknown] == 0 {
		return
	}
	keys := make([][3]int, 0, len(u.points))
	for k, pc := range u.points {
		if pc.unknown > 0 {
			keys = append(keys, k)
		}
	}
	// By n1, n2, then m.
	slices.SortFunc(keys, func(a, b [3]int) int { return slices.Compare([]int{a[1], a[2], a[0]}, []int{b[1], b[2], b[0]}) })
	fmt.Fprintln(w, "nlsat: undecided per point (m, n1, n2): drawn, unknown, reasons")
	for _, k := range keys {
		pc := u.points[k]
		var rs []string
		for r, n := range pc.reasons {
			rs = append(rs, fmt.Sprintf("%s %d", r, n))
		}
		sort.Strings(rs)
		fmt.Fprintf(w, "  m=%d n1=%d n2=%d: %d drawn, %d unknown (%s)\n", k[0], k[1], k[2], pc.drawn, pc.unknown, strings.Join(rs, ", "))
	}
}
