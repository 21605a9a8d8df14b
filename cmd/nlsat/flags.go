package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/spf13/cobra"
)

// intRange is an inclusive range of integers given as "16" or "12-20".
type intRange struct {
	Lo, Hi int
	set    bool
}

func (r *intRange) String() string {
	if !r.set {
		return ""
	}
	if r.Lo == r.Hi {
		return strconv.Itoa(r.Lo)
	}
	return fmt.Sprintf("%d-%d", r.Lo, r.Hi)
}

func (r *intRange) Set(s string) error {
	lo, hi, found := strings.Cut(strings.TrimSpace(s), "-")
	a, err := strconv.Atoi(strings.TrimSpace(lo))
	if err != nil {
		return fmt.Errorf("%q is not a number or a range such as 12-20", s)
	}
	b := a
	if found {
		if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
			return fmt.Errorf("%q is not a number or a range such as 12-20", s)
		}
	}
	if a < 0 || b < a {
		return fmt.Errorf("%q is not a range of non-negative numbers with low <= high", s)
	}
	r.Lo, r.Hi, r.set = a, b, true
	return nil
}

func (r *intRange) Type() string { return "range" }

// enumFlag is a string flag restricted to a list of values; the error for
// any other value lists them.
type enumFlag struct {
	value   string
	allowed []string
}

func newEnum(def string, allowed ...string) *enumFlag {
	return &enumFlag{value: def, allowed: allowed}
}

func (e *enumFlag) String() string { return e.value }

func (e *enumFlag) Set(s string) error {
	for _, a := range e.allowed {
		if strings.EqualFold(s, a) {
			e.value = a
			return nil
		}
	}
	return fmt.Errorf("%q is not one of %s", s, strings.Join(e.allowed, ", "))
}

func (e *enumFlag) Type() string { return strings.Join(e.allowed, "|") }

// Allowed lists the values, for completion (cli.Enum).
func (e *enumFlag) Allowed() []string { return e.allowed }

// ptr returns the range, or nil when the flag was not given.
func (r *intRange) ptr() *generate.Range {
	if !r.set {
		return nil
	}
	return &generate.Range{Lo: r.Lo, Hi: r.Hi}
}

// samplerFlags are the sampler's flags, which generate, split and
// phase-sweep share.
type samplerFlags struct {
	ownShare, negProb   float64
	repeats, equivalent bool
}

// addFlags adds the flags; note says how the values relate to the
// command's other inputs (" (must match the region's)").
func (o *samplerFlags) addFlags(cmd *cobra.Command, note string) {
	f := cmd.Flags()
	f.Float64Var(&o.ownShare, "own-share", 0.5, "probability of drawing one of the fragment's own templates rather than an inherited one"+note)
	f.Float64Var(&o.negProb, "neg-prob", 0.5, "probability of each optional negation (non-, not, does not)"+note)
	f.BoolVar(&o.repeats, "allow-repeats", false, "allow the same noun or verb twice in one sentence"+note)
	f.BoolVar(&o.equivalent, "allow-equivalent", false, "allow two sentences of one instance that mean the same, such as \"Every p is a q\" and \"No non-q is a p\", as the paper's sampler does"+note)
}

// sampler returns the parameters, checked.
func (o *samplerFlags) sampler() (fragments.SamplerParams, error) {
	if o.ownShare < 0 || o.ownShare > 1 || o.negProb < 0 || o.negProb > 1 {
		return fragments.SamplerParams{}, usagef("--own-share and --neg-prob must lie in [0, 1]")
	}
	return fragments.SamplerParams{OwnShare: o.ownShare, NegProb: o.negProb, Distinct: !o.repeats, Equivalent: o.equivalent}, nil
}

// newFragmentEnum is the --fragment flag with its default, and "all" too
// when all is set.
func newFragmentEnum(def string, all bool) *enumFlag {
	names := fragments.Names()
	if all {
		names = append(names, "all")
	}
	return newEnum(def, names...)
}

// fragment returns the fragment the flag names (not "all").
func (e *enumFlag) fragment() fragments.Fragment {
	f, _ := fragments.ParseFragment(e.value)
	return f
}
