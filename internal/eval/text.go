package eval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints the report as plain-text tables with aligned columns:
// a summary line and what shows that the predictions were made for the
// gold, then the overall score, the per-label scores and confusion matrix
// (Spec.PerLabel), a table per breakdown that has rows, the minimal pairs,
// the chains, and the answers that name no label. Accuracies have three
// decimals; "-" marks an accuracy over no parseable answer.
func WriteText(w io.Writer, rep Report) error {
	spec := rep.spec
	if spec == nil {
		spec = &Spec{Invalid: "unparseable"}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	head, tail := "", ""
	if spec.Head {
		head, tail = capitalize(spec.Name)+": ", "; "+rep.Answers+" answers"
	}
	p("%s%d gold records, %d predictions, %d scored, %d missing, %d %s%s\n",
		head, rep.Gold, rep.Predictions, rep.Overall.Count, rep.Missing, rep.Overall.Unparseable, spec.Invalid, tail)
	p("%s\n", checks(rep))
	table(p, spec, "Overall", []string{""}, []Row{{Key: []string{"all"}, Score: rep.Overall, Binary: rep.Binary}})
	if spec.PerLabel {
		writeLabels(p, rep)
	}
	for i, b := range spec.Breakdowns {
		rows := rep.Sections[i].Rows
		if len(rows) == 0 {
			continue
		}
		title := b.Title
		if b.Binned {
			title += fmt.Sprintf(", in bins of %d", rep.MBinWidth)
		}
		var cols []string
		for _, part := range b.Parts {
			cols = append(cols, part.Column)
		}
		table(p, spec, title, cols, rows)
	}
	if pr := rep.Pairs; pr != nil {
		p("\nMinimal pairs: %d scored, %d incomplete, %d with opposite gold labels\n", pr.Pairs, pr.Incomplete, pr.OppositeLabels)
		p("measure\tpairs\trate\t95%% CI\t\n")
		p("both twins correct\t%d\t%.3f\t%s\t\n", pr.BothCorrect.Hits, pr.BothCorrect.Rate, ci(pr.BothCorrect.CILow, pr.BothCorrect.CIHigh))
		p("prediction changed\t%d\t%.3f\t%s\t\n", pr.Changed.Hits, pr.Changed.Rate, ci(pr.Changed.CILow, pr.Changed.CIHigh))
	}
	if rep.Chains != nil {
		writeChains(p, rep.Chains)
	}
	if n := len(rep.Unparsed); n > 0 {
		p("\n%s answers (%s; --per-record writes every answer)\n", capitalize(spec.Invalid), listed(n))
		for _, u := range rep.Unparsed[:min(n, maxListed)] {
			p("%s  %q\n", u.ID, u.Answer)
		}
	}
	return tw.Flush()
}

// writeLabels prints the per-label scores and the confusion matrix.
func writeLabels(p func(string, ...any), rep Report) {
	p("\nPer label (%s answers); macro-F1 %.3f\n", rep.Answers, rep.MacroF1)
	p("label\tsupport\tpredicted\tcorrect\tprecision\trecall\tF1\t\n")
	for _, s := range rep.PerLabel {
		p("%s\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t\n", s.Label, s.Support, s.Predicted, s.Correct, s.Precision, s.Recall, s.F1)
	}
	p("\nConfusion matrix (rows gold, columns answer)\n")
	p("gold\t")
	for _, l := range rep.Labels {
		p("%s\t", l)
	}
	p("invalid\t\n")
	for i, row := range rep.Confusion {
		p("%s\t", rep.Labels[i])
		for _, n := range row {
			p("%d\t", n)
		}
		p("%d\t\n", rep.ConfusionInvalid[i])
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// maxListed is the most unparseable answers the text report lists.
const maxListed = 20

func listed(n int) string {
	if n <= maxListed {
		return fmt.Sprintf("all %d", n)
	}
	return fmt.Sprintf("the first %d of %d", maxListed, n)
}

// checks says what shows that the predictions were made for the gold.
func checks(rep Report) string {
	var parts []string
	if len(rep.Datasets) > 0 {
		parts = append(parts, "every prediction's id names gold's dataset "+strings.Join(rep.Datasets, ", "))
	}
	if rep.TextsChecked > 0 {
		parts = append(parts, fmt.Sprintf("%d instance texts equal gold's", rep.TextsChecked))
	}
	if len(parts) == 0 {
		return "not checked: the gold ids carry no dataset digest and no prediction carries its instance text, so predictions made for another dataset would go unnoticed"
	}
	return "checked: " + strings.Join(parts, "; ")
}

// table prints a table of rows: its title, the head of its key columns
// cols and the score's columns, then a line per row.
func table(p func(string, ...any), spec *Spec, title string, cols []string, rows []Row) {
	p("\n%s\n", title)
	p("%s\t%s\n", strings.Join(cols, "\t"), scoreHeader(spec))
	for _, r := range rows {
		p("%s\t%s\n", strings.Join(r.Key, "\t"), scoreCols(spec, r))
	}
}

// scoreHeader heads a score's columns: the count, the correct answers,
// the accuracy and its interval, the answers that name no label, then the
// binary accuracy and its interval (Spec.Binary) or the accuracy over the
// answers that name a label.
func scoreHeader(spec *Spec) string {
	h := "count\tcorrect\taccuracy\t95% CI\t" + spec.Invalid + "\t"
	if spec.Binary != nil {
		return h + "binary acc.\t95% CI\t"
	}
	return h + "acc. parseable\t"
}

func scoreCols(spec *Spec, r Row) string {
	s := r.Score
	cols := fmt.Sprintf("%d\t%d\t%.3f\t%s\t%d\t", s.Count, s.Correct, s.Accuracy, ci(s.CILow, s.CIHigh), s.Unparseable)
	if b := r.Binary; spec.Binary != nil {
		return cols + fmt.Sprintf("%.3f\t%s\t", b.Accuracy, ci(b.CILow, b.CIHigh))
	}
	parsed := "-"
	if s.Count > s.Unparseable {
		parsed = fmt.Sprintf("%.3f", s.AccuracyParseable)
	}
	return cols + parsed + "\t"
}

func ci(lo, hi float64) string { return fmt.Sprintf("%.3f-%.3f", lo, hi) }

// writeChains prints the chain-of-thought report: per gold label the
// share of chains valid to the end and of chains that claim a
// contradiction, then why and where the others stop being supported.
func writeChains(p func(string, ...any), c *ChainReport) {
	p("\nChains of thought, checked step by step\n")
	p("gold\trecords\tvalid\trate\t95%% CI\tclaim a contradiction\trate\t95%% CI\t\n")
	rows := []struct {
		label string
		s     ChainScore
	}{{"unsat", c.Unsat}, {"sat", c.Sat}}
	for _, r := range rows {
		v, cl := r.s.Valid, r.s.Claimed
		p("%s\t%d\t%d\t%.3f\t%s\t%d\t%.3f\t%s\t\n", r.label, r.s.Records, v.Hits, v.Rate, ci(v.CILow, v.CIHigh), cl.Hits, cl.Rate, ci(cl.CILow, cl.CIHigh))
	}
	for _, r := range rows {
		if r.s.Records == 0 {
			continue
		}
		p("\n%s gold: how the chains end\n", r.label)
		p("reason\tchains\t\n")
		for _, k := range r.s.ByReason {
			p("%s\t%d\t\n", k.Key, k.Count)
		}
		if len(r.s.ByFirstUnsupported) > 0 {
			p("\n%s gold: first unsupported step\n", r.label)
			p("step\tchains\t\n")
			for _, k := range r.s.ByFirstUnsupported {
				p("%s\t%d\t\n", k.Key, k.Count)
			}
		}
	}
}
