package audit

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// text writes the entailment audit: the verdicts, the label counts, every
// pair's baselines side by side, the three-way summary, then each pair's
// full binary report.
func (e *EntailReport) text(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	p("Shortcut audit of %s: entailment records (%s)\n", e.Dir, e.RecordSchema)
	p("Audited as three binary problems, one per pair of labels (%s). The text is\n", strings.Join(e.pairNames(), ", "))
	p("%s.\n", e.Text)
	p("A predictor shows a shortcut on a pair and split when the lower end of its %s Wilson\ninterval exceeds %s.\n", percent(e.Confidence), percent(e.Threshold))

	p("\nVerdicts\n")
	for _, t := range e.ThreeWay {
		p("%s: %s\n", t.Split, t.Verdict.Text)
	}
	p("\nSplits\n")
	p("split\trecords\tentailment\tneutral\tcontradiction\tfile\n")
	for _, s := range e.Splits {
		p("%s\t%d\t%d\t%d\t%d\t%s\n", s.Split, s.Records, s.Entailment, s.Neutral, s.Contradiction, s.File)
	}
	p("\nBaselines per pair, trained on the pair's train records: accuracy %% [%s interval]\n", percent(e.Confidence))
	p("pair\tbaseline\ttrain%s\n", e.splitHeader())
	for _, pr := range e.Pairs {
		for k, b := range pr.Report.Baselines {
			p("%s\t%s\t%.1f", pr.Pair, b.Name, 100*b.TrainAccuracy)
			for _, res := range pr.Report.Results {
				p("\t%s", cell(res.Baselines[k]))
			}
			p("\n")
		}
	}
	p("\nThree-way summary: each baseline's highest accuracy over the pairs, and that pair\n")
	p("baseline%s\n", e.splitHeader())
	for k, b := range e.Pairs[0].Report.Baselines {
		p("%s", b.Name)
		for _, t := range e.ThreeWay {
			p("\t%s %s", cell(t.Best[k].Score), t.Best[k].Pair)
		}
		p("\n")
	}
	p("\nPairwise votes: three-way accuracy of the majority vote of each baseline's three pairwise\nmodels on all records (a tie goes to the lowest label; chance is 33.3%%)\n")
	p("baseline%s\n", e.splitHeader())
	for k, b := range e.Pairs[0].Report.Baselines {
		p("%s", b.Name)
		for _, t := range e.ThreeWay {
			p("\t%s", cell(t.Votes[k]))
		}
		p("\n")
	}
	textOrder(p, e.Order)
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, pr := range e.Pairs {
		fmt.Fprintf(w, "\n%s\nPair %d of %d: %s vs %s. In this pair's tables sat stands for %s, unsat for %s.\n\n",
			strings.Repeat("=", 78), i+1, len(e.Pairs), pr.Positive, pr.Negative, pr.Positive, pr.Negative)
		if err := pr.Report.Text(w); err != nil {
			return err
		}
	}
	return nil
}

func (e *EntailReport) pairNames() []string {
	var names []string
	for _, p := range e.Pairs {
		names = append(names, p.Positive+" vs "+p.Negative)
	}
	return names
}

func (e *EntailReport) splitHeader() string {
	var b strings.Builder
	for _, t := range e.ThreeWay {
		b.WriteString("\t" + t.Split)
	}
	return b.String()
}

// summary returns a few lines for a dataset card: what was run, each
// split's verdict and each pair's, and the best three-way vote.
func (e *EntailReport) summary() string {
	var b strings.Builder
	train := e.Splits[0]
	fmt.Fprintf(&b, "Shortcut audit (nlsat audit) of entailment records (%s) as three binary problems, one per\n", e.RecordSchema)
	fmt.Fprintf(&b, "pair of labels: majority class, logistic regression on %d surface features, on unigrams and bigrams\n", numFeatures)
	fmt.Fprintf(&b, "of premises and hypothesis and of the hypothesis alone, gradient-boosted trees on the structure\n")
	fmt.Fprintf(&b, "of the text, trained on %s (%d records); a shortcut is an accuracy whose %s Wilson\n", train.Split, train.Records, percent(e.Confidence))
	fmt.Fprintf(&b, "interval lies above %s.\n", percent(e.Threshold))
	for s, t := range e.ThreeWay {
		fmt.Fprintf(&b, "- %s (%d records): %s\n", t.Split, t.Records, t.Verdict.Text)
		for _, p := range e.Pairs {
			res := p.Report.Results[s]
			fmt.Fprintf(&b, "  - %s vs %s (%d records): %s\n", p.Positive, p.Negative, res.Records, res.Verdict.Text)
		}
		best := t.Votes[0]
		for _, v := range t.Votes[1:] {
			if v.Accuracy > best.Accuracy {
				best = v
			}
		}
		fmt.Fprintf(&b, "  - three-way vote of the pairwise models: at best %s %s (chance 33.3%%)\n", best.Name, accuracy(best))
	}
	for _, os := range e.Order {
		fmt.Fprintf(&b, "- %s order: %s\n", os.Split, os.Verdict.Text)
	}
	return b.String()
}
