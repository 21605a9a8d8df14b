package z3

import "time"

// DefaultTimeout is the wall-clock limit of one Solve when neither the
// Problem nor the Options set one.
const DefaultTimeout = 10 * time.Second

// DefaultRLimit is the resource limit of one Solve when Options.RLimit is
// zero. Z3's resource counter is deterministic: the same instance with the
// same options stops at the same point on any machine. On the development
// machine (2 shared cores) Z3 4.8.12 counted about 2 to 3 million units
// per second on a quantified problem that never finishes, so this default
// stops such a problem after roughly 3 to 5 seconds, before
// DefaultTimeout, and the wall-clock limit stays a backstop for a loaded
// machine. Small fragment-shaped problems take a few hundred to a few
// thousand units; 300 random ones of 2 to 7 sentences took 2.1 million
// together.
const DefaultRLimit = 10_000_000

// Options configures a Backend.
type Options struct {
	// Timeout bounds the wall-clock time of one Solve when the Problem
	// does not set its own; zero means DefaultTimeout.
	Timeout time.Duration
	// RLimit bounds the resource units (Z3's deterministic work counter)
	// that one Solve may spend over all its attempts; zero means
	// DefaultRLimit, and values above 2^32-1 count as 2^32-1.
	RLimit uint64
	// Seed is Z3's random seed (its random_seed parameter).
	Seed uint32
	// Plain makes one quantified check with the whole budget, as the
	// paper's oracle did: no finite-model search by grounding and no
	// further seeds. Z3 then leaves many satisfiable V, Z and A instances
	// undecided; crosscheck uses it to compare with Z3 as it is.
	Plain bool
}

// withDefaults returns o with zero fields replaced by their defaults.
func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.RLimit == 0 {
		o.RLimit = DefaultRLimit
	}
	return o
}
