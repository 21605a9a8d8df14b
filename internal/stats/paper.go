package stats

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// PaperLengths are the rows of the paper's Tables 4 (sentences m per
// instance) and 5 (words, "separated by SPACE") for its training sets of
// 120K instances per fragment, copied from its Appendix D.1. The tables'
// headers read "minimum, maximum, mean" but every row gives the larger
// number first (S: 29, 8, 17.06); the numbers are kept and read as
// maximum, minimum, mean, the only order their means allow.
var PaperLengths = []Lengths{
	{Fragment: "S", Instances: 120000, Sentences: Summary{Min: 8, Max: 29, Mean: 17.06}, Words: Summary{Min: 35, Max: 149, Mean: 83.19}},
	{Fragment: "W", Instances: 120000, Sentences: Summary{Min: 9, Max: 32, Mean: 18.95}, Words: Summary{Min: 43, Max: 267, Mean: 129.08}},
	{Fragment: "V", Instances: 120000, Sentences: Summary{Min: 5, Max: 25, Mean: 14.00}, Words: Summary{Min: 22, Max: 221, Mean: 97.37}},
	{Fragment: "Z", Instances: 120000, Sentences: Summary{Min: 6, Max: 28, Mean: 14.31}, Words: Summary{Min: 29, Max: 274, Mean: 110.22}},
	{Fragment: "A", Instances: 120000, Sentences: Summary{Min: 8, Max: 34, Mean: 16.50}, Words: Summary{Min: 39, Max: 318, Mean: 123.42}},
}

// WritePaperComparison prints the paper's Tables 4 and 5 beside the same
// figures of rep, one row per fragment of the paper; a fragment rep has
// no instances of shows "-" on its side. The last column is rep's mean
// over the paper's.
func WritePaperComparison(w io.Writer, rep Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	mine := map[string]Lengths{}
	for _, l := range rep.Lengths {
		mine[l.Fragment] = l
	}
	for _, t := range []struct {
		title string
		pick  func(Lengths) Summary
	}{
		{"Sentences per instance: these records against the paper's Table 4 (its training sets)", func(l Lengths) Summary { return l.Sentences }},
		{"Words per instance, split at spaces: these records against the paper's Table 5", func(l Lengths) Summary { return l.Words }},
	} {
		p("%s\n", t.title)
		p("fragment\tinstances\tmin\tmax\tmean\tpaper min\tpaper max\tpaper mean\tmean ÷ paper\t\n")
		for _, pl := range PaperLengths {
			ps := t.pick(pl)
			paper := fmt.Sprintf("%d\t%d\t%.2f", ps.Min, ps.Max, ps.Mean)
			l, ok := mine[pl.Fragment]
			if !ok {
				p("%s\t0\t-\t-\t-\t%s\t-\t\n", pl.Fragment, paper)
				continue
			}
			s := t.pick(l)
			p("%s\t%d\t%d\t%d\t%.2f\t%s\t%.2f\t\n", pl.Fragment, l.Instances, s.Min, s.Max, s.Mean, paper, s.Mean/ps.Mean)
		}
		p("\n")
	}
	p("The paper's tables print each row's maximum before its minimum; they are shown here in order.\n")
	return tw.Flush()
}
