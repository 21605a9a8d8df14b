package fol

import (
	"fmt"
	"maps"
	"slices"
)

// sortedNames returns the predicate names of sig in increasing order.
func sortedNames(sig Signature) []string {
	return slices.Sorted(maps.Keys(sig))
}

// checkProblem validates a list of sentences for a problem printer: every
// formula well formed and closed, and the predicates used with one arity
// each. It returns the signature.
func checkProblem(fs []Formula) (Signature, error) {
	for i, f := range fs {
		if err := Validate(f); err != nil {
			return nil, fmt.Errorf("sentence %d: %w", i+1, err)
		}
		if free := FreeVars(f); len(free) > 0 {
			return nil, fmt.Errorf("sentence %d: free variable %s", i+1, free[0])
		}
	}
	sig, err := SignatureOf(fs...)
	if err != nil {
		return nil, fmt.Errorf("inconsistent signature: %w", err)
	}
	return sig, nil
}

// problemNames returns the names of m sentences: names itself when given
// (it must have m distinct entries), otherwise s1, …, sm.
func problemNames(names []string, m int) ([]string, error) {
	if names == nil {
		names = make([]string, m)
		for i := range names {
			names[i] = fmt.Sprintf("s%d", i+1)
		}
		return names, nil
	}
	if len(names) != m {
		return nil, fmt.Errorf("%d names for %d sentences", len(names), m)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return nil, fmt.Errorf("duplicate sentence name %q", n)
		}
		seen[n] = true
	}
	return names, nil
}
