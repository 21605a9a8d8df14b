package textfeat

import (
	"slices"
	"testing"
)

// TestPairPatterns checks the delexicalised patterns: shared words
// indexed in order, others masked, the smaller of the two orders kept,
// "an" written "a", and pairs sharing no content word left out.
func TestPairPatterns(t *testing.T) {
	tests := []struct {
		sentences []string
		one, two  []string
	}{
		{[]string{"Every artist is a baker.", "No baker is an artist."},
			[]string{"every X0 is a X1| no X1 is a X0"}, []string{"every X0 is a X1| no X1 is a X0"}},
		{[]string{"Some chemist is not a dentist.", "Every non-dentist is a farmer."},
			[]string{"every non- X0 is a _| some _ is not a X0"}, nil},
		{[]string{"Some chemist is a dentist.", "Every farmer is a gardener."}, nil, nil},
	}
	for _, tt := range tests {
		names := map[uint64]string{}
		one, two := PairPatterns(tt.sentences, names)
		text := func(hs []uint64) []string {
			var out []string
			for _, h := range hs {
				out = append(out, names[h])
			}
			return out
		}
		if got := text(one); !slices.Equal(got, tt.one) {
			t.Errorf("%q: sharing one word %q, want %q", tt.sentences, got, tt.one)
		}
		if got := text(two); !slices.Equal(got, tt.two) {
			t.Errorf("%q: sharing two words %q, want %q", tt.sentences, got, tt.two)
		}
	}
}
