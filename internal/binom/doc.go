// Package binom estimates proportions from counts: the Wilson score
// interval of k successes in n trials, with its fixed-precision JSON form.
// Builds (phase sweeps, the dataset card) and analyses (stats, eval, the
// audit) report the same intervals.
package binom
