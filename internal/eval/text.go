package eval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints the report as plain-text tables with aligned columns:
// a summary line, then one table per section. Accuracies have three
// decimals; "-" marks an accuracy over no parseable answer.
func WriteText(w io.Writer, rep Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	p("%d gold records, %d predictions, %d scored, %d missing, %d unparseable\n",
		rep.Gold, rep.Predictions, rep.Overall.Count, rep.Missing, rep.Overall.Unparseable)
	p("%s\n", checks(rep))
	table(p, "Overall", "", []Row{{Key: "all", Score: rep.Overall}})
	if len(rep.BySplit) > 0 {
		table(p, "By split file", "split", rep.BySplit)
	}
	table(p, "By fragment (the paper's Tables 1 and 2)", "fragment", rep.ByFragment)
	table(p, "By n = n1 + n2", "n", rep.ByN)
	table(p, fmt.Sprintf("By number of sentences m, in bins of %d", rep.MBinWidth), "m", rep.ByMBin)
	table(p, "By gold label", "label", rep.ByLabel)
	if len(rep.ByMUSSize) > 0 {
		table(p, "Unsat gold records by size of the minimal unsatisfiable subset", "MUS size", rep.ByMUSSize)
	}
	if len(rep.ByModelSize) > 0 {
		table(p, "Sat gold records by size of the checked model", "model size", rep.ByModelSize)
	}
	p("\nBy fragment and n (the paper's Figure 3)\n")
	p("fragment\tn\t%s\n", scoreHeader)
	for _, r := range rep.ByFragmentN {
		p("%s\t%d\t%s\n", r.Fragment, r.N, scoreCols(r.Score))
	}
	if len(rep.BySplitFragment) > 0 {
		p("\nBy split file and fragment (the paper's Table 3 with a generalisation split)\n")
		p("split\tfragment\t%s\n", scoreHeader)
		for _, r := range rep.BySplitFragment {
			p("%s\t%s\t%s\n", r.Split, r.Fragment, scoreCols(r.Score))
		}
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
	if n := len(rep.UnparseableAnswers); n > 0 {
		p("\nUnparseable answers (%s; --per-record writes every answer)\n", listed(n))
		for _, u := range rep.UnparseableAnswers[:min(n, maxListed)] {
			p("%s  %q\n", u.ID, u.Answer)
		}
	}
	return tw.Flush()
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

const scoreHeader = "count\tcorrect\taccuracy\t95% CI\tunparseable\tacc. parseable\t"

func table(p func(string, ...any), title, key string, rows []Row) {
	p("\n%s\n", title)
	p("%s\t%s\n", key, scoreHeader)
	for _, r := range rows {
		p("%s\t%s\n", r.Key, scoreCols(r.Score))
	}
}

func scoreCols(s Score) string {
	parsed := "-"
	if s.Count > s.Unparseable {
		parsed = fmt.Sprintf("%.3f", s.AccuracyParseable)
	}
	return fmt.Sprintf("%d\t%d\t%.3f\t%s\t%d\t%s\t", s.Count, s.Correct, s.Accuracy, ci(s.CILow, s.CIHigh), s.Unparseable, parsed)
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
