// Package textfeat reads surface features off English text, whatever the
// vocabulary: its tokens (Tokens), the skeleton of each sentence and the
// structural statistics of an instance (Structure, Skeletons), and the
// unigrams and bigrams two texts share (Grams), and the patterns of the
// sentence pairs that share words (PairPatterns). The shortcut audit's
// baselines and the builds that balance against them (split's surface
// balance, the entailment draw's novelty) see the same features.
package textfeat
