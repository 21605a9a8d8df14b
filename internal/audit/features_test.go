package audit

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/nlsat/nlsat/internal/textfeat"
)

// packed returns the features of l packed alone, as merge packs a batch.
func packed(l loose) *features { return &pack([]loose{l}, len(l.x), newSkeletonTable())[0] }

// TestPackRoundTrip: each record of a packed batch reads back the values
// it was given, whatever their sizes (empty ones too), and letting one
// record's grams or patterns go leaves its neighbours' as they were.
func TestPackRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		name       string
		records    int
		nx, maxLen int
	}{
		{"one record", 1, 3, 8},
		{"a batch", batchSize, 5, 40},
		{"empty values", 20, 0, 1},
		{"long rows", 7, 2, 2000},
	} {
		rng := rand.New(rand.NewPCG(uint64(tt.records), uint64(tt.maxLen)))
		ls := make([]loose, tt.records)
		for i := range ls {
			l := &ls[i]
			l.x = make([]float64, tt.nx)
			for j := range l.x {
				l.x[j] = rng.NormFloat64()
			}
			for j := range l.st {
				l.st[j] = float64(rng.IntN(100))
			}
			for range rng.IntN(tt.maxLen + 1) {
				l.skel = append(l.skel, rng.Uint64N(50)) // skeletons repeat
			}
			for range rng.IntN(tt.maxLen + 1) {
				l.grams, l.counts = append(l.grams, rng.Uint32()), append(l.counts, uint8(rng.IntN(256)))
			}
			var p0, p1 []uint32
			for range rng.IntN(tt.maxLen + 1) {
				p0 = append(p0, rng.Uint32N(1000))
				if rng.IntN(2) == 0 {
					p1 = append(p1, p0[len(p0)-1])
				}
			}
			if i%3 == 0 {
				p1 = append(p1, 5000) // not in the first set: kept as it is
			}
			l.setPatterns(p0, p1)
		}
		want := slices.Clone(ls)
		fs := pack(ls, tt.nx, newSkeletonTable())
		check := func(when string, skipGrams, skipPats int) {
			for i := range fs {
				f, l := &fs[i], &want[i]
				if !slices.Equal(f.xs(), l.x) || !slices.Equal(f.st(), l.st[:]) || !slices.Equal(f.skeletons([]uint64{9}), l.skel) {
					t.Fatalf("%s, %s: record %d reads x, st or skeletons back wrong", tt.name, when, i)
				}
				if i != skipGrams && (!slices.Equal(f.gramKeys(), l.grams) || !slices.Equal(f.gramCounts(), l.counts)) {
					t.Fatalf("%s, %s: record %d reads its grams back wrong", tt.name, when, i)
				}
				if i == skipPats {
					continue
				}
				set1 := l.pats[1]
				if l.two != nil {
					set1 = nil
					for q, id := range l.pats[0] {
						if l.two[q>>3]&(1<<(q&7)) != 0 {
							set1 = append(set1, id)
						}
					}
				}
				if f.masked() != (l.two != nil) || !slices.Equal(f.patternsOf(0, nil), l.pats[0]) || !slices.Equal(f.patternsOf(1, []uint32{7, 7}), set1) {
					t.Fatalf("%s, %s: record %d reads its patterns back wrong", tt.name, when, i)
				}
			}
		}
		check("packed", -1, -1)
		k := len(fs) / 2
		fs[k].dropGrams()
		fs[k].dropPatterns(1)
		fs[k].dropPatterns(0)
		if len(fs[k].gramKeys())+len(fs[k].gramCounts())+len(fs[k].patternsOf(0, nil))+len(fs[k].patternsOf(1, nil)) != 0 || fs[k].masked() {
			t.Fatalf("%s: record %d keeps values it let go", tt.name, k)
		}
		check("after one record let go", k, k)
		for i := range fs {
			fs[i].dropGrams()
		}
		fs[0].b.grams, fs[0].b.counts = nil, nil // as fit lets them go
		for i := range fs {
			if fs[i].gramKeys() != nil || fs[i].gramCounts() != nil {
				t.Fatalf("%s: record %d reads grams after its block let them go", tt.name, i)
			}
		}
		if got := len(fs[0].st()); got != textfeat.NumStats {
			t.Fatalf("%s: %d statistics, want %d", tt.name, got, textfeat.NumStats)
		}
	}
}

// TestNarrowRecords: a train file holds hundreds of thousands of items,
// each with its features; widening either struct costs that many times
// the bytes.
func TestNarrowRecords(t *testing.T) {
	if got := unsafe.Sizeof(item{}); got > 48 {
		t.Errorf("an item takes %d bytes, want at most 48", got)
	}
	if got := unsafe.Sizeof(features{}); got > 56 {
		t.Errorf("a record's features take %d bytes, want at most 56", got)
	}
}

// TestReleasePatterns: a block's patterns go only once its records have
// let theirs go, and a record reads none after.
func TestReleasePatterns(t *testing.T) {
	ls := make([]loose, 3)
	for i := range ls {
		ls[i].setPatterns([]uint32{1, 2, uint32(3 + i)}, []uint32{2})
	}
	fs := pack(ls, 0, newSkeletonTable())
	mustPanic := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", what)
			}
		}()
		f()
	}
	fs[0].dropPatterns(0)
	mustPanic("the second set still held", fs[0].releasePatterns)
	fs[0].dropPatterns(1)
	fs[0].releasePatterns()
	if fs[1].b.pats != nil || fs[1].b.two != nil {
		t.Fatal("the block still holds its patterns")
	}
	for _, set := range []int{0, 1} {
		if got := fs[0].patternsOf(set, nil); len(got) != 0 {
			t.Errorf("set %d after the release: %v", set, got)
		}
	}
	var none *features
	none.releasePatterns() // a record without features
}
