package fol

import (
	"fmt"
	"maps"
	"slices"
)

// check reports the first table of s whose shape does not match its
// domain size, so that Eval rejects a malformed structure whatever parts
// of it a formula happens to look at.
func (s *Structure) check() error {
	if s == nil {
		return fmt.Errorf("nil structure")
	}
	if s.Size < 1 {
		return fmt.Errorf("empty domain")
	}
	if s.wellShaped() {
		return nil
	}
	// Name the first bad table in sorted order, so the error is stable.
	for _, p := range slices.Sorted(maps.Keys(s.Unary)) {
		if len(s.Unary[p]) != s.Size {
			return fmt.Errorf("predicate %s has %d entries, domain has %d", p, len(s.Unary[p]), s.Size)
		}
	}
	for _, r := range slices.Sorted(maps.Keys(s.Binary)) {
		m := s.Binary[r]
		ok := len(m) == s.Size
		for i := 0; ok && i < len(m); i++ {
			ok = len(m[i]) == s.Size
		}
		if !ok {
			return fmt.Errorf("relation %s does not match the domain size %d", r, s.Size)
		}
	}
	return nil
}

// wellShaped is check's fast path: no sorting, no allocation.
func (s *Structure) wellShaped() bool {
	for _, ext := range s.Unary {
		if len(ext) != s.Size {
			return false
		}
	}
	for _, m := range s.Binary {
		if len(m) != s.Size {
			return false
		}
		for _, row := range m {
			if len(row) != s.Size {
				return false
			}
		}
	}
	return true
}
