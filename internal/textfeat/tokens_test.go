package textfeat

import (
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"Some non-artist is not a beekeeper.", "some|non-|artist|is|not|a|beekeeper|."},
		{"Every  artist who admires him is a\tpoet. No poet", "every|artist|who|admires|him|is|a|poet|.|no|poet"},
		{"Nobody knows non-", "nobody|knows|non-"},
		{"NON-X nonsense non - y", "non-|x|nonsense|non|y"},
		{"", ""},
	}
	for _, tt := range tests {
		var got []string
		Tokens(tt.in, func(b []byte) { got = append(got, string(b)) })
		if s := strings.Join(got, "|"); s != tt.want {
			t.Errorf("textfeat.Tokens(%q) = %q, want %q", tt.in, s, tt.want)
		}
	}
}
