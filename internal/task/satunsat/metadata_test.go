package satunsat

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/dataset"
)

// TestMetadata audits three toy datasets that differ only in what stands
// beside the text: seeds and order that carry nothing; records written
// sat first (an unbalanced head); and seed indices that put every sat
// record of a stratum before its unsat ones, as accepting in index order
// until one label's quota fills does.
func TestMetadata(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(rng *rand.Rand, recs []*dataset.Record)
		leaks []string // in every split
	}{
		{"shuffled", func(rng *rand.Rand, recs []*dataset.Record) {
			rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
			renumber(recs, func(i int) int { return rng.IntN(1 << 30) })
		}, nil},
		{"sat first", func(rng *rand.Rand, recs []*dataset.Record) {
			slices.SortStableFunc(recs, func(a, b *dataset.Record) int { return b.Label - a.Label })
			renumber(recs, func(i int) int { return rng.IntN(1 << 30) })
		}, []string{"metadata:file-position", "metadata:id-number", "first-100", "first-1000"}},
		{"sat indices first", func(rng *rand.Rand, recs []*dataset.Record) {
			rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
			renumber(recs, func(i int) int {
				if recs[i].Label == 1 {
					return rng.IntN(1 << 20)
				}
				return 1<<20 + rng.IntN(1<<20)
			})
		}, []string{"metadata:seed-index"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			splits := toySplits(5, [3]int{1500, 600, 600}, nil)
			rng := rand.New(rand.NewPCG(9, 9))
			for s := range splits {
				tt.edit(rng, splits[s])
			}
			rep, err := audit.Run(context.Background(), Audit, writeDataset(t, t.TempDir(), splits), audit.Options{MinStratum: 50})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Metadata) != 3 {
				t.Fatalf("%d splits in the metadata section", len(rep.Metadata))
			}
			for _, ms := range rep.Metadata {
				got := strings.Join(ms.Verdict.Leaks, ",")
				if want := strings.Join(tt.leaks, ","); got != want {
					t.Errorf("%s: leaks %q (%s), want %q", ms.Split, got, ms.Verdict.Text, strings.Join(tt.leaks, ","))
				}
			}
		})
	}
}

// renumber gives record i the seed index index(i) and an id in file order.
func renumber(recs []*dataset.Record, index func(i int) int) {
	for i, r := range recs {
		r.Seed = dataset.SeedString(1, index(i))
		r.ID = fmt.Sprintf("S-x-%06d", i)
	}
}
