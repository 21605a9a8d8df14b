package dataset

import (
	"fmt"
	"strings"
)

// IDDigestLen is the number of hex digits of a configuration digest that
// an id carries: 24 bits, so two configurations share them with odds of
// one in 16 million, and an id still reads at a glance.
const IDDigestLen = 6

// FormatID returns the id of record n (0-based) of a dataset built from a
// configuration whose digest (hex, at least IDDigestLen digits) is given:
// the prefix, the digest's first IDDigestLen digits and n in six or more
// digits, joined by "-", as in "A-test-3f9c2a-000042". The same prefix and
// n under another seed or other flags give another id, so predictions made
// for one dataset cannot be scored against another by mistake.
func FormatID(prefix, digest string, n int) string {
	if len(digest) > IDDigestLen {
		digest = digest[:IDDigestLen]
	}
	return fmt.Sprintf("%s-%s-%06d", prefix, digest, n)
}

// IDDigest returns the configuration digest that an id written by
// FormatID carries, and false for an id without one (such as ids written
// before nlsat put digests into them, "A-test-000042"). Suffixes after the
// number, such as nlsat pairs' "-edited", are allowed.
func IDDigest(id string) (string, bool) {
	parts := strings.Split(id, "-")
	for i := 1; i+1 < len(parts); i++ {
		if isLowerHex(parts[i]) && len(parts[i]) == IDDigestLen && isDigits(parts[i+1]) && len(parts[i+1]) >= 6 {
			return parts[i], true
		}
	}
	return "", false
}

func isLowerHex(s string) bool {
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}

func isDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
