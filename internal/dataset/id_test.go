package dataset

import (
	"strings"
	"testing"
)

func TestFormatID(t *testing.T) {
	digest := "3f9c2a17e0" // any hex digest; only its first six digits show
	tests := []struct {
		prefix string
		n      int
		want   string
	}{
		{"A-test", 42, "A-test-3f9c2a-000042"},
		{"S", 0, "S-3f9c2a-000000"},
		{"V-zero-shot", 1234567, "V-zero-shot-3f9c2a-1234567"},
	}
	for _, tt := range tests {
		if got := FormatID(tt.prefix, digest, tt.n); got != tt.want {
			t.Errorf("FormatID(%q, %q, %d): got %q, want %q", tt.prefix, digest, tt.n, got, tt.want)
		}
	}
}

func TestIDDigest(t *testing.T) {
	tests := []struct {
		id, want string
		ok       bool
	}{
		{"A-test-3f9c2a-000042", "3f9c2a", true},
		{"S-000123-000001", "000123", true},
		{"A-test-3f9c2a-000042-edited", "3f9c2a", true}, // nlsat pairs' twin
		{"V-zero-shot-abcdef-1234567", "abcdef", true},
		{"A-test-000042", "", false}, // written before ids carried digests
		{"S-000042", "", false},
		{"A-test-000042-edited", "", false},
		{"A-test-3F9C2A-000042", "", false}, // FormatID writes lower case
		{"A-test-3f9c2-000042", "", false},
		{"A-test-3f9c2a-42", "", false},
		{"000001", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := IDDigest(tt.id)
		if got != tt.want || ok != tt.ok {
			t.Errorf("IDDigest(%q): got %q, %v, want %q, %v", tt.id, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzIDDigest: IDDigest never panics, reads back the digest of every id
// FormatID writes, and what it returns is a digest that occurs in the id.
func FuzzIDDigest(f *testing.F) {
	f.Add("A-test", "3f9c2a17", 42)
	f.Add("S", "000000", 0)
	f.Add("x-abcdef-123456", "", -1)
	f.Fuzz(func(t *testing.T, prefix, digest string, n int) {
		if d, ok := IDDigest(prefix); ok && !strings.Contains(prefix, "-"+d+"-") {
			t.Fatalf("IDDigest(%q) = %q, which is not a part of it", prefix, d)
		}
		if len(digest) < IDDigestLen || !isLowerHex(digest) || n < 0 || strings.Contains(prefix, "-") {
			return
		}
		id := FormatID(prefix, digest, n)
		if d, ok := IDDigest(id); !ok || d != digest[:IDDigestLen] {
			t.Fatalf("IDDigest(%q): got %q, %v, want %q", id, d, ok, digest[:IDDigestLen])
		}
	})
}
