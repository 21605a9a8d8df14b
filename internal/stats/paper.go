package stats

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/nlsat/nlsat/internal/paperdata"
)

// PaperLengths are the paper's Tables 4 and 5 (paperdata.TrainLengths)
// as rows of a Report.
var PaperLengths = paperLengths()

func paperLengths() []Lengths {
	var out []Lengths
	for _, l := range paperdata.TrainLengths {
		out = append(out, Lengths{Fragment: l.Fragment, Instances: l.Instances,
			Sentences: Summary{Min: l.Sentences.Min, Max: l.Sentences.Max, Mean: l.Sentences.Mean},
			Words:     Summary{Min: l.Words.Min, Max: l.Words.Max, Mean: l.Words.Mean}})
	}
	return out
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
