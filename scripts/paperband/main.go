// Command paperband compares the phase sweeps that scripts/paper-band.sh
// writes: for each fragment and size, P(sat) by nlsat's complete decider
// (DIR/native/F-nN) against P(sat) by the paper's labeller (DIR/paper/F-nN:
// one plain Z3 check, unknowns dropped), the band each puts in [0.35,
// 0.65], where each crosses 0.5, and the shipped region and the paper's
// Table 4. It prints the comparison as Markdown and, with -regions DIR,
// writes DIR/paper-F.json: the points of the paper labeller's band of
// every size swept, the region split --region paper draws from.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/stats"
)

func main() {
	regions := flag.String("regions", "", "write paper-F.json for every fragment swept into this directory")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: paperband [-regions DIR] SWEEP_DIR")
		os.Exit(2)
	}
	if err := run(os.Stdout, flag.Arg(0), *regions); err != nil {
		fmt.Fprintln(os.Stderr, "paperband:", err)
		os.Exit(1)
	}
}

// curve is one fragment and size swept by both labellers.
type curve struct {
	f             fragments.Fragment
	n             int
	native, paper []phase.Estimate
	region        *phase.Region // the paper labeller's
}

func run(w io.Writer, dir, regions string) error {
	var cs []curve
	for _, f := range []fragments.Fragment{fragments.V, fragments.Z, fragments.A} {
		for _, n := range []int{4, 6} {
			c, err := load(dir, f, n)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return err
			}
			cs = append(cs, c)
		}
	}
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("# Where the paper's labelling method puts the band\n\n")
	p("Written by scripts/paper-band.sh. Both labellers decide the same instances (sample s of a point draws from the seed and its index alone). ")
	p("*true* is nlsat's complete decider; *paper* is one plain Z3 quantified check per instance, unknowns dropped from P(sat) and counted. ")
	p("*sat among unknown* is the true sat count minus the paper labeller's (every decided answer agreed).\n\n")
	summary(p, cs)
	for _, c := range cs {
		detail(p, c)
	}
	if regions == "" {
		return nil
	}
	return writeRegions(regions, cs)
}

func load(dir string, f fragments.Fragment, n int) (curve, error) {
	c := curve{f: f, n: n}
	sub := fmt.Sprintf("%s-n%d", f, n)
	var err error
	if c.native, err = readPoints(filepath.Join(dir, "native", sub, "points.csv")); err != nil {
		return c, err
	}
	if c.paper, err = readPoints(filepath.Join(dir, "paper", sub, "points.csv")); err != nil {
		return c, err
	}
	if len(c.native) != len(c.paper) {
		return c, fmt.Errorf("%s: the two sweeps have %d and %d points", sub, len(c.native), len(c.paper))
	}
	b, err := os.ReadFile(filepath.Join(dir, "paper", sub, "region.json"))
	if err != nil {
		return c, err
	}
	if c.region, err = phase.ReadRegion(bytes.NewReader(b)); err != nil && !strings.Contains(err.Error(), "no points") {
		return c, fmt.Errorf("%s: %w", sub, err)
	}
	return c, nil
}

func readPoints(name string) ([]phase.Estimate, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	es, err := phase.ReadPoints(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return es, nil
}

// crossing is the m where P(sat) first falls through 0.5, interpolated.
func crossing(es []phase.Estimate) float64 {
	if cs := phase.Crossings(es); len(cs) > 0 {
		return cs[0].M
	}
	return math.NaN()
}

// band lists the swept m whose P(sat) lies in [0.35, 0.65].
func band(es []phase.Estimate) string {
	var ms []string
	for _, e := range es {
		if phase.PaperBand().Contains(e.P) {
			ms = append(ms, fmt.Sprint(e.M))
		}
	}
	if len(ms) == 0 {
		return "none"
	}
	return strings.Join(ms, ", ")
}

// shipped lists the m of the shipped region at (n, n).
func shipped(f fragments.Fragment, n int) string {
	r, err := phase.DefaultRegion(f)
	if err != nil {
		return "?"
	}
	var ms []int
	for _, p := range r.Points {
		if p.N1 == n && p.N2 == n {
			ms = append(ms, p.M)
		}
	}
	slices.Sort(ms)
	return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(ms)), ", "), "[]")
}

func summary(p func(string, ...any), cs []curve) {
	p("## Summary\n\n")
	p("| fragment | n1 = n2 | m swept | true band (m) | paper band (m) | shipped region (m) | true 0.5 at m | paper 0.5 at m | ratio | unknown | sat among unknown |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range cs {
		unk, n, satUnk := 0, 0, 0
		for i, e := range c.paper {
			unk, n, satUnk = unk+e.Unknown, n+e.N, satUnk+c.native[i].Sat-e.Sat
		}
		tc, pc := crossing(c.native), crossing(c.paper)
		p("| %s | %d | %d–%d | %s | %s | %s | %.1f | %.1f | %.2f | %d of %d (%.0f%%) | %d |\n", c.f, c.n, c.native[0].M, c.native[len(c.native)-1].M,
			band(c.native), band(c.paper), shipped(c.f, c.n), tc, pc, pc/tc, unk, n, 100*float64(unk)/float64(n), satUnk)
	}
	p("\nThe paper's Table 4 (its training sets, n1 and n2 drawn from 3–8) against the shipped true regions (n1, n2 3–8) and the paper labeller's bands. ")
	p("The last column is an estimate, not a measurement: the true region's mean m times the mean ratio of the 0.5 crossings measured above.\n\n")
	p("| fragment | paper's Table 4: m min–max (mean) | true region: m min–max (mean of its points) | paper labeller's band: m at n1 = n2 = 4, 6 | crossing ratio | estimated paper-band mean m |\n|---|---|---|---|---|---|\n")
	for _, pl := range stats.PaperLengths[2:] {
		f, _ := fragments.ParseFragment(pl.Fragment)
		r, err := phase.DefaultRegion(f)
		if err != nil {
			continue
		}
		lo, hi, sum := math.MaxInt, 0, 0
		for _, pt := range r.Points {
			lo, hi, sum = min(lo, pt.M), max(hi, pt.M), sum+pt.M
		}
		mean := float64(sum) / float64(len(r.Points))
		var bands []string
		ratio, k := 0.0, 0
		for _, c := range cs {
			if c.f == f {
				bands = append(bands, fmt.Sprintf("%d: %s", c.n, band(c.paper)))
				if q := crossing(c.paper) / crossing(c.native); !math.IsNaN(q) {
					ratio, k = ratio+q, k+1
				}
			}
		}
		est := "-"
		if k > 0 {
			ratio /= float64(k)
			est = fmt.Sprintf("%.1f", mean*ratio)
		}
		p("| %s | %d–%d (%.2f) | %d–%d (%.2f) | %s | %.2f | %s |\n", pl.Fragment, pl.Sentences.Min, pl.Sentences.Max, pl.Sentences.Mean, lo, hi, mean,
			strings.Join(bands, "; "), ratio, est)
	}
	p("\n")
}

func detail(p func(string, ...any), c curve) {
	p("## %s, n1 = n2 = %d\n\n| m | true P(sat) | paper P(sat) | paper 95%% interval | unknown | sat among unknown |\n|---|---|---|---|---|---|\n", c.f, c.n)
	for i, e := range c.paper {
		t := c.native[i]
		p("| %d | %.3f (%d/%d) | %.3f (%d/%d) | [%.3f, %.3f] | %d | %d |\n", e.M, t.P, t.Sat, t.N, e.P, e.Sat, e.Decided(), e.CI.Lo, e.CI.Hi, e.Unknown, t.Sat-e.Sat)
	}
	p("\n")
}

// writeRegions writes paper-F.json: the paper labeller's band points of
// every size of F, in one region.
func writeRegions(dir string, cs []curve) error {
	for _, f := range []fragments.Fragment{fragments.V, fragments.Z, fragments.A} {
		var r *phase.Region
		for _, c := range cs {
			if c.f != f || c.region == nil {
				continue
			}
			if r == nil {
				cp := *c.region
				r = &cp
				r.Points = nil
			}
			r.Points = append(r.Points, c.region.Points...)
		}
		if r == nil || len(r.Points) == 0 {
			continue
		}
		var b bytes.Buffer
		if err := r.Write(&b); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "paper-"+f.String()+".json"), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
