package entail

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/split"
	"github.com/nlsat/nlsat/internal/split/units"
)

// Features is the record's schema in the dataset card's YAML form, as
// the HuggingFace datasets library reads it: label is a ClassLabel in
// MNLI's order and label_binary one of its own.
const Features = `  features:
  - name: id
    dtype: string
  - name: fragment
    dtype: string
  - name: premises
    list: string
  - name: hypothesis
    dtype: string
  - name: label
    dtype:
      class_label:
        names:
          '0': entailment
          '1': neutral
          '2': contradiction
  - name: label_text
    dtype: string
  - name: label_binary
    dtype:
      class_label:
        names:
          '0': entailed
          '1': not entailed
  - name: premises_text
    dtype: string
  - name: negated_hypothesis
    dtype: string
  - name: m
    dtype: int64
  - name: n1
    dtype: int64
  - name: n2
    dtype: int64
  - name: nouns
    list: string
  - name: verbs
    list: string
  - name: templates
    list: string
  - name: hypothesis_template
    dtype: string
  - name: formulas
    list: string
  - name: hypothesis_formula
    dtype: string
  - name: solver
    dtype: string
  - name: certificate
    struct:
    - name: subset
      list: int64
    - name: models
      list: int64
  - name: difficulty
    struct:
    - name: subset_size
      dtype: int64
  - name: seed
    dtype: string
`

// Card renders the dataset card of an entailment build: HuggingFace YAML
// front matter (one configuration with its splits, the features with
// both labels' class names, license, task and size) and a body that
// says how the data was made and what its numbers are.
func Card(m *units.Manifest) string {
	var b strings.Builder
	total := 0
	for _, f := range m.Files {
		total += f.Rows
	}
	fmt.Fprintf(&b, "---\npretty_name: nlsat %s entailment\nlicense: %s\n", m.Plan.Fragment, m.License)
	b.WriteString("language:\n- en\ntask_categories:\n- text-classification\ntask_ids:\n- natural-language-inference\n" +
		"tags:\n- logical-reasoning\n- entailment\n- controlled-natural-language\n- synthetic\n" +
		"annotations_creators:\n- machine-generated\nlanguage_creators:\n- machine-generated\nmultilinguality:\n- monolingual\nsource_datasets:\n- original\n")
	fmt.Fprintf(&b, "size_categories:\n- %s\nconfigs:\n- config_name: default\n  data_files:\n", split.SizeCategory(total))
	for _, f := range m.Files {
		fmt.Fprintf(&b, "  - split: %s\n    path: %s\n", f.Split, f.Path)
	}
	fmt.Fprintf(&b, "dataset_info:\n- config_name: default\n%s  splits:\n", Features)
	var bytes int64
	for _, f := range m.Files {
		fmt.Fprintf(&b, "  - name: %s\n    num_examples: %d\n", f.Split, f.Rows)
		bytes += f.Bytes
	}
	// As in split's card: the files' size, and no num_bytes or
	// dataset_size (the size of the data in Arrow's memory layout).
	fmt.Fprintf(&b, "  download_size: %d\n---\n\n", bytes)
	cardBody(&b, m)
	return b.String()
}

// cardBody writes the card's text.
func cardBody(b *strings.Builder, m *units.Manifest) {
	p := m.Plan
	what, of := "fragment "+p.Fragment, "fragment "+p.Fragment
	if p.Joint() {
		names := strings.Join(p.Fragments(), ", ")
		what, of = "fragments "+names, "one of the fragments "+names+" (`fragment`)"
	}
	fmt.Fprintf(b, "# nlsat: entailment in %s of English\n\n", what)
	fmt.Fprintf(b, "Each record holds premises Φ (`premises`, a consistent set of controlled-English sentences of %s), "+
		"a hypothesis ψ (`hypothesis`, a sentence of the same fragment over the premises' nouns and verbs) and a label in MNLI's order: "+
		"`0` entailment (every situation that makes the premises true makes ψ true), `1` neutral (the premises leave ψ open), "+
		"`2` contradiction (the premises make ψ false); `label_binary` is `0` entailed, `1` not entailed (a third entailed, so its majority baseline is 66.7%%; score it by macro-F1, or evaluate on the entailment records with as many of the others). "+
		"Φ ⊨ ψ iff Φ ∪ {¬ψ} is unsatisfiable, and ¬ψ is itself a sentence of the fragment (`negated_hypothesis`), "+
		"so every label comes from two satisfiability problems decided by a sound and complete procedure (`%s`). "+
		"Each label carries a certificate: entailment and contradiction the premises (`certificate.subset`) of a certified minimal "+
		"unsatisfiable subset of Φ ∪ {¬ψ} or Φ ∪ {ψ}, that is a smallest-by-inclusion set of premises that proves the label; "+
		"neutral the sizes of two checked models, one of Φ ∪ {ψ} and one of Φ ∪ {¬ψ}. "+
		"`difficulty.subset_size` is the size of that subset (0 for neutral).\n\n", of, m.Solver)
	b.WriteString("## Files\n\n| file | split | records | entailment | neutral | contradiction | bytes |\n|---|---|---:|---:|---:|---:|---:|\n")
	for _, f := range m.Files {
		fmt.Fprintf(b, "| `%s` | %s | %d | %d | %d | %d | %d |\n", f.Path, f.Split, f.Rows,
			f.Labels[Entailment.String()], f.Labels[Neutral.String()], f.Labels[Contradiction.String()], f.Bytes)
	}
	b.WriteString("\nLoad it with `datasets.load_dataset(\"path/to/this/directory\")`: `label` is a ClassLabel whose names are MNLI's " +
		"(`entailment`, `neutral`, `contradiction`), so NLI code reads it as it reads MNLI. `manifest.json` holds the full configuration " +
		"and every count below; `sha256sum -c SHA256SUMS` checks the files.\n\n")
	b.WriteString("## How it was made\n\n")
	fmt.Fprintf(b, "- Command: `%s` (toolkit %s %s, commit %s).\n", m.Command, m.Toolkit.Name, m.Toolkit.Version, cmp.Or(m.Toolkit.Commit, "unknown"))
	if p.Joint() {
		fmt.Fprintf(b, "- Fragments: %s, built together; each has the record counts of every split asked for, and ids keep the record's fragment as prefix.\n", strings.Join(p.Fragments(), ", "))
		fmt.Fprintf(b, "- Strata: %s; %d strata in all. Every (fragment, m, n1, n2) stratum of every split holds the three labels in equal numbers.\n", p.Source, len(p.Strata))
	} else {
		fmt.Fprintf(b, "- Strata: %s; %d strata. Every (m, n1, n2) stratum of every split holds the three labels in equal numbers.\n", p.Source, len(p.Strata))
	}
	b.WriteString("- Triples: records come in triples on one premise set, one record per label, and a triple never crosses splits. " +
		"A triple's premises are drawn as an instance of the stratum, and kept only if consistent (one side of every hypothesis has a checked model). " +
		"Its hypotheses are drawn so that they do not give the label away: first a key sentence from the fragment's own sentence sampler, " +
		"then hypotheses of the key's shape and noun polarities with fresh words, until each label has one; " +
		"so the three hypotheses of a triple share their template and their negations, and neither the premises nor the hypothesis's template tells the label. " +
		"They also share how many of their words and word pairs the premises lack (up to 3), so that restating the premises does not tell entailment. " +
		"No hypothesis is a premise or a premise's negation up to meaning.\n")
	if p.Pilot > 0 {
		fmt.Fprintf(b, "- Premise–hypothesis patterns: how a hypothesis meets the premises that share its words (each such premise and the hypothesis, delexicalised) tells the label when nothing matches it: "+
			"on V and A builds without this step, a logistic model over those patterns voted right on 46–52%% of the records, against a third by chance. "+
			"So a pilot of %d triples, drawn first without it, fits such a model for each fragment it holds 50 triples of, and the three hypotheses of every triple share the order in which that model ranks the three labels for them: "+
			"a model like it reads the same answer in all three records of a triple. "+
			"%s"+
			"A side effect: fewer entailments and contradictions that one premise proves alone. The audit below measures what is left (premise-pairs).\n", p.Pilot, residualNote(p))
	}
	across := ""
	if p.Joint() {
		across = ", whatever their fragments"
	}
	fmt.Fprintf(b, "- Deduplication: no two triples of the dataset have premise sets equal up to renaming nouns and verbs and reordering sentences%s (%s).\n", across, dedupText(m))
	b.WriteString("- Order: the triples of a stratum are dealt to the splits in a seeded order, and every split's records are shuffled by another seed; " +
		"neither the position nor the id of a record tells its label.")
	for _, f := range m.Files {
		if f.Rows >= dataset.OrderMinRecords {
			b.WriteString(" " + strings.TrimSpace(dataset.NearChanceOrderNote))
			break
		}
	}
	b.WriteString("\n\n")
	b.WriteString("## Shortcut audit\n\n")
	if m.AuditSummary == "" {
		b.WriteString("Not run (--audit=false).\n")
	} else {
		b.WriteString("Shallow baselines trained on train and scored on the other splits, on the premises and the hypothesis, for each pair of labels " +
			"(each pair balanced); `manifest.json` holds the full report.\n\n" + m.AuditSummary)
	}
}

// residualNote is the card's sentence on the balance's residual stage,
// when the plan has it.
func residualNote(p *units.Plan) string {
	if p.Residual == 0 {
		return ""
	}
	return fmt.Sprintf("Matched on that model, the hypotheses still differed in ways a model fitted to matched triples finds (on V, such a model still voted right on 42–47%% of the records), "+
		"so a residual pilot of %d triples, drawn with the matching, fits a second model the same way, and the three hypotheses of every triple also share the label the second model finds likeliest for them. ", p.Residual)
}

// dedupText counts the candidates the deduplication rejected.
func dedupText(m *units.Manifest) string {
	var cands, exact, renamed, none int
	for _, s := range m.Strata {
		cands, exact, renamed, none = cands+s.Candidates, exact+s.DuplicatesExact, renamed+s.DuplicatesRenaming, none+s.NoUnit
	}
	return fmt.Sprintf("%d candidates drawn, %d exact and %d renamed duplicates rejected, %d without a triple", cands, exact, renamed, none)
}
