// Package audit checks a dataset for surface shortcuts: whether anything
// but the logic predicts the labels. It trains shallow baselines on the
// train split of a dataset directory and scores them on every other split,
// overall and per stratum, and measures how much each surface feature
// tells about the label. nlsat audit prints the Report; nlsat split can
// call Run and put Summary in the dataset card.
//
// Run is one driver for every task: a Task reads the task's records into
// Rows (label, strata, surface features, texts, structure, sentence-pair
// patterns) and its Spec names the labels and features, adds the task's
// own baselines and sections, and opens the summary. The sat/unsat and
// entailment tasks implement it in their packages (internal/task/...).
//
// # Baselines
//
//   - majority: the most frequent label in train (sat on a tie);
//   - counts-logreg: logistic regression on the surface features below,
//     standardised by their train mean and standard deviation;
//   - bow-logreg: logistic regression on log(1 + count) of each unigram and
//     bigram of the text that occurs in at least MinCount train records;
//   - gbm-structure: gradient-boosted trees (learn.FitBoosted: Newton boosting
//     on the log-loss, depth 3, binned thresholds) on the counts of the
//     commonest sentence skeletons of train and on structural statistics
//     of the text (structure.go), fitted on at most structTrainLimit train
//     records. It sees interactions and thresholds a linear model misses;
//   - lookups: each feature alone, every bin predicting its majority label
//     in train (the majority label for a tie or an unseen bin). These catch
//     relations a linear model misses, such as a label that is more often
//     sat at both ends of a count.
//
// Both logistic models minimise the mean log-loss plus λ/2·|w|² (the
// intercept is not penalised) with L-BFGS from zero, at most Iterations
// iterations. gonum/optimize would pull a module go.sum does not have
// (its CMA-ES imports golang.org/x/tools), so the minimiser is a short
// L-BFGS over gonum/floats.
//
// # Features and tokens
//
// Text is split into tokens: runs of letters, digits and apostrophes,
// lowercased, with "non-" split off as a token of its own and full stops
// kept as tokens ("Some non-artist is not a baker." is some, non-, artist,
// is, not, a, baker, "."). The sat/unsat task's features (task/satunsat)
// are m, n1, n2, alpha and beta from the record; the number of tokens
// every, some, no, not, non-, who and him; and the existential share, the
// fraction of sentences whose first token is "some" (exactly the
// templates whose formula starts ∃x: S3, W3, V1.some-*, V3, Z3,
// A1.some-*, A3). For the mutual information and the lookups counts are
// taken as they are, alpha and beta in bins of width 0.5 and the
// existential share in tenths.
//
// # Mutual information
//
// The plug-in estimate of I(label; feature) in bits is biased upwards by
// about (bins − 1)/(2·N·ln 2). The report gives it with the Miller–Madow
// correction and with its mean over Permutations random permutations of
// the labels; Excess, the estimate minus that mean, ranks the features.
//
// # Verdict
//
// A predictor shows a shortcut on a split when the lower end of its
// Wilson interval (level Confidence) exceeds Threshold: its accuracy is
// above the threshold with that confidence. The verdict lists every such
// predictor with what drives it (the largest weights of counts-logreg, the
// strongest n-grams of bow-logreg); otherwise it says "no surface shortcut
// above 55%" and names the predictor with the highest lower bound. Strata
// (a fragment with one (n1, n2), or with m in a bin of width MBin) are
// scored with the models trained on all of train, and reported when they
// have at least MinStratum records.
//
// # Tasks of more labels
//
// A task of more than two labels (entailment: 0 entailment, 1 neutral,
// 2 contradiction) is audited as binary problems, one per pair of
// labels, each a full audit as above with the pair's first label as sat
// (PairwiseReport, PairReport). The criterion is unchanged, per pair;
// Multiway adds each baseline's best pair and the accuracy over all
// labels of its pairwise models' votes. A task's own baselines (for
// entailment: hypothesis-only, bow-logreg on the hypothesis's n-grams
// alone, and premise-pairs, on the patterns of a premise and the
// hypothesis) are n-gram or pattern models the driver fits like the
// generic ones (Baseline).
//
// # Determinism
//
// A Report depends only on the files. Lines are decoded in parallel but
// merged in file order; the models' sums run over fixed blocks of rows
// added in block order, whatever the number of cores; permutations come
// from a PCG seeded with Seed; every table is sorted; JSON numbers are
// rounded.
package audit
