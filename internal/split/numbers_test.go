package split

import (
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/textfeat"
)

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
