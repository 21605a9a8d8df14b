package main

// entailGenerateHelp describes, for nlsat generate's help, the entailment
// task.
const entailGenerateHelp = `Entailment (--task entailment). Each record holds premises Φ (an instance
drawn as above, checked consistent), a hypothesis ψ over the same words, and
a label in MNLI's order: 0 entailment (Φ ⊨ ψ), 1 neutral, 2 contradiction
(Φ ⊨ ¬ψ), with label_binary 0 entailed, 1 not entailed. ¬ψ is written as a
sentence of the fragment (neg ψ, the record's negated_hypothesis). Records
come in triples on one premise set, one per label, so --count must be a
multiple of 3 and every (m, n1, n2) holds the labels in equal numbers; the
three hypotheses share one sampled shape, so that neither premises nor the
hypothesis's template tell the label. Entailment and contradiction carry
the subset of Φ that proves them (a certified MUS of Φ ∪ {neg ψ} or
Φ ∪ {ψ}); neutral carries the sizes of checked models of both. Schema
nlsat-entail/1. An interrupted run resumes, and shards (a shard decides the
triples t ≡ shard mod N) merge into the bytes of one run, as for instances;
no distractors or proofs.

`

// entailSplitHelp describes, for nlsat split's help, the entailment build.
const entailSplitHelp = `Entailment (--task entailment). Builds train, validation and test of
entailment records (schema nlsat-entail/1, as nlsat generate --task
entailment writes them: premises, hypothesis, label 0 entailment, 1 neutral,
2 contradiction in MNLI's order, label_binary, certificates) over the
strata of the region. --train, --validation and --test count records and
must be multiples of 3 (default 3,000 / 300 / 300): records come in triples
on one consistent premise set, one per label, so every (m, n1, n2) stratum
of every split holds the three labels equally, and a triple never crosses
splits. No two triples share a premise set up to renaming and order. A
triple's three hypotheses share their shape, how many of their words the
premises lack, and how two models of the patterns each forms with the
premises rank the three labels: the build first draws a pilot of triples
(twice its own, at least 600 or eight times them, at most 6,000) to fit the
first model, then a residual pilot of as many, matched on the first, to fit
the second on what the first leaves, so a shallow reader of those patterns
is near chance. The
manifest, card (HuggingFace features with MNLI's class names), checksums and
the shortcut audit (each pair of labels, on premises and hypothesis) are
written as for instance builds; an interrupted build resumes. --fragment
S,W (or all, or any list) makes a joint build, as for instances: every
fragment draws from its shipped region (no --region) with every size per
fragment, each split file holds every fragment's records, a third of each
label in every (fragment, m, n1, n2) stratum, no two triples share a premise
set across fragments either, and ids keep the record's fragment as prefix.
Shards work as below (a shard draws its share of every stratum's candidates,
what the stratum's triples need plus four standard deviations, times
--oversample), and nlsat merge writes the bytes of one run. No hold-outs,
further sets or minimal fields.
`
