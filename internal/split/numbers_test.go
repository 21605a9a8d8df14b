package split

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/textfeat"
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
			p := packNumbers(slices.Clone(tc.ids))
			if p == nil {
				t.Fatal("packed nil: a pilot candidate's empty set would read as let go")
			}
			if len(p) != tc.size || cap(p) != tc.size {
				t.Errorf("packed in %d bytes (room %d), want %d", len(p), cap(p), tc.size)
			}
			if got := p.appendTo(nil); !slices.Equal(got, want) {
				t.Errorf("read back %v, want %v", got, want)
			}
		})
	}
}

// TestPackedColumns: over random tables and sets of patterns, a packed
// set reads back as its numbers in increasing order and gives the
// columns of a vocabulary as the numbers of the patterns in their
// order do (what the rows of the pilot's designs were made of before).
func TestPackedColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		tab := textfeat.NewPatternTable()
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
			p := packNumbers(slices.Clone(ids))
			if got, want := p.appendTo(nil), slices.Sorted(slices.Values(ids)); !slices.Equal(got, want) {
				t.Fatalf("trial %d, set %d: read back %v, want %v", trial, i, got, want)
			}
			want := column.Append(nil, ids)
			if got := p.appendColumns(nil, column); !slices.Equal(got, want) {
				t.Fatalf("trial %d, set %d: columns %v, want %v", trial, i, got, want)
			}
			if got := p.appendColumns([]int32{-7}, column); got[0] != -7 || !slices.Equal(got[1:], want) {
				t.Fatalf("trial %d, set %d: appended to a row, %v", trial, i, got)
			}
		}
	}
}

func TestSurfacePatternsPacked(t *testing.T) {
	tab := textfeat.NewPatternTable()
	one, two := []uint64{3, 9, 40, 1 << 60}, []uint64{9}
	tab.Numbers([]uint64{40, 1 << 60}, true) // numbered out of the patterns' order
	s := surface{pairs: [2][]uint64{one, two}}
	compact(&s, tab)
	if got := s.patterns(1); !slices.Equal(got, one) {
		t.Errorf("patterns of pairs sharing one word %v, want %v", got, one)
	}
	if got := s.patterns(2); !slices.Equal(got, two) {
		t.Errorf("patterns of pairs sharing two words %v, want %v", got, two)
	}
	s.ids[1] = nil
	defer func() {
		if recover() == nil {
			t.Error("patterns let go were read without a panic")
		}
	}()
	s.patterns(2)
}
