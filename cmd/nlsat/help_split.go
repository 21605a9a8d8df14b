package main

// splitHelp describes, for nlsat split's help, how a dataset is built.
const splitHelp = `Split builds a dataset of one fragment (or of several: see Joint builds):
train, validation and test splits of exact sizes (by default the paper's
120,000 / 10,000 / 10,000), drawn from the hard region, labelled, and
written with a dataset card, a manifest and checksums:

  OUT/data/train.jsonl, validation.jsonl, test.jsonl   (and the further sets;
                    .jsonl.gz, .jsonl.zst or .parquet with --format)
  OUT/README.md     dataset card with HuggingFace YAML (configs, features)
  OUT/manifest.json full configuration and every count, per file and stratum
  OUT/SHA256SUMS    checksums that sha256sum -c accepts

Strata. Each split is exactly half sat and half unsat, and so is every
stratum of it. The main splits have one stratum per point (m, n1, n2) of the
region (--region, or the region shipped for the fragment, measured by the
default phase sweep), so the balance holds per fragment × n1 × n2 and per m.
A stratum that cannot be filled stops the build with an error naming it.

Balance. Equal counts per stratum do not stop the surface from predicting
the label: at the same (m, n1, n2) an instance with more existential
sentences is more often satisfiable, and a logistic model on a few word
counts scores over 60% on V, Z and A; nor do they stop how the sentences
combine from predicting it. With --balance surface (the default) each set
first labels a pilot of --balance-pilot candidates (a smaller set: twice
its size, but at least 10,000 or eight times its size), which only serve
to fit two models. Train, and validation with test, are two sets with a
pilot each, both sized for the three splits together: a model's errors
leave a faint pattern in what it keeps, and with two models the pattern a
classifier learns from train is not the one in test. Each is a logistic
model on surface features (sizes; the count, share and log-count of each
template variant, of the words every, some, no, not, non-, who, him, any,
does, is, a, an and of their bigrams; how evenly the sentences spread
over the nouns and verbs) with gradient-boosted trees on what it leaves
(those counts, structural statistics of the text and the counts of the
commonest sentence skeletons: what the audit's gbm-structure baseline
sees), calibrated on out-of-fold scores within the pilot so that noise in
the model is not turned into a pattern. The first, on the candidates in
which no two sentences contradict each other, predicts the label and also
sees the patterns of their sentence pairs ("every X0 is a X1 | every non-
X1 is a X0", what the audit's pairs baselines see); those candidates are
thinned until sat and unsat ones share one distribution of all of it. The
second tells unsat candidates with a contradictory pair from the rest on
the surface, and both kinds are thinned to one distribution of it. A
contradictory pair itself stays: finding it is one step of inference,
which the audit reports as difficulty. Every keep decision is drawn from
the candidate's seed alone; the ratio of the labels and the share of
contradictory pairs among unsat instances stay the sampler's. The
manifest counts the thinned candidates and states how well the models
predicted the pilot; the audit measures what is left. --balance strata
skips this.

Uniqueness. No two instances anywhere in the dataset have the same set of
sentences, and by default (--dedup renaming) none is the same problem up to
a renaming of nouns, of verbs, and the order of sentences. The manifest
counts the candidates each rule rejected, and the undecided instances
(never labelled, never written).

Held-out splits. --holdout size gives train and validation the strata with
n = n1 + n2 up to --holdout-n and test the larger ones (the paper's Table
3); --holdout vocabulary draws test instances only from a share of the
nouns and verbs (--holdout-share) that train and validation never use, as
CLUTRR holds out names; --holdout difficulty gives train and validation
unsat instances with a certified MUS of at most --holdout-mus sentences and
test unsat instances with no unsatisfiable subset that small (every subset
shown satisfiable by a checked model), the analogue of RuleTaker's proof
depth; sat instances are drawn alike for all three; --holdout templates
keeps pairs of templates (--holdout-pairs, by default the fragment's own
templates 1 and 2) from ever occurring together in train and validation
(each candidate is drawn without one template of each pair, chosen by a
fair coin) and gives test only instances that hold both templates of some
pair; --holdout depth (RuleTaker's "train shallow, test deep") gives
every record a checked proof, as --proofs does, and train and validation
only unsat instances whose proof has depth at most --holdout-depth, test
only deeper ones (unsat instances without a proof within the budget go
nowhere). The manifest and the card record what was held out.

Proofs. --proofs gives every record a proof: a checked step-by-step
refutation of its MUS (record schema nlsat-record/4, see the README's
Records); without it the records are as before.

Joint builds. --fragment S,W,V,Z,A (or all, or any list) builds one
dataset of several fragments, every size per fragment (--preset paper-joint:
all five at 120,000 / 10,000 / 10,000 each, the paper's Table 2 with 600K
train; paper-joint-small: 24,000 train each, its 120K). Each fragment is a
set with the strata of its shipped region, its own quotas and its own
surface balance; each split file holds every fragment's quota, half sat in
every (fragment, m, n1, n2) stratum; no two instances are the same across
fragments either; ids keep the record's fragment as prefix. One manifest,
card, checksums and audit (overall and per fragment); nlsat eval reports
per fragment. No --region, --holdout or further sets in a joint build.

Further sets (--preset paper adds both): --generalisation N instances at
larger sizes (n1 16–24 for S, W; n1 8–12 and n2 8–24 for V, Z, A; one stratum
per (n1, n2)), and --zero-shot N instances at small sizes (n1 5–10 for S, W;
n1 3–5, n2 2–5 for V, Z, A; one stratum per n = n1 + n2), both at the fitted
hard m. They are deduplicated against everything else.

Long runs. Progress goes to stderr. The build checkpoints into
OUT/.nlsat-build; if it is interrupted (Ctrl-C, kill, crash), running the
same command again resumes it and ends in the same bytes as an
uninterrupted run. No file appears under OUT/data before it is complete.
The output is identical for any -j.
`

// holdoutDepthUsage is the help of --holdout-depth.
const holdoutDepthUsage = "with --holdout depth: train and validation take unsat instances whose checked proof has depth at most this, test deeper ones"
