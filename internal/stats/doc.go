// Package stats summarises files of instance records: the lengths the
// paper reports in Tables 4 and 5, the label balance of every stratum, and
// how often each sentence template occurs.
//
// # Counting
//
// Sentences are the entries of a record's sentences array (its m). Words
// are the whitespace-separated tokens of its text, as the paper's Table 5
// counts them ("words (tokens) when separated by SPACE"): punctuation stays
// attached, so "Every scholar is a poet." is five words. A record without a
// text has its sentences joined by single spaces, which is what text is by
// the record specification (docs/records.md).
//
// A stratum is a fragment with one value of (n1, n2), or one value of m.
// Labels are counted as sat, unsat or unlabelled (label -1).
//
// A template variant is an entry of a record's templates array, such as
// "A1.every-some.who-not"; its template is the part before the first full
// stop ("A1").
//
// # Determinism
//
// A Report depends only on the multiset of records added, not on their
// order: every row is sorted, fragments in the order S, W, V, Z, A (others
// after them, by name), then by number or by name.
package stats
