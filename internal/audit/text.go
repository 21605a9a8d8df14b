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
	if r.Entailment != nil {
		return r.Entailment.text(w)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	p("Shortcut audit of %s\n", r.Dir)
	p("A predictor shows a shortcut on a split when the lower end of its %s Wilson\ninterval exceeds %s.\n", percent(r.Confidence), percent(r.Threshold))

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
// its permutation baseline.
func (r *Report) Summary() string {
	if r.Entailment != nil {
		return r.Entailment.summary()
	}
	var b strings.Builder
	train := r.Splits[0]
	fmt.Fprintf(&b, "Shortcut audit (nlsat audit): majority class, logistic regression on %d surface features and on\n", len(r.Features))
	fmt.Fprintf(&b, "unigrams and bigrams, gradient-boosted trees on the structure of the text, trained on %s\n", train.Split)
	fmt.Fprintf(&b, "(%d records); a shortcut is an accuracy whose %s Wilson\n", train.Records, percent(r.Confidence))
	fmt.Fprintf(&b, "interval lies above %s.\n", percent(r.Threshold))
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
