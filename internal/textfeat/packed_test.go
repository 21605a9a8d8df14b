package textfeat

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/learn"
)

func TestPackNumbers(t *testing.T) {
	for _, tc := range []struct {
		name string
		ids  []uint32
		size int // bytes packed
	}{
		{"none", nil, 0},
		{"zero", []uint32{0}, 1},
		{"unsorted", []uint32{5, 1, 3}, 3},
		{"wide gaps", []uint32{127, 128, 128 + 16384, 1<<32 - 1}, 1 + 1 + 3 + 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := slices.Sorted(slices.Values(tc.ids))
			p := PackNumbers(slices.Clone(tc.ids))
			if p == nil {
				t.Fatal("packed nil: a pilot candidate's empty set would read as let go")
			}
			if len(p) != tc.size || cap(p) != tc.size {
				t.Errorf("packed in %d bytes (room %d), want %d", len(p), cap(p), tc.size)
			}
			if got := p.AppendTo(nil); !slices.Equal(got, want) {
				t.Errorf("read back %v, want %v", got, want)
			}
		})
	}
}

// TestPackedColumns: over random tables and sets of patterns, a packed
// set reads back as its numbers in increasing order and gives the
// columns of a vocabulary as the numbers of the patterns in their
// order do (what the rows of the pilot's designs were made of before they were packed).
func TestPackedColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		tab := NewPatternTable()
		universe := make([]uint64, 1+rng.IntN(3000))
		for i := range universe {
			universe[i] = rng.Uint64()
		}
		var sets [][]uint32
		for range 1 + rng.IntN(30) {
			var ps []uint64
			for _, p := range universe {
				if rng.IntN(8) == 0 {
					ps = append(ps, p)
				}
			}
			slices.Sort(ps)
			ps = slices.Compact(ps)
			sets = append(sets, tab.Numbers(ps, true)) // in the patterns' order
		}
		_, column := tab.Vocabulary(len(sets), func(i int) []uint32 { return sets[i] }, 1+rng.IntN(3))
		for i, ids := range sets {
			p := PackNumbers(slices.Clone(ids))
			if got, want := p.AppendTo(nil), slices.Sorted(slices.Values(ids)); !slices.Equal(got, want) {
				t.Fatalf("trial %d, set %d: read back %v, want %v", trial, i, got, want)
			}
			want := column.Append(nil, ids)
			if got := p.AppendColumns(nil, column); !slices.Equal(got, want) {
				t.Fatalf("trial %d, set %d: columns %v, want %v", trial, i, got, want)
			}
			if got := p.AppendColumns([]int32{-7}, column); got[0] != -7 || !slices.Equal(got[1:], want) {
				t.Fatalf("trial %d, set %d: appended to a row, %v", trial, i, got)
			}
		}
	}
}

// TestDesignRowsIncrease: a design's rows hold their columns in
// increasing order, the order of the patterns, whatever the order of the
// numbers given (packed sets give them in increasing order of number).
func TestDesignRowsIncrease(t *testing.T) {
	tab := NewPatternTable()
	tab.Numbers([]uint64{50, 40, 30, 20, 10}, true) // numbered against the patterns' order
	_, column := tab.Vocabulary(1, func(int) []uint32 { return []uint32{0, 1, 2, 3, 4} }, 1)
	rows := [][]uint32{{0, 2, 4}, {4, 3}, {}}
	d := column.Design(5, len(rows), func(i int) []uint32 { return rows[i] })
	w := &learn.Sparse{W: []float64{1, 0, 1e16, 0, -1e16}} // sums that the order changes
	for i, ids := range rows {
		want := column.Append(nil, ids)
		slices.Sort(want)
		if got := w.Score(d, i); got != w.ScoreRow(want, nil) {
			t.Errorf("row %d scores %v, want the sum in the patterns' order %v", i, got, w.ScoreRow(want, nil))
		}
	}
}
