package entailment

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
)

var toyNouns = []string{"artist", "baker", "chemist", "dentist", "engineer", "farmer", "gardener", "historian",
	"jeweller", "lawyer", "mechanic", "nurse", "optician", "pianist", "reporter", "surgeon"}

// toySentence draws one S-style sentence over nouns.
func toySentence(rng *rand.Rand, nouns []string) string {
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

// toyRecord draws a record of m sentences over n1 nouns.
func toyRecord(rng *rand.Rand, id string, label, n1, m int) *dataset.Record {
	perm := rng.Perm(len(toyNouns))[:n1]
	nouns := make([]string, n1)
	for i, j := range perm {
		nouns[i] = toyNouns[j]
	}
	r := &dataset.Record{ID: id, Fragment: "S", Label: label, N1: n1, Nouns: nouns}
	for range m {
		r.Sentences = append(r.Sentences, toySentence(rng, nouns))
	}
	return r
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
