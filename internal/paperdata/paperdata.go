// Package paperdata holds the published figures nlsat sets its own
// beside: the lengths of the instances of the paper's training sets.
// Builds (the dataset card) and analyses (nlsat stats --compare paper)
// both cite them.
package paperdata

// Range is a count's minimum, maximum and mean over instances, as a row
// of the paper's tables gives it.
type Range struct {
	Min, Max int
	Mean     float64
}

// Lengths is one row of the paper's Tables 4 and 5: for one fragment,
// sentences and words per instance.
type Lengths struct {
	Fragment  string
	Instances int
	Sentences Range
	Words     Range
}

// TrainLengths are the rows of the paper's Tables 4 (sentences m per
// instance) and 5 (words, "separated by SPACE") for its training sets of
// 120K instances per fragment, copied from its Appendix D.1. The tables'
// headers read "minimum, maximum, mean" but every row gives the larger
// number first (S: 29, 8, 17.06); the numbers are kept and read as
// maximum, minimum, mean, the only order their means allow.
var TrainLengths = []Lengths{
	{Fragment: "S", Instances: 120000, Sentences: Range{Min: 8, Max: 29, Mean: 17.06}, Words: Range{Min: 35, Max: 149, Mean: 83.19}},
	{Fragment: "W", Instances: 120000, Sentences: Range{Min: 9, Max: 32, Mean: 18.95}, Words: Range{Min: 43, Max: 267, Mean: 129.08}},
	{Fragment: "V", Instances: 120000, Sentences: Range{Min: 5, Max: 25, Mean: 14.00}, Words: Range{Min: 22, Max: 221, Mean: 97.37}},
	{Fragment: "Z", Instances: 120000, Sentences: Range{Min: 6, Max: 28, Mean: 14.31}, Words: Range{Min: 29, Max: 274, Mean: 110.22}},
	{Fragment: "A", Instances: 120000, Sentences: Range{Min: 8, Max: 34, Mean: 16.50}, Words: Range{Min: 39, Max: 318, Mean: 123.42}},
}
