// Package entail builds entailment problems over the fragments: premises
// Φ (a satisfiable set of sentences of one fragment), a hypothesis ψ of
// the same fragment over the same words, and a certified three-way label
// in MNLI's order (ProofWriter's True / Unknown / False under the open
// world): entailment (Φ ⊨ ψ), neutral (neither) or contradiction
// (Φ ⊨ ¬ψ). Part 3 of issue 15.
//
// # Decision
//
// Φ ⊨ ψ iff Φ ∪ {¬ψ} is unsatisfiable, and every fragment says ¬ψ in one
// sentence of its own, neg ψ (fragments.Sentence.Negation). Decide runs
// solver.Decide on Φ ∪ {ψ} and on Φ ∪ {neg ψ}: the first unsatisfiable
// means contradiction, the second entailment, both satisfiable neutral.
// Both unsatisfiable means Φ is inconsistent (ErrInconsistent): such
// premises entail everything and are never used. Otherwise one side has
// a checked model, which is a model of Φ, so every labelled problem's
// premises are shown consistent.
//
// # Certificates
//
// Entailment and contradiction carry the premises of a certified minimal
// unsatisfiable subset of Φ ∪ {neg ψ} or Φ ∪ {ψ}: the MUS always holds
// the hypothesis side (Φ being consistent), and the rest is the subset of
// Φ that proves the label; no proper part of it does. Neutral carries two
// checked models, of Φ ∪ {ψ} and of Φ ∪ {neg ψ}. The difficulty of a
// problem is the size of its subset (0 for neutral).
//
// # Drawing
//
// Problems come in triples, one per label, on one consistent premise set:
// a premise-only reader is at chance by construction. The premises are an
// instance drawn as generate draws it (the stratum (m, n1, n2) comes from
// the plan and is kept for the whole triple). A hypothesis is a sentence
// of the fragment over the premises' words, neither a premise nor a
// premise's negation up to meaning (fragments.Sentence.Meaning). Drawer
// first draws a key sentence with the fragment's sampler (DrawSentence:
// the premises' template distribution), then draws hypotheses of the
// key's shape and noun polarities with fresh words until each label has
// one (Drawer.Tries per label); failing that, another key (Drawer.Shapes
// of them), and failing that, another premise set at the same (m, n1,
// n2). Labels are decided without certificates while drawing, and no
// further than it takes to tell whether a hypothesis has a label its
// slot (novelty and bin, below) still lacks; the three kept hypotheses
// are decided again with certificates.
//
// Within a shape, the three kept hypotheses also share their novelty:
// how many of their unigrams and bigrams the premises lack (capped at
// 3, counted with the audit's tokens, textfeat.Grams). An entailed
// hypothesis tends to restate the premises: unmatched, its overlap with
// them alone told entailment from neutral 57% of the time on 3,000 V
// records.
//
// Matching the shapes is what keeps the hypothesis from giving the label
// away. Taking, instead, the first hypothesis drawn for each label lets
// its template alone predict the label: in TestTripleShortcuts's
// measurement (60 triples, NLSAT_ENTAIL_SHARES=1) the best template-only
// classifier scored 0.45 in S, 0.70 in V and 0.76 in A (entailed
// hypotheses were mostly W1/W2 and S3, neutral ones the fragment's own
// templates). With matched shapes, template and negation words are
// identically distributed across the three labels: both classifiers
// score exactly 1/3, and the test holds them to it. The price is that
// the hypotheses' template mix is the sampler's conditioned on a shape
// reaching all three labels: for A, mostly inherited templates (W, Z, S),
// as the own templates' sentences are rarely entailed or contradicted by
// premises at these sizes.
//
// What the matching leaves is how the hypothesis meets the premises that
// share its words: the audit's premise-pairs baseline (patterns of a
// premise and the hypothesis, textfeat.PremisePatterns) reads where a
// proof starts or ends, and with shape and novelty matched alone its
// three-way vote scored 52.3% on V and 46.2% on A (tests of 600
// records). Matching the patterns themselves finds no triple at an
// affordable cost (most A triples find none in maxPremises premise
// sets). So a build matches what a model of the patterns makes of them
// (balance.go): a pilot of triples drawn without it fits the model, and
// the three hypotheses of a triple also share the order in which the
// model ranks the labels for them (Drawer.Bin). A residual pilot, drawn
// with that matching, fits a second model to what the first leaves, and
// the three hypotheses also share the label the second finds likeliest.
// docs/entailment.md has the measurements.
//
// # Records (schema nlsat-entail/1)
//
// Generate's run of Triples writes Record lines (schema.json is their
// JSON Schema), in every format of package dataset (entailrec.Row is the
// Parquet row type), with the same bytes for any number of workers or
// shards. Every key is present in every record:
//
//	id                  fragment, digest of the plan and task, number
//	fragment            S, W, V, Z or A
//	premises            the sentences of Φ
//	hypothesis          ψ
//	label, label_text   0 entailment, 1 neutral, 2 contradiction (MNLI)
//	label_binary        0 entailed (label 0), 1 not entailed (1 and 2)
//	premises_text       the premises joined by single spaces
//	negated_hypothesis  neg ψ, the fragment's sentence for ¬ψ
//	m, n1, n2           premises, nouns, verbs
//	nouns, verbs        the words drawn
//	templates, formulas the premises' template ids and formulas
//	hypothesis_template, hypothesis_formula
//	solver              the backend that labelled it
//	certificate         {"subset": [int], "models": [int]}: the premises
//	                    proving entailment or contradiction, or the sizes
//	                    of neutral's two checked models; the other empty
//	difficulty          {"subset_size": int}
//	seed                "master:t", t the triple's index
//
// Records come in triples sharing premises and seed, in a seeded order;
// the count must be a multiple of 3, so each (m, n1, n2) holds the three
// labels equally. The minimal layout is not offered. A triple is a unit
// of generate's run (generate.Task), so an interrupted run resumes to
// the same bytes and shards merge into them.
//
// # Datasets
//
// Split is the entailment task as package split/units builds datasets:
// a unit is a triple, drawn for a stratum at a point of it (Drawer.Triple
// on an instance sampled there), kept in a seeded order, and identified
// for deduplication by its premises. The build itself (strata and
// quotas, index order, deduplication, splits that no triple crosses,
// shards and their merge, joint builds, manifest and checksums) is
// split/units', the same for every task whose units hold one record per
// class; this package gives the draw, the records, the random streams
// (BuildStream and the others) and the card (Card, Features, with MNLI's
// class names).
package entail
