package stats

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteText prints the report as plain-text tables, one section per
// question, with aligned columns. Means have two decimals, as in the paper.
func WriteText(w io.Writer, rep Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	p("%d records: %d sat, %d unsat, %d unlabelled\n", rep.Records, rep.Labels.Sat, rep.Labels.Unsat, rep.Labels.Unlabelled)

	p("\nSentences per instance (the paper's Table 4)\n")
	p("fragment\tinstances\tmin\tmax\tmean\t\n")
	for _, l := range rep.Lengths {
		p("%s\t%d\t%d\t%d\t%.2f\t\n", l.Fragment, l.Instances, l.Sentences.Min, l.Sentences.Max, l.Sentences.Mean)
	}
	p("\nWords per instance, split at spaces (the paper's Table 5)\n")
	p("fragment\tinstances\tmin\tmax\tmean\t\n")
	for _, l := range rep.Lengths {
		p("%s\t%d\t%d\t%d\t%.2f\t\n", l.Fragment, l.Instances, l.Words.Min, l.Words.Max, l.Words.Mean)
	}

	p("\nLabel balance per stratum (fragment, n1, n2)\n")
	p("fragment\tn1\tn2\tinstances\tsat\tunsat\tunlabelled\tsat share\t\n")
	for _, s := range rep.Strata {
		p("%s\t%d\t%d\t%s\n", s.Fragment, s.N1, s.N2, labelCols(s.Labels))
	}
	p("\nLabel balance per number of sentences (fragment, m)\n")
	p("fragment\tm\tinstances\tsat\tunsat\tunlabelled\tsat share\t\n")
	for _, s := range rep.ByM {
		p("%s\t%d\t%s\n", s.Fragment, s.M, labelCols(s.Labels))
	}

	p("\nTemplates\n")
	writeFreqs(p, "template", rep.Template)
	p("\nTemplate variants\n")
	writeFreqs(p, "variant", rep.Variants)
	return tw.Flush()
}

// labelCols prints a stratum's counts; the sat share is "-" where no
// instance is labelled.
func labelCols(l Labels) string {
	share := "-"
	if l.Sat+l.Unsat > 0 {
		share = fmt.Sprintf("%.3f", l.SatShare())
	}
	return fmt.Sprintf("%d\t%d\t%d\t%d\t%s\t", l.Total(), l.Sat, l.Unsat, l.Unlabelled, share)
}

func writeFreqs(p func(string, ...any), what string, fs []TemplateFreq) {
	p("%s\tsentences\tshare\t\n", what)
	for _, f := range fs {
		p("%s\t%d\t%.4f\t\n", f.ID, f.Count, f.Share)
	}
}
