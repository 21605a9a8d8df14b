package audit

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Text writes the report as plain-text tables with aligned columns.
// Accuracies are percentages with their Wilson interval; a "*" marks one
// whose interval lies above the threshold.
func (r *Report) Text(w io.Writer) error {
	if r.Pairwise != nil {
		return r.Pairwise.text(w)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	p("Shortcut audit of %s\n", r.Dir)
	p("A predictor shows a shortcut on a split when the lower end of its %s Wilson\ninterval exceeds %s.\n", percent(r.Confidence), percent(r.Threshold))
	if r.FittedOn > 0 {
		var b strings.Builder
		writeFittedOn(&b, r.FittedOn, r.Splits[0].Records)
		p("%s", b.String())
	}

	p("\nVerdicts\n")
	for _, res := range r.Results {
		p("%s: %s\n", res.Split, res.Verdict.Text)
	}

	p("\nSplits\n")
	p("split\trecords\tsat\tunsat\tfile\n")
	for _, s := range r.Splits {
		p("%s\t%d\t%d\t%d\t%s\n", s.Split, s.Records, s.Sat, s.Unsat, s.File)
	}

	p("\nBaselines trained on train: accuracy %% [%s interval]\n", percent(r.Confidence))
	p("baseline\ttrain%s\n", r.splitHeader())
	for k, b := range r.Baselines {
		p("%s\t%.1f", b.Name, 100*b.TrainAccuracy)
		for _, res := range r.Results {
			p("\t%s", cell(res.Baselines[k]))
		}
		p("\n")
	}
	for _, b := range r.Baselines[1 : len(r.Baselines)-1] {
		p("%s: λ = %g, %d L-BFGS iterations\n", b.Name, b.Lambda, b.Iterations)
	}
	p("%s: %s\n", r.Baselines[len(r.Baselines)-1].Name, r.Baselines[len(r.Baselines)-1].About)
	p("bow-logreg vocabulary: %d unigrams and bigrams, each in at least %d train records\n", r.BoW.Vocabulary, r.BoW.MinCount)

	p("\nSingle features: each bin predicts its majority label in train\n")
	p("feature%s\n", r.splitHeader())
	for f := range r.Features {
		p("%s", r.Features[f].Name)
		for _, res := range r.Results {
			p("\t%s", cell(res.Lookups[f]))
		}
		p("\n")
	}
	r.textMetadata(p)
	textOrder(p, r.Order)
	if r.SentencePairs != nil {
		r.SentencePairs.text(p, r.Confidence)
	}
	if r.Difficulty != nil {
		r.textDifficulty(p)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	r.textFeatures(tw)
	r.textStrata(tw)
	return tw.Flush()
}

// textMetadata writes the metadata section: each field's score per split
// (train on itself) and the labels of each split's first records.
func (r *Report) textMetadata(p func(string, ...any)) {
	p("\nMetadata: each fifth of a field's rank within each stratum predicts its majority label in train (train out of fold)\n")
	p("field")
	for _, ms := range r.Metadata {
		p("\t%s", ms.Split)
	}
	p("\n")
	for f, mf := range metaFields {
		p("%s", mf.name)
		for _, ms := range r.Metadata {
			p("\t%s", cell(ms.Fields[f]))
		}
		p("\n")
	}
	for _, ms := range r.Metadata {
		p("%s first records (sat/unsat):", ms.Split)
		for _, fk := range ms.FirstK {
			p(" %d: %d/%d", fk.K, fk.Sat, fk.Unsat)
		}
		p("; %s\n", ms.Verdict.Text)
	}
}

func (r *Report) splitHeader() string {
	var b strings.Builder
	for _, res := range r.Results {
		b.WriteString("\t" + res.Split)
	}
	return b.String()
}

func cell(s Score) string {
	mark := ""
	if s.Above {
		mark = " *"
	}
	return fmt.Sprintf("%.1f [%.1f, %.1f]%s", 100*s.Accuracy, 100*s.Lo, 100*s.Hi, mark)
}

func (r *Report) textFeatures(tw *tabwriter.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	mi := r.MutualInfo
	p("\nSurface features on train (%d records): mutual information with the label in bits,\n", mi.Records)
	p("Miller-Madow corrected, its mean under %d label permutations, the excess over that\n", mi.Permutations)
	p("mean, and the feature's weight in counts-logreg\n")
	p("feature\tbinning\tbins\tMI\tMiller-Madow\tpermuted\texcess\tweight\n")
	for f, m := range mi.Features {
		p("%s\t%s\t%d\t%.6f\t%.6f\t%.6f\t%.6f\t%.4f\n", m.Feature, r.Features[f].Binning, m.Bins, m.Plugin, m.MillerMadow, m.Permuted, m.Excess, r.CountWeights[f].Weight)
	}
	p("\nStrongest n-grams of bow-logreg\n")
	p("toward sat\tweight\ttoward unsat\tweight\n")
	for i := range max(len(r.BoW.TowardSat), len(r.BoW.TowardUnsat)) {
		if i < len(r.BoW.TowardSat) {
			p("%q\t%.4f", r.BoW.TowardSat[i].Name, r.BoW.TowardSat[i].Weight)
		} else {
			p("\t")
		}
		if i < len(r.BoW.TowardUnsat) {
			p("\t%q\t%.4f\n", r.BoW.TowardUnsat[i].Name, r.BoW.TowardUnsat[i].Weight)
		} else {
			p("\t\t\n")
		}
	}
}

func (r *Report) textStrata(tw *tabwriter.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	p("\nBaselines per stratum with at least %d records in the split\n", r.MinStratum)
	p("split\tstratum\trecords")
	for _, b := range r.Baselines {
		p("\t%s", b.Name)
	}
	p("\n")
	for _, res := range r.Results {
		for _, s := range res.Strata {
			p("%s\t%s\t%d", res.Split, s.Stratum, s.Records)
			for _, b := range s.Baselines {
				p("\t%s", cell(b))
			}
			p("\n")
		}
	}
	for _, res := range r.Results {
		if res.SmallStrata > 0 {
			p("%s: %d smaller strata left out\n", res.Split, res.SmallStrata)
		}
	}
	p("\nMutual information per stratum of train: the feature with the largest excess\n")
	p("stratum\trecords\tfeature\tMI\tMiller-Madow\tpermuted\texcess\n")
	for _, s := range r.MutualInfo.Strata {
		m := topMI(s.Features)
		p("%s\t%d\t%s\t%.6f\t%.6f\t%.6f\t%.6f\n", s.Stratum, s.Records, m.Feature, m.Plugin, m.MillerMadow, m.Permuted, m.Excess)
	}
	if len(r.MutualInfo.Strata) == 0 {
		p("(no stratum of train has %d records)\n", r.MinStratum)
	}
}

func topMI(ms []MI) MI {
	best := ms[0]
	for _, m := range ms[1:] {
		if m.Excess > best.Excess {
			best = m
		}
	}
	return best
}

// Summary returns a few lines for a dataset card: what was run, the
// verdict of each split and the feature whose information most exceeds
// its permutation baseline. It opens with the task's lines (Spec.Summary)
// in a report Run returned.
func (r *Report) Summary() string {
	if r.Pairwise != nil {
		return r.Pairwise.summary(r.summary)
	}
	var b strings.Builder
	train := r.Splits[0]
	writeSummaryHead(&b, r.summary, len(r.Features), train.Split, train.Records, r.Confidence, r.Threshold)
	writeFittedOn(&b, r.FittedOn, train.Records)
	for _, res := range r.Results {
		fmt.Fprintf(&b, "- %s (%d records): %s\n", res.Split, res.Records, res.Verdict.Text)
		for _, fr := range res.Fragments {
			fmt.Fprintf(&b, "  - fragment %s (%d records): %s\n", fr.Fragment, fr.Records, fr.Verdict.Text)
		}
	}
	for _, ms := range r.Metadata {
		fmt.Fprintf(&b, "- %s metadata: %s\n", ms.Split, ms.Verdict.Text)
	}
	for _, os := range r.Order {
		fmt.Fprintf(&b, "- %s order: %s\n", os.Split, os.Verdict.Text)
	}
	if r.SentencePairs != nil {
		for _, ps := range r.SentencePairs.Splits {
			fmt.Fprintf(&b, "- %s sentence pairs: %s\n", ps.Split, ps.Verdict.Text)
			for _, fs := range ps.Fragments {
				fmt.Fprintf(&b, "  - fragment %s (%d records): %s\n", fs.Fragment, fs.Records, fs.Verdict.Text)
			}
		}
	}
	for _, d := range r.Difficulty {
		fmt.Fprintf(&b, "- %s difficulty (not a shortcut, inference): %s\n", d.Split, d.Text())
	}
	m := topMI(r.MutualInfo.Features)
	fmt.Fprintf(&b, "- most informative feature on train: %q, %.4f bits of mutual information with the label\n", m.Feature, m.Plugin)
	fmt.Fprintf(&b, "  (Miller-Madow %.4f; %.4f on average with permuted labels)\n", m.MillerMadow, m.Permuted)
	return b.String()
}

// textDifficulty writes the difficulty profile: per split, the unsat
// records by MUS size, those with a contradictory pair, and the one-step
// detector's accuracy.
func (r *Report) textDifficulty(p func(string, ...any)) {
	p("\nDifficulty (inference, not a shortcut): unsat records by the size of their MUS, those holding two sentences\n")
	p("that contradict each other, and a one-step reasoner that says unsat exactly when a record holds such a pair\n")
	p("split\tunsat")
	for _, b := range MUSBuckets[:len(MUSBuckets)-1] {
		p("\tMUS %d", b)
	}
	p("\tMUS %d+\twith a pair\tone-step\n", MUSBuckets[len(MUSBuckets)-1])
	for _, d := range r.Difficulty {
		p("%s\t%d", d.Split, d.Unsat)
		for _, b := range d.MUSSizes {
			p("\t%d", b.Count)
		}
		if d.OneStep == nil {
			p("\tnot recorded\t-\n")
			continue
		}
		p("\t%d\t%s\n", d.WithPair, cell(*d.OneStep))
	}
}

// writeSummaryHead writes what was run (the task's head, when known) and
// the criterion.
func writeSummaryHead(b *strings.Builder, head func(int, string, int) string, features int, train string, records int, confidence, threshold float64) {
	if head != nil {
		b.WriteString(head(features, train, records))
	}
	fmt.Fprintf(b, "a shortcut is an accuracy whose %s Wilson\n", percent(confidence))
	fmt.Fprintf(b, "interval lies above %s.\n", percent(threshold))
}

// writeFittedOn says, when the models were fitted to part of train, to
// how much.
func writeFittedOn(b *strings.Builder, fitted, records int) {
	if fitted > 0 {
		fmt.Fprintf(b, "The models were fitted to the first %d of train's %d records (the file's order is random and\n", fitted, records)
		b.WriteString("balanced in blocks); the counts and the checks of order and metadata read every record.\n")
	}
}

// text writes the audit of a task of more labels: the verdicts, the label
// counts, every pair's baselines side by side, the summary over all
// labels, then each pair's full binary report.
func (e *PairwiseReport) text(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	ways := e.ways()
	p("Shortcut audit of %s: %s records (%s)\n", e.Dir, e.Task, e.RecordSchema)
	p("Audited as %s binary problems, one per pair of labels (%s). The text is\n", numberWord(len(e.Pairs)), strings.Join(e.pairNames(), ", "))
	p("%s.\n", e.Text)
	p("A predictor shows a shortcut on a pair and split when the lower end of its %s Wilson\ninterval exceeds %s.\n", percent(e.Confidence), percent(e.Threshold))
	if e.FittedOn > 0 {
		var b strings.Builder
		writeFittedOn(&b, e.FittedOn, e.Splits[0].Records)
		p("%s", b.String())
	}

	p("\nVerdicts\n")
	for _, t := range e.Multiway {
		p("%s: %s\n", t.Split, t.Verdict.Text)
	}
	p("\nSplits\n")
	p("split\trecords\t%s\tfile\n", strings.Join(e.Splits[0].Labels, "\t"))
	for _, s := range e.Splits {
		p("%s\t%d", s.Split, s.Records)
		for _, n := range s.Counts {
			p("\t%d", n)
		}
		p("\t%s\n", s.File)
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
	p("\n%s-way summary: each baseline's highest accuracy over the pairs, and that pair\n", strings.ToUpper(ways[:1])+ways[1:])
	p("baseline%s\n", e.splitHeader())
	for k, b := range e.Pairs[0].Report.Baselines {
		p("%s", b.Name)
		for _, t := range e.Multiway {
			p("\t%s %s", cell(t.Best[k].Score), t.Best[k].Pair)
		}
		p("\n")
	}
	p("\nPairwise votes: %s-way accuracy of the majority vote of each baseline's %s pairwise\nmodels on all records (a tie goes to the lowest label; chance is %s)\n",
		ways, numberWord(len(e.Pairs)), e.chance())
	p("baseline%s\n", e.splitHeader())
	for k, b := range e.Pairs[0].Report.Baselines {
		p("%s", b.Name)
		for _, t := range e.Multiway {
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

func (e *PairwiseReport) pairNames() []string {
	var names []string
	for _, p := range e.Pairs {
		names = append(names, p.Positive+" vs "+p.Negative)
	}
	return names
}

func (e *PairwiseReport) splitHeader() string {
	var b strings.Builder
	for _, t := range e.Multiway {
		b.WriteString("\t" + t.Split)
	}
	return b.String()
}

// chance is the accuracy of a guess over all labels, as "33.3%".
func (e *PairwiseReport) chance() string { return fmt.Sprintf("%.1f%%", 100/float64(e.labels())) }

// summary returns a few lines for a dataset card: what was run (head, the
// task's), each split's verdict and each pair's, and the best vote over
// all labels.
func (e *PairwiseReport) summary(head func(int, string, int) string) string {
	var b strings.Builder
	train := e.Splits[0]
	writeSummaryHead(&b, head, len(e.Pairs[0].Report.Features), train.Split, train.Records, e.Confidence, e.Threshold)
	writeFittedOn(&b, e.FittedOn, train.Records)
	for s, t := range e.Multiway {
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
		fmt.Fprintf(&b, "  - %s-way vote of the pairwise models: at best %s %s (chance %s)\n", e.ways(), best.Name, accuracy(best), e.chance())
	}
	for _, os := range e.Order {
		fmt.Fprintf(&b, "- %s order: %s\n", os.Split, os.Verdict.Text)
	}
	return b.String()
}
