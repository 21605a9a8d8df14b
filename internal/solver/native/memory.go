package native

import (
	"errors"
	"fmt"
	"math"
)

// ErrMemory is wrapped by the error Solve returns when a problem would need
// more memory than Options.MaxMemory on every path the decider has.
var ErrMemory = errors.New("memory budget exceeded")

// DefaultMaxMemory is the default of Options.MaxMemory: 2 GiB per Solve.
const DefaultMaxMemory = 2 << 30

// errMemory stops a search that has grown past the budget.
var errMemory = errors.New("memory budget exceeded")

// memoryError is the error for a problem whose search, at the stage what,
// would need need bytes, more than budget.
func memoryError(what string, need, budget int64) error {
	return fmt.Errorf("%w: %s needs %s or more, over the memory budget of %s (--max-memory)",
		ErrMemory, what, FormatBytes(need), FormatBytes(budget))
}

// FormatBytes writes n bytes with a binary unit: 512 B, 64 KiB, 1.5 GiB.
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	s := fmt.Sprintf("%.1f", v)
	if v == float64(int64(v)) {
		s = fmt.Sprintf("%d", int64(v))
	}
	return s + " " + []string{"KiB", "MiB", "GiB", "TiB", "PiB"}[exp]
}

// bytes estimates the memory the lazy search holds: the SAT solver's
// clauses and watches, the per-variable tables, the signatures and key
// information met, the nogoods and witness answers. Patterns wider than
// one word add their other words: a signature's key holds one pattern, a
// nogood two (its guard), a witness answer three.
func (l *lazy[P]) bytes() int64 {
	t := l.t
	more := int64(patBits[P]()/8 - 8)
	n := int64(l.s.Bytes()) + 64*int64(len(l.vsup)) + (256+more)*int64(len(t.sigs)) +
		(96+2*more)*int64(len(l.goods)) + (96+3*more)*int64(len(l.wits))
	if l.regs != nil {
		n += l.regs.bytes()
	}
	return n
}

// overBudget reports whether the lazy search holds more than the budget.
func (l *lazy[P]) overBudget() bool { return l.budget > 0 && l.bytes() > l.budget }

// modelBytes estimates the memory of a model of n elements over nverbs
// verbs, as built and as converted to a structure.
func modelBytes(n, nverbs int) int64 {
	return 2*int64(n)*int64(n)*int64(max(nverbs, 1)) + 64*int64(n)
}

// explicitBytes estimates the memory of the explicit search over nn nouns:
// a few bytes per pattern in tables, and bitsets of 2^nn bits for every
// guard, class and requirement.
func explicitBytes[P pat](n *normal[P]) int64 {
	if len(n.nouns) > 64 {
		return math.MaxInt64 // past any budget: 2^nouns does not fit an int64
	}
	np := int64(1) << min(len(n.nouns), 62)
	sets := int64(8 + 2*len(n.cs) + 4*len(n.qs))
	return np*16 + sets*np/8
}
