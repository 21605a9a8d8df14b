package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/generate"
	"github.com/spf13/cobra"
)

// intRange is an inclusive range of integers given as "16" or "12-20",
// and where stepped is set also as "6-16:2" (every second value, as
// --alpha's LO-HI:STEP).
type intRange struct {
	Lo, Hi  int
	Step    int // 1 unless given
	set     bool
	stepped bool
}

func (r *intRange) String() string {
	if !r.set {
		return ""
	}
	if r.Lo == r.Hi {
		return strconv.Itoa(r.Lo)
	}
	if r.Step > 1 {
		return fmt.Sprintf("%d-%d:%d", r.Lo, r.Hi, r.Step)
	}
	return fmt.Sprintf("%d-%d", r.Lo, r.Hi)
}

func (r *intRange) Set(s string) error {
	span, step, hasStep := strings.Cut(strings.TrimSpace(s), ":")
	r.Step = 1
	if hasStep {
		n, err := strconv.Atoi(strings.TrimSpace(step))
		switch {
		case !r.stepped:
			return fmt.Errorf("%q is not a number or a range such as 12-20 (this flag takes no step)", s)
		case err != nil || n < 1:
			return fmt.Errorf("%q: the step after ':' must be a whole number of at least 1, as in 6-16:2", s)
		}
		r.Step = n
	}
	lo, hi, found := strings.Cut(span, "-")
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
	if a == b {
		r.Step = 1 // one value: no step to take
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

// outputFlags are --format and --fields (base.Row: Parquet rows' type).
type outputFlags struct {
	format, fields *enumFlag
	base           dataset.Output
}

func (o *outputFlags) addFlags(cmd *cobra.Command) {
	o.format, o.fields = newEnum("", dataset.Formats()...), newEnum("full", "full", "minimal")
	cmd.Flags().Var(o.format, "format", "records format (default: the output name's extension, else jsonl); the same records in each")
	cmd.Flags().Var(o.fields, "fields", "full: every record field; minimal: text and label only")
}

func (o *outputFlags) spec() dataset.Output {
	o.base.Format, o.base.Minimal = dataset.Format(o.format.value), o.fields.value == "minimal"
	return o.base
}

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
	vocab               vocabFlag
}

// addFlags adds the flags; note says how the values relate to the
// command's other inputs (" (must match the region's)").
func (o *samplerFlags) addFlags(cmd *cobra.Command, note string) {
	f := cmd.Flags()
	f.Float64Var(&o.ownShare, "own-share", 0.5, "probability of drawing one of the fragment's own templates rather than an inherited one"+note)
	f.Float64Var(&o.negProb, "neg-prob", 0.5, "probability of each optional negation (non-, not, does not)"+note)
	f.BoolVar(&o.repeats, "allow-repeats", false, "allow the same noun or verb twice in one sentence"+note)
	f.BoolVar(&o.equivalent, "allow-equivalent", false, "allow two sentences of one instance that mean the same, such as \"Every p is a q\" and \"No non-q is a p\", as the paper's sampler does"+note)
	o.vocab.addFlag(cmd)
}

// sampler returns the parameters and the vocabulary (nil: the built-in
// one), checked.
func (o *samplerFlags) sampler() (fragments.SamplerParams, *fragments.Lexicon, error) {
	if o.ownShare < 0 || o.ownShare > 1 || o.negProb < 0 || o.negProb > 1 {
		return fragments.SamplerParams{}, nil, usagef("--own-share and --neg-prob must lie in [0, 1]")
	}
	lx, err := o.vocab.lexicon()
	return fragments.SamplerParams{OwnShare: o.ownShare, NegProb: o.negProb, Distinct: !o.repeats, Equivalent: o.equivalent}, lx, err
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

// vocabFlag is --vocab, a vocabulary file in the form nlsat vocab prints.
type vocabFlag struct{ path string }

func (v *vocabFlag) addFlag(cmd *cobra.Command) {
	cmd.Flags().StringVar(&v.path, "vocab", "", "vocabulary file: the nouns and verbs to use instead of the built-in ones (nlsat vocab prints the format)")
}

// lexicon loads and checks the file: nil without --vocab.
func (v *vocabFlag) lexicon() (*fragments.Lexicon, error) {
	if v.path == "" {
		return nil, nil
	}
	lx, err := fragments.LoadLexicon(v.path)
	if err != nil {
		return nil, usageError{err}
	}
	return lx, nil
}

// words is lexicon, with the built-in vocabulary for nil.
func (v *vocabFlag) words() (*fragments.Lexicon, error) {
	if lx, err := v.lexicon(); lx != nil || err != nil {
		return lx, err
	}
	return fragments.Default(), nil
}

// read reads records with a reader of package dataset and the vocabulary.
func (v *vocabFlag) read(ctx context.Context, in string, stdin io.Reader, read func(context.Context, string, io.Reader, *fragments.Lexicon) ([]dataset.Parsed, error)) ([]dataset.Parsed, error) {
	lx, err := v.lexicon()
	if err != nil {
		return nil, err
	}
	return read(ctx, in, stdin, lx)
}
