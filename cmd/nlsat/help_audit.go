package main

// auditHelp describes, for nlsat audit's help, what the audit measures.
const auditHelp = `Baselines, trained on train and scored on every other split, overall and
per stratum:

  - majority: the most frequent label in train (sat on a tie);
  - counts-logreg: logistic regression on the surface features below,
    standardised by their train mean and deviation;
  - bow-logreg: logistic regression on log(1 + count) of every unigram and
    bigram of the lowercased text that occurs in at least 2 train records;
  - gbm-structure: gradient-boosted trees (100 of depth 3) on what a
    nonlinear model sees of an instance's shape, from the text alone: the
    counts of the 128 commonest sentence skeletons of train (a sentence
    with its nouns and verbs blanked out, "every N who V's some N is a
    N"), and structural statistics (sentences, words, nouns and verbs
    used, how often each noun and verb occurs, nouns that occur both
    negated and plain, nouns that are the subject of both a universal and
    an existential sentence, occurrences of "him");
  - each surface feature alone: every value (bin) predicts its majority
    label in train.

Both logistic models minimise the mean log-loss plus an L2 penalty of
0.001/2 times the squared weights (not the intercept) with L-BFGS, at most
100 iterations, from zero. Every baseline is deterministic. The baselines
are fitted to at most the first --max-train records of train (200,000; a
file nlsat wrote is in random order, balanced in blocks of 20), so that the
audit's memory stops growing with train; the record counts and the checks
of order and metadata read every record, and the report says when the fit
read fewer.

The surface features are m, n1, n2, alpha and beta from the record; the
number of occurrences of the words every, some, no, not, who and him in the
text (any case, whole words: the text is split into runs of letters, digits
and apostrophes, so "Nobody" is not "no"); the number of words starting
with "non-"; and "existential", the share of sentences whose first word is
"Some" (exactly the templates whose formula is ∃x…).

Metadata: a user sees each record's seed index, its place in the file and
its id number. Within each stratum (fragment, m, n1, n2) each field is
ranked in fifths, and each fifth predicts its majority label in train
(train itself out of fold). The labels of the first 100, 1,000 and 10,000
records of each split are counted: balanced when within two standard
errors of half.

Difficulty, which is inference and not a shortcut: per split, the unsat
records by the size of their certified MUS, how many hold two sentences
that contradict each other (the record's difficulty.unsat_pair, certified
either way), and the accuracy of a one-step reasoner that says unsat
exactly when a record holds such a pair. A model's score is best read
next to it.

Mutual information, in bits on train, between the label and each feature
(counts as they are, alpha and beta in bins of 0.5, the existential share
in tenths). The plug-in estimate is biased upwards on small samples; it is
shown with the Miller-Madow correction and with its mean under 20 random
label permutations, which is what an uninformative feature scores.

Strata are a fragment with one (n1, n2), and a fragment with m in a bin of
width 5; a stratum is reported when it has at least --min-stratum records.`

// auditEntailHelp describes, for nlsat audit's help, how an entailment
// dataset is audited.
const auditEntailHelp = `Entailment datasets (record schema nlsat-entail/1, recognised by the first
train record's keys "premises" and "hypothesis"; labels 0 entailment,
1 neutral, 2 contradiction) are audited as three binary problems, one per
pair of labels: entailment vs neutral, entailment vs contradiction, neutral
vs contradiction. Each pair is balanced when the dataset is (records come
in triples, one per label, on one premise set) and gets the full audit
above, with the first label of the pair in the role of sat. The text is the
premises and the hypothesis; the hypothesis's tokens are prefixed "h:", so
that "h:no" is not "no", and no bigram spans the two. The surface features
are m, n1 and n2 of the premises and, of the hypothesis: its tokens, the
share of its unigrams and bigrams found in the premises (h-overlap), the
counts of every, some, no, not, non-, who and him in it, and whether it
starts with "Some". gbm-structure counts the hypothesis's skeleton (the
premises' are shared by a triple) and takes the structural statistics of
premises and hypothesis together. Each pair adds hypothesis-only, the
classic NLI baseline: bow-logreg on the hypothesis's n-grams alone.

The criterion is the same, per pair and split. A three-way summary gives
each baseline's best pair and the three-way accuracy of the majority vote
of its three pairwise models (chance 33.3%; not held to the threshold).`
