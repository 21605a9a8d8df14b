package eval

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteEntailText prints an entailment report as plain-text tables, as
// WriteText does.
func WriteEntailText(w io.Writer, rep EntailReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	p("Entailment: %d gold records, %d predictions, %d scored, %d missing, %d invalid; %s answers\n",
		rep.Gold, rep.Predictions, rep.Overall.Count, rep.Missing, rep.Overall.Unparseable, rep.Answers)
	p("%s\n", checks(Report{Datasets: rep.Datasets, TextsChecked: rep.TextsChecked}))
	entailTable(p, "Overall", "", []EntailRow{{Key: "all", Score: rep.Overall, Binary: rep.Binary}})
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
	if len(rep.BySplit) > 0 {
		entailTable(p, "By split file", "split", rep.BySplit)
	}
	entailTable(p, "By fragment", "fragment", rep.ByFragment)
	entailTable(p, "By difficulty (size of the certificate's subset; 0 for neutral)", "subset", rep.BySubsetSize)
	if len(rep.BySplitFragment) > 0 {
		entailTable(p, "By split file and fragment", "split/fragment", rep.BySplitFragment)
	}
	if n := len(rep.InvalidAnswers); n > 0 {
		p("\nInvalid answers (%s; --per-record writes every answer)\n", listed(n))
		for _, u := range rep.InvalidAnswers[:min(n, maxListed)] {
			p("%s  %q\n", u.ID, u.Answer)
		}
	}
	return tw.Flush()
}

func entailTable(p func(string, ...any), title, key string, rows []EntailRow) {
	p("\n%s\n", title)
	p("%s\tcount\tcorrect\taccuracy\t95%% CI\tinvalid\tbinary acc.\t95%% CI\t\n", key)
	for _, r := range rows {
		s, b := r.Score, r.Binary
		p("%s\t%d\t%d\t%.3f\t%s\t%d\t%.3f\t%s\t\n", r.Key, s.Count, s.Correct, s.Accuracy, ci(s.CILow, s.CIHigh), s.Unparseable, b.Accuracy, ci(b.CILow, b.CIHigh))
	}
}

// EntailRecordResult is a line of the per-record file of an entailment
// evaluation; Gold and Predicted are labels of the report's Answers kind
// (-1: invalid).
type EntailRecordResult struct {
	ID        string `json:"id"`
	Split     string `json:"split"`
	Fragment  string `json:"fragment"`
	Gold      int    `json:"gold"`
	Predicted int    `json:"predicted"`
	Correct   bool   `json:"correct"`
	Source    string `json:"source"`
	Answer    string `json:"answer"`
	Reading   string `json:"reading"`
	Where     string `json:"where"`
}

func writeEntailPerRecord(name string, gold []EntailGold, preds []EntailPrediction, binary bool) error {
	line := func(g *EntailGold, p *EntailPrediction) any {
		want, got := g.Label, p.Label
		if binary {
			want, got = g.Binary, p.Binary
		}
		return EntailRecordResult{ID: g.ID, Split: g.Split, Fragment: g.Fragment, Gold: want, Predicted: got,
			Correct: want == got, Source: p.Source, Answer: p.Answer, Reading: p.Phrase, Where: p.Where}
	}
	return writeAtomic(name, func(w io.Writer) error {
		return encodeMatched(w, gold, preds, func(g *EntailGold) string { return g.ID }, func(p *EntailPrediction) string { return p.ID }, line)
	})
}
