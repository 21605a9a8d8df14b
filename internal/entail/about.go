package entail

// About describes, for nlsat generate's help, the entailment task. It
// lives beside the code that does it so that the two change together.
const About = `Entailment (--task entailment). Each record holds premises Φ (an instance
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
nlsat-entail/1. An interrupted run resumes; no shards, distractors or proofs.

`
