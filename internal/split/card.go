package split

import (
	"fmt"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/paperdata"
	"github.com/nlsat/nlsat/internal/phase"
)

// features is the record's schema in the dataset card's YAML form, as the
// HuggingFace datasets library reads it (label is a ClassLabel). Every
// list is written "list:", the one syntax for lists of scalars and of
// structs alike (a "sequence:" of a struct would be read as a struct of
// lists).
const features = `  features:
  - name: id
    dtype: string
  - name: fragment
    dtype: string
  - name: text
    dtype: string
  - name: sentences
    list: string
  - name: label
    dtype:
      class_label:
        names:
          '0': unsat
          '1': sat
  - name: label_text
    dtype: string
  - name: m
    dtype: int64
  - name: n1
    dtype: int64
  - name: n2
    dtype: int64
  - name: alpha
    dtype: float64
  - name: beta
    dtype: float64
  - name: nouns
    list: string
  - name: verbs
    list: string
  - name: templates
    list: string
  - name: formulas
    list: string
  - name: solver
    dtype: string
  - name: certificate
    struct:
    - name: model_size
      dtype: int64
    - name: mus
      list: int64
  - name: seed
    dtype: string
  - name: difficulty
    struct:
    - name: mus_size
      dtype: int64
    - name: model_size
      dtype: int64
    - name: search_nodes
      dtype: int64
    - name: unsat_pair
      list: int64
  - name: distractors
    list: int64
  - name: distractor_mode
    dtype: string
`

// minimalFeatures are the features of the minimal layout (--fields
// minimal): the text and its label.
const minimalFeatures = `  features:
  - name: text
    dtype: string
  - name: label
    dtype:
      class_label:
        names:
          '0': unsat
          '1': sat
`

// proofFeatures are the features of a build with proofs: proof_depth in
// difficulty, and proof, a list of structs (Arrow's list<struct>, as
// the JSON and Parquet files hold it).
var proofFeatures = strings.Replace(features, "      list: int64\n  - name: distractors", "      list: int64\n    - name: proof_depth\n      dtype: int64\n  - name: distractors", 1) +
	`  - name: proof
    list:
    - name: premises
      list: int64
    - name: rule
      dtype: string
    - name: sentence
      dtype: int64
    - name: formula
      dtype: string
    - name: english
      dtype: string
`

// cardFeatures returns the features of m's files.
func cardFeatures(m *Manifest) string {
	switch {
	case m.Fields == "minimal":
		return minimalFeatures
	case m.Plan.Proofs:
		return proofFeatures
	}
	return features
}

// recordSchema is the record schema version of the build's files.
func (p *Plan) recordSchema() string {
	if p.Proofs {
		return dataset.ProofSchemaVersion
	}
	return dataset.SchemaVersion
}

// config is one HuggingFace configuration of the card: a name and its
// splits, each a file.
type config struct {
	name  string
	files []FileReport
	split func(FileReport) string
}

// configs groups the files: train, validation and test form the default
// configuration; every further set is a configuration of its own whose
// only split is "test" (HuggingFace split names cannot hold a hyphen).
func configs(m *Manifest) []config {
	main := config{name: "default", split: func(f FileReport) string { return f.Split }}
	out := []config{main}
	for _, f := range m.Files {
		switch f.Split {
		case Train, Validation, Test:
			out[0].files = append(out[0].files, f)
		default:
			out = append(out, config{name: f.Split, files: []FileReport{f}, split: func(FileReport) string { return "test" }})
		}
	}
	return out
}

// SizeCategory is HuggingFace's size category of a dataset of n records.
func SizeCategory(n int) string {
	switch {
	case n < 1_000:
		return "n<1K"
	case n < 10_000:
		return "1K<n<10K"
	case n < 100_000:
		return "10K<n<100K"
	case n < 1_000_000:
		return "100K<n<1M"
	case n < 10_000_000:
		return "1M<n<10M"
	}
	return "10M<n<100M"
}

// Card renders the dataset card: HuggingFace YAML front matter (configs
// with their data files, features with the label's class names, license,
// task and size categories) and a body that says how the data was made and
// what its numbers are.
func Card(m *Manifest) string {
	var b strings.Builder
	cs := configs(m)
	cardYAML(&b, m, cs)
	cardFiles(&b, m, cs)
	cardMaking(&b, m)
	cardCandidates(&b, m)
	b.WriteString(CardCitation)
	return b.String()
}

// PaperCitation names the paper whose datasets nlsat reproduces, as a
// card's text cites it.
const PaperCitation = "Madusanka, Pratt-Hartmann and Batista-Navarro, \"Natural Language Satisfiability: Exploring the Problem Distribution and Evaluating Transformer-based Language Models\" (arXiv:2508.17153, <https://arxiv.org/abs/2508.17153>)"

// CardCitation ends a dataset card: BibTeX entries for the paper and for
// nlsat (as CITATION.cff describes it).
const CardCitation = "\n## Citation\n\n" +
	"If you use this dataset, please cite the paper whose method it reproduces, and nlsat, which built it:\n\n" +
	"```bibtex\n" +
	"@misc{madusanka2025nls,\n" +
	"  title         = {Natural Language Satisfiability: Exploring the Problem Distribution and Evaluating Transformer-based Language Models},\n" +
	"  author        = {Madusanka, Tharindu and Pratt-Hartmann, Ian and Batista-Navarro, Riza},\n" +
	"  year          = {2025},\n" +
	"  eprint        = {2508.17153},\n" +
	"  archivePrefix = {arXiv},\n" +
	"  url           = {https://arxiv.org/abs/2508.17153}\n" +
	"}\n\n" +
	"@software{nlsat,\n" +
	"  title  = {nlsat: natural-language satisfiability datasets},\n" +
	"  author = {{The nlsat authors}},\n" +
	"  url    = {https://github.com/nlsat/nlsat}\n" +
	"}\n" +
	"```\n"

// cardYAML writes the card's YAML front matter.
func cardYAML(b *strings.Builder, m *Manifest, cs []config) {
	total := 0
	for _, f := range m.Files {
		total += f.Rows
	}
	p := m.Plan
	fmt.Fprintf(b, "---\npretty_name: nlsat %s satisfiability\n", fragmentText(p))
	fmt.Fprintf(b, "license: %s\n", m.License)
	b.WriteString("language:\n- en\ntask_categories:\n- text-classification\ntags:\n- logical-reasoning\n- satisfiability\n- controlled-natural-language\n- synthetic\n")
	b.WriteString("annotations_creators:\n- machine-generated\nlanguage_creators:\n- machine-generated\nmultilinguality:\n- monolingual\nsource_datasets:\n- original\n")
	fmt.Fprintf(b, "size_categories:\n- %s\n", SizeCategory(total))
	b.WriteString("configs:\n")
	for _, c := range cs {
		fmt.Fprintf(b, "- config_name: %s\n  data_files:\n", c.name)
		for _, f := range c.files {
			fmt.Fprintf(b, "  - split: %s\n    path: %s\n", c.split(f), f.Path)
		}
	}
	b.WriteString("dataset_info:\n")
	for _, c := range cs {
		fmt.Fprintf(b, "- config_name: %s\n%s  splits:\n", c.name, cardFeatures(m))
		var bytes int64
		for _, f := range c.files {
			fmt.Fprintf(b, "  - name: %s\n    num_examples: %d\n", c.split(f), f.Rows)
			bytes += f.Bytes
		}
		// download_size is the size of the files; num_bytes and
		// dataset_size, which datasets takes for the size of the data
		// in Arrow's memory layout, are not written (datasets does not
		// need them).
		fmt.Fprintf(b, "  download_size: %d\n", bytes)
	}
	b.WriteString("---\n\n")
}

// cardFiles writes the card's title, what the labels mean and its files.
func cardFiles(b *strings.Builder, m *Manifest, cs []config) {
	p := m.Plan
	fmt.Fprintf(b, "# nlsat: satisfiability in %s of English\n\n", fragmentText(p))
	fmt.Fprintf(b, "Each instance is a set of controlled-English sentences from %s "+
		"(Pratt-Hartmann's fragments S ⊂ W ⊂ V ⊂ Z ⊂ A), labelled `sat` if some situation makes every sentence true "+
		"and `unsat` otherwise. Labels come from a sound and complete decision procedure (`%s`) and each carries a "+
		"certificate: for `sat`, the size of a model that was checked against every sentence's first-order formula; "+
		"for `unsat`, a minimal unsatisfiable subset of the sentences whose minimality was checked.\n\n", fragmentText(p), m.Solver)
	b.WriteString("The instances are made by the method of " + PaperCitation + ", called \"the paper\" below, with the changes this card states; BibTeX entries are under Citation at the end.\n\n")
	if p.Joint() {
		fmt.Fprintf(b, "A joint build: every split holds each fragment's own quota (one set per fragment below), balanced in every stratum of every fragment; "+
			"the field `fragment` says which each instance is from, and `nlsat eval` scores predictions per fragment. "+
			"Select one fragment with `ds.filter(lambda r: r[\"fragment\"] == \"%s\")`.\n\n", p.PoolFrag(len(p.Pools)-1))
	}
	b.WriteString("## Files\n\n| file | configuration | split | instances | sat | unsat | bytes |\n|---|---|---|---:|---:|---:|---:|\n")
	for _, c := range cs {
		for _, f := range c.files {
			fmt.Fprintf(b, "| `%s` | %s | %s | %d | %d | %d | %d |\n", f.Path, c.name, c.split(f), f.Rows, f.Labels.Sat, f.Labels.Unsat, f.Bytes)
		}
	}
	b.WriteString("\nLoad it with `datasets.load_dataset(\"path/to/this/directory\")` (the default configuration: train, validation and test)")
	if len(cs) > 1 {
		var names []string
		for _, c := range cs[1:] {
			names = append(names, "`\""+c.name+"\"`")
		}
		fmt.Fprintf(b, " or with the configuration name %s as the second argument", strings.Join(names, " or "))
	}
	b.WriteString(". `manifest.json` holds the full configuration and every count below; `sha256sum -c SHA256SUMS` checks the files.\n\n")

}

// cardMaking writes how the data was made.
func cardMaking(b *strings.Builder, m *Manifest) {
	p := m.Plan
	b.WriteString("## How it was made\n\n")
	fmt.Fprintf(b, "- Command: `%s` (toolkit %s %s, commit %s).\n", m.Command, m.Toolkit.Name, m.Toolkit.Version, orUnknown(m.Toolkit.Commit))
	fmt.Fprintf(b, "- Sampler: the paper's Algorithm 1; own-template share %g, negation probability %g, %s; master seed %d. "+
		"Record `seed` is `master:index`; candidate i of set k has index k·10¹² + i.\n",
		p.Sampler.OwnShare, p.Sampler.NegProb, distinctText(p.Sampler), p.Seed)
	if lx := p.Vocabulary; lx != nil {
		fmt.Fprintf(b, "- Vocabulary: a user's file of %d nouns and %d verbs (digest %s; the manifest's plan lists them), not the built-in one; "+
			"to parse these records again, pass the same file with `--vocab`.\n", len(lx.Nouns()), len(lx.Verbs()), lx.Digest())
	}
	for _, pl := range p.Pools {
		fmt.Fprintf(b, "- Set %s (%s): %d strata, %s.\n", pl.Name, strings.Join(splitNames(pl), ", "), len(pl.Strata), pl.Source)
	}
	cardHoldout(b, p)
	cardLengths(b, p)
	b.WriteString("- Balance: every split holds exactly as many sat as unsat instances in every stratum, so neither a constant answer nor a rule over the sizes n1, n2 and m beats chance. " +
		"Candidates are drawn for the strata in turn; a stratum collects those that pass every rule below until its rarer label has its quota, then chooses each label's instances among all its collected candidates in a seeded random order, so that the seed index of a record says nothing of its label. " +
		"Each file is written in another seeded random order, in blocks of 20 records that each hold 10 of each label, and its ids are numbered in that order, so neither the file order nor the id carries the label (the audit's metadata section below checks all three) and the first K records of a file are within 10 of half sat for every K. " +
		nearChanceNote(p) +
		"A stratum that cannot be filled (its candidates run out of one label, or of new instances) is not shrunk or padded: the build stops with an error naming it once it has drawn ")
	fmt.Fprintf(b, "%d times its size in candidates, so every published build is balanced exactly.\n", p.DrawLimit)
	if p.Balance.Mode == BalanceSurface {
		fmt.Fprintf(b, "- Surface balance: equal counts per stratum do not stop the wording from predicting the label (at the same size, more existential sentences make satisfiability likelier), nor how the sentences combine. "+
			"So each set first labelled a pilot of up to %d candidates (a smaller set: twice as many as it holds, but at least 10,000 or eight times its size, whichever is less), which are not part of the data, and fitted two models to it. "+
			"%s"+
			"Each is a logistic model on surface features x "+
			"(m, n1, n2, alpha, beta; the count, share and log-count of each template variant, of the words every, some, no, not, non-, who, him, any, does, is, a, an and of their bigrams such as \"every non-\"; squared word shares; "+
			"the tenth the share of existential sentences falls in; how evenly the sentences spread over the nouns and verbs), "+
			"with gradient-boosted trees (100 of depth 3) fitted to what it leaves, on the sizes, the counts above, structural statistics of the text (how often each noun and verb occurs, nouns both negated and plain, nouns heading universal and existential sentences) and the counts of the 128 commonest sentence skeletons (a sentence with its nouns and verbs blanked out); "+
			"the two parts are calibrated on out-of-sample scores within the pilot (five folds, each scored by the models fitted to the other four). "+
			"The first model, on the candidates without a two-sentence contradiction (every sat one, and the unsat ones in which no two sentences contradict each other), predicts the label and also sees how the sentences combine: "+
			"three logistic models on the pilot's patterns of sentence pairs that share a noun or verb, or two (the shared words indexed, the others blanked out, as in \"every X0 is a X1 | every non- X1 is a X0\"), fitted to these candidates and to the whole pilot, add their scores to both parts. "+
			"Those candidates were thinned so that sat and unsat ones share one distribution of all these features, keeping the pilot's ratio of the labels. "+
			"%s"+
			"The second model, on the surface alone, tells unsat candidates with a contradictory pair from the rest; both kinds were thinned to one distribution of the surface, keeping the pilot's share of contradictory pairs among unsat instances. "+
			"Each keep decision is drawn from the candidate's seed alone. A contradictory pair itself is left as it is: finding it is the one-step inference the audit reports as difficulty. "+
			"The candidates the balance dropped are counted as thinned below, and the audit below measures what is left.\n", p.Balance.Pilot, apartNote(p), residualNote(p))
	}
	if p.Dedup == DedupRenaming {
		b.WriteString("- Uniqueness: no two instances anywhere in the dataset (within or across splits and sets) have the same set of sentences, and none is the same problem up to a renaming of nouns, a renaming of verbs and the order of its sentences (a canonical form of the instance, found by individualisation–refinement).")
		fallbacks := 0
		for _, s := range m.Sets {
			fallbacks += s.CanonFallbacks
		}
		if fallbacks > 0 {
			fmt.Fprintf(b, " For %d instances the canonical form was too costly to find and only exact copies of them were excluded.", fallbacks)
		}
		b.WriteString("\n")
	} else {
		b.WriteString("- Uniqueness: no two instances anywhere in the dataset (within or across splits and sets) have the same set of sentences. Instances equal up to a renaming of nouns and verbs were allowed (`--dedup exact`).\n")
	}
	b.WriteString("- Undecided instances: an instance the solver leaves undecided is never labelled or written; it is counted below.\n\n")
}

// cardHoldout writes what test holds out, if anything, and the minimum
// core.
func cardHoldout(b *strings.Builder, p *Plan) {
	if p.MinCore > 0 {
		fmt.Fprintf(b, "- Minimum core: no unsat instance has an unsatisfiable subset of fewer than %d sentences (for each, every smaller subset was shown satisfiable by a checked model), so none is settled by comparing fewer sentences; "+
			"candidates that had one were not accepted (counted as held out below), and the surface balance was fitted without them.\n", p.MinCore)
	}
	switch p.Holdout.Kind {
	case HoldoutSize:
		fmt.Fprintf(b, "- Held out by size: train and validation hold only instances with n = n1 + n2 ≤ %d, test only larger ones.\n", p.Holdout.MaxTrainN)
	case HoldoutTemplates:
		var pairs []string
		for _, pair := range p.Holdout.HeldPairs {
			pairs = append(pairs, pair[0]+" with "+pair[1])
		}
		fmt.Fprintf(b, "- Held out by template combination: no instance of train or validation holds both templates of any of these pairs, and every instance of test holds both templates of at least one: %s. "+
			"Each train and validation candidate was drawn without one template of each pair (chosen by a fair coin from its seed); test candidates without a held-out pair were not accepted (counted as held out below).\n", strings.Join(pairs, "; "))
	case HoldoutDifficulty:
		fmt.Fprintf(b, "- Held out by difficulty: every unsat instance of train and validation has a certified minimal unsatisfiable subset (MUS) of at most %d sentences; "+
			"every unsat instance of test has no unsatisfiable subset of %d sentences or fewer (each such subset was shown satisfiable by a checked model), so each of its MUSes is larger. "+
			"Sat instances are drawn alike for all splits. Candidates no open split admits are counted as held out below.\n", p.Holdout.MaxTrainMUS, p.Holdout.MaxTrainMUS)
	case HoldoutDepth:
		fmt.Fprintf(b, "- Held out by proof depth (train shallow, test deep): every unsat instance of train and validation has a checked proof (`proof`) whose longest chain of inferences (`difficulty.proof_depth`) is at most %d; every unsat instance of test has one deeper than %d. "+
			"Unsat instances without a proof within the budget go to no split. Sat instances are drawn alike for all splits. Candidates no open split admits are counted as held out below.\n", p.Holdout.MaxTrainDepth, p.Holdout.MaxTrainDepth)
	case HoldoutVocabulary:
		fmt.Fprintf(b, "- Held out by vocabulary: test draws only from %d nouns and %d verbs that train and validation never use: %s; %s.\n",
			len(p.Holdout.TestNouns), len(p.Holdout.TestVerbs), strings.Join(p.Holdout.TestNouns, ", "), strings.Join(p.Holdout.TestVerbs, ", "))
	}
}

// cardCandidates writes what became of the candidates, the audit and the
// record fields.
func cardCandidates(b *strings.Builder, m *Manifest) {
	b.WriteString("## Candidates\n\n| set | drawn | accepted | undecided | thinned | held out | label quota full | duplicates (as written) | duplicates (up to renaming) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range m.Sets {
		und := 0
		for _, n := range s.Undecided {
			und += n
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", s.Name, s.Candidates, s.Accepted, und, s.Thinned, s.HeldOut, s.LabelFull, s.DuplicatesExact, s.DuplicatesRenaming)
	}
	cardThinned(b, m)
	for _, s := range m.Sets {
		if s.Pilot != nil {
			fmt.Fprintf(b, "\nBefore thinning, the first model predicted the labels of set %s's %d decided pilot candidates without a contradictory pair with %.1f%% accuracy out of sample (its logistic part alone: %.1f%%; the majority label: %.1f%%): the shortcut the balance set out to remove (the audit below measures what is left).",
				s.Name, s.Pilot.Decided, 100*s.Pilot.Accuracy, 100*s.Pilot.Linear, 100*s.Pilot.Majority)
		}
		if s.PilotCore != nil {
			fmt.Fprintf(b, " On the %d pilot candidates that hold a contradictory pair or that the first kept, the second told the two kinds apart with %.1f%% accuracy (the majority kind: %.1f%%).",
				s.PilotCore.Decided, 100*s.PilotCore.Accuracy, 100*s.PilotCore.Majority)
		}
	}
	b.WriteString("\nPer-stratum counts are in `manifest.json`.\n\n")
	if m.AuditSummary != "" {
		b.WriteString("## Shortcut audit\n\n" + m.AuditSummary + "\nThe full report is under `audit` in `manifest.json`.\n\n")
		b.WriteString("### What a shallow model reaches\n\n" +
			"Read a model's score next to three figures of the audit above. The one-step reasoner (the difficulty lines) says unsat exactly when two sentences contradict each other: " +
			"a model at its accuracy may have learned one step of inference and no more. " +
			"The sentence-pairs lines give what a logistic model over pairs of sentences (delexicalised, shared words kept as X0, X1) reaches on the records without such a contradiction: " +
			"above 50% there it reads statistics of how sentences combine, not a proof. " +
			"The order lines say whether a record's neighbours or position tell its label. " +
			"For harder data, build with `--min-core 3` (no unsat instance has a two-sentence contradiction) or `--holdout depth` (train and validation get unsat instances with shallow checked proofs, test only deeper ones).\n\n")
	}
	cardReference(b, m.Plan.Fragment)
	if m.Fields == "minimal" {
		b.WriteString("## Record fields\n\nThis build keeps the minimal fields (`--fields minimal`): `text` (the sentences joined by spaces) and `label` (0 = unsat, 1 = sat). The same command without `--fields minimal` writes the same instances with every field of the record (id, sentences, formulas, certificate, ...).\n")
		return
	}
	fmt.Fprintf(b, "## Record fields\n\n`id` (such as `%s`: fragment, split, the first %d hex digits of `plan_digest` in `manifest.json`, and the number in the file, so that a build with other flags or another seed has other ids and `nlsat eval` refuses predictions made for it), ",
		dataset.FormatID(m.Plan.poolFragName(len(m.Plan.Pools)-1)+"-"+Test, m.PlanDigest, 42), dataset.IDDigestLen)
	b.WriteString("`fragment`, `text` (the sentences joined by spaces), `sentences`, `label` (0 = unsat, 1 = sat), `label_text`, " +
		"`m` (sentences), `n1` (nouns drawn), `n2` (verbs drawn), `alpha` = m/n1, `beta` = m/n2 (0 without verbs), `nouns`, `verbs`, " +
		"`templates` (per sentence its template and variant), `formulas` (per sentence its first-order formula), `solver`, " +
		"`certificate` (`model_size` for sat; `mus`, indices into `sentences`, for unsat), `seed`, " +
		"`difficulty` (`mus_size`, `model_size`, `search_nodes` of the native type search, `unsat_pair`: a certified contradictory pair of sentences, empty when there is none), `distractors` and `distractor_mode` (sentences added without changing the label; none here).\n")
	if m.Plan.Proofs {
		b.WriteString("\nWith proofs (record schema " + dataset.ProofSchemaVersion + "): `proof`, the steps of a refutation of the certified MUS, each checked on its own (`premises`, earlier steps numbered from 1; `rule`; `sentence`, for a given step the sentence it repeats; `formula`; `english`), `[]` for sat and for unsat without a proof within the budget; " +
			"and `difficulty.proof_depth`, the proof's longest chain of inferences (0 for sat, -1 for unsat without a proof).\n")
	}
}

// cardThinned says, under the surface balance, what share of the
// candidates drawn it thinned, from this build's counts: the one place
// the card or nlsat's documentation states that share, since it depends
// on the fragment, the region and the pilot.
func cardThinned(b *strings.Builder, m *Manifest) {
	if m.Plan.Balance.Mode != BalanceSurface {
		return
	}
	drawn, thinned := 0, 0
	for _, s := range m.Sets {
		drawn, thinned = drawn+s.Candidates, thinned+s.Thinned
	}
	if drawn == 0 {
		return
	}
	fmt.Fprintf(b, "\nThe surface balance thinned %d of the %d candidates drawn (%.1f%%).", thinned, drawn, 100*float64(thinned)/float64(drawn))
}

// fragmentText names the fragments of the plan: "fragment A", or for a
// joint build "fragments S,W,V,Z,A".
func fragmentText(p *Plan) string {
	if p.Joint() {
		return "fragments " + p.Fragment
	}
	return "fragment " + p.Fragment
}

func splitNames(pl Pool) []string {
	var out []string
	for _, s := range pl.Splits {
		out = append(out, fmt.Sprintf("%s %d", s.Name, s.Size))
	}
	return out
}

func distinctText(sp fragments.SamplerParams) string {
	words := "no word twice in one sentence"
	if !sp.Distinct {
		words = "words may repeat within a sentence"
	}
	if sp.Equivalent {
		return words + ", two sentences of an instance may mean the same (the paper's sampler)"
	}
	return words + ", no two sentences of an instance with the same meaning (such as \"Every p is a q\" and \"No non-q is a p\")"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// referenceAudit is what scripts/shortcuts.sh measured per fragment
// (30,000 / 3,000 / 3,000, seed 1), as test accuracy in %: counts-logreg,
// bow-logreg, gbm-structure and the one-step reasoner, on the paper's
// distribution (its sampler, in its region, equal counts per stratum, no
// surface balance) and on nlsat's defaults. The README has the table.
var referenceAudit = map[string]struct{ paper, ours [4]float64 }{
	"S": {paper: [4]float64{50.8, 53.8, 58.9, 69.5}, ours: [4]float64{51.3, 49.4, 51.2, 67.7}},
	"V": {paper: [4]float64{60.0, 62.4, 68.2, 79.2}, ours: [4]float64{49.1, 50.7, 52.0, 76.9}},
	"Z": {paper: [4]float64{61.8, 63.6, 67.3, 80.4}, ours: [4]float64{50.3, 49.6, 50.9, 79.5}},
	"A": {paper: [4]float64{61.5, 62.5, 69.2, 76.8}, ours: [4]float64{51.6, 51.2, 50.2, 76.4}},
}

// cardReference writes the paper's distribution's figures beside
// nlsat's, where they were measured for the fragment.
func cardReference(b *strings.Builder, frag string) {
	r, ok := referenceAudit[frag]
	if !ok {
		return
	}
	fmt.Fprintf(b, "For comparison, measured with nlsat's `scripts/shortcuts.sh` on fragment %s (30,000 / 3,000 / 3,000, seed 1), test accuracy: "+
		"on the paper's distribution (its sampler, in its region, equal counts per stratum, no surface balance) counts-logreg %.1f%%, bow-logreg %.1f%%, gbm-structure %.1f%%; "+
		"on nlsat's defaults %.1f%%, %.1f%% and %.1f%%. "+
		"A one-step reasoner that says unsat exactly when two sentences contradict each other scores %.1f%% and %.1f%%: that is inference, not a shortcut, but a model's score is best read next to it "+
		"(`--min-core 3` builds data without such pairs).\n\n",
		frag, r.paper[0], r.paper[1], r.paper[2], r.ours[0], r.ours[1], r.ours[2], r.paper[3], r.ours[3])
}

// paperBandShare is how much of the gap between the paper's mean m
// (Table 4) and the mean m of nlsat's true band the paper's labelling
// method explains, measured by scripts/paper-band.sh (docs/paper-band).
var paperBandShare = map[string]int{"V": 86, "Z": 76, "A": 86}

// cardLengths writes, per fragment of the main sets, the m its region
// draws beside the paper's Table 4, and why they differ: once per
// fragment, though a joint build's fragment has two main sets (its train
// set and its evaluation set, over the same region).
func cardLengths(b *strings.Builder, p *Plan) {
	seen := map[string]bool{}
	for k, pl := range p.Pools {
		if k > 0 && pl.Fragment == "" {
			break // the further sets of a one-fragment build
		}
		f := p.PoolFrag(k).String()
		if seen[f] {
			continue
		}
		seen[f] = true
		var paper paperdata.Lengths
		for _, l := range paperdata.TrainLengths {
			if l.Fragment == f {
				paper = l
			}
		}
		var pts []phase.RegionPoint
		for _, st := range pl.Strata {
			for _, pt := range st.Points {
				pts = append(pts, phase.RegionPoint{Point: pt})
			}
		}
		lo, hi, mean := mRange(pts)
		fmt.Fprintf(b, "- Lengths, fragment %s: the region drawn from spans m %d–%d (mean %.1f over its points); the paper's Table 4 gives m %d–%d (mean %.2f) and its Table 5 %d–%d words (mean %.2f). "+
			"`nlsat stats --compare paper` prints a file's own figures beside the paper's.", f, lo, hi, mean,
			paper.Sentences.Min, paper.Sentences.Max, paper.Sentences.Mean, paper.Words.Min, paper.Words.Max, paper.Words.Mean)
		if share, ok := paperBandShare[f]; ok {
			fmt.Fprintf(b, " The paper labelled with one plain Z3 check and dropped the instances it left undecided, nearly all satisfiable, so its P(sat) was biased low and its band lies at smaller m than the true one: "+
				"measured at n1 = n2 = 4 and 6, that explains about %d%% of the difference in mean m (README, \"Lengths against the paper's\"). `--region paper` draws where the paper drew, with every label still decided by nlsat.", share)
		}
		b.WriteString("\n")
	}
}

// residualNote is the card's sentence on the residual stage, when the
// plan has it.
func residualNote(p *Plan) string {
	if !p.Balance.Residual {
		return ""
	}
	note := "What a model fitted to the pilot leaves in the candidates it goes on to keep is not what it leaves on the pilot itself, so each set then labelled a second pilot of as many candidates and fitted a third model to those of them that the two models kept and that hold no contradictory pair: a logistic model of the label on their sentence-pair patterns (sharing one noun or verb, and two) and the surface features. The candidates the first model kept were thinned again by it in the same way. "
	if p.Balance.Pooled {
		note += "The third models of train's sets were fitted together, and those of the evaluation sets together: one weight per sentence-pair pattern, learnt from every fragment's second pilot, as a classifier trained on all the fragments learns it, with each fragment's surface features and intercept its own. "
	}
	return note
}

// apartNote is the card's sentence on the evaluation set's own pilot,
// when the plan has one.
func apartNote(p *Plan) string {
	for _, pl := range p.Pools {
		if pl.PilotSize > 0 {
			return "Train and the evaluation set (validation and test) were thinned by models fitted to pilots of their own, each sized for the three splits together, so that no model's errors are shared by the data a model is trained on and the data it is scored on. "
		}
	}
	return ""
}

// nearChanceNote is the card's sentence on how the order of a file of
// dataset.OrderMinRecords or more is drawn (nearChanceOrder), when the
// plan writes one.
func nearChanceNote(p *Plan) string {
	for _, df := range p.dataFiles() {
		n := 0
		for _, mb := range df.members {
			n += p.Pools[mb[0]].Splits[mb[1]].Size
		}
		if n >= dataset.OrderMinRecords {
			return dataset.NearChanceOrderNote
		}
	}
	return ""
}
