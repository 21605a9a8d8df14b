// Package datasettest draws toy records for tests: sentences in the
// shape of fragment S over a fixed list of nouns, with labels the test
// chooses, so that an audit or a reader can be checked on data whose
// labels the text does or does not tell.
package datasettest

import (
	"fmt"
	"math/rand/v2"

	"github.com/nlsat/nlsat/internal/dataset"
)

// Nouns are the toy records' nouns.
var Nouns = []string{"artist", "baker", "chemist", "dentist", "engineer", "farmer", "gardener", "historian",
	"jeweller", "lawyer", "mechanic", "nurse", "optician", "pianist", "reporter", "surgeon"}

// Sentence draws one S-style sentence over nouns.
func Sentence(rng *rand.Rand, nouns []string) string {
	p, q := nouns[rng.IntN(len(nouns))], nouns[rng.IntN(len(nouns))]
	if rng.IntN(2) == 0 {
		p = "non-" + p
	}
	neg := ""
	if rng.IntN(2) == 0 {
		neg = "not "
	}
	switch rng.IntN(3) {
	case 0:
		return fmt.Sprintf("Every %s is %sa %s.", p, neg, q)
	case 1:
		return fmt.Sprintf("Some %s is %sa %s.", p, neg, q)
	}
	return fmt.Sprintf("No %s is a %s.", p, q)
}

// Record draws a record of m sentences over n1 of Nouns with the given
// id and label, which its text does not tell.
func Record(rng *rand.Rand, id string, label, n1, m int) *dataset.Record {
	perm := rng.Perm(len(Nouns))[:n1]
	nouns := make([]string, n1)
	for i, j := range perm {
		nouns[i] = Nouns[j]
	}
	r := &dataset.Record{ID: id, Fragment: "S", Label: label, N1: n1, Nouns: nouns}
	for range m {
		r.Sentences = append(r.Sentences, Sentence(rng, nouns))
	}
	return r
}
