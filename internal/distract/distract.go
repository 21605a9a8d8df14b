package distract

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// Mode says which sentences Add may add (see the package documentation,
// # Modes). The zero value is not a mode.
type Mode int8

// The modes.
const (
	// Fresh adds sentences over words the instance does not use.
	Fresh Mode = iota + 1
	// Implied adds sentences over the instance's words that a
	// satisfiable subset of its sentences entails.
	Implied
)

var modeNames = [...]string{Fresh: "fresh", Implied: "implied"}

// String returns the mode's name as ParseMode reads it.
func (m Mode) String() string {
	if m != Fresh && m != Implied {
		return fmt.Sprintf("Mode(%d)", int8(m))
	}
	return modeNames[m]
}

// ParseMode reads a mode name, "fresh" or "implied".
func ParseMode(s string) (Mode, error) {
	for _, m := range []Mode{Fresh, Implied} {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown distractor mode %q: allowed values are fresh, implied", s)
}

// Stream separates the random numbers that choose an instance's
// distractors from those that drew the instance: callers seed the
// distractors of instance i with rand.NewPCG(seed^Stream, i), so that
// the instance itself is the one drawn without them.
const Stream = 0x6469737472616374 // "distract"

// ErrNoDistractor is wrapped by Add's error when it cannot find k
// admissible sentences within its draw budget; the caller counts the
// instance and moves on.
var ErrNoDistractor = errors.New("no distractor found")

// Result is an instance with its distractors.
type Result struct {
	// Instance is the input instance with the distractors interleaved;
	// its Nouns and Verbs gain the fresh words the distractors use.
	Instance fragments.Instance
	// Added holds the positions of the distractors in
	// Instance.Sentences, increasing.
	Added []int
	// Premises, in Implied mode, holds the positions of the original
	// sentences that form the satisfiable subset entailing every
	// distractor (all of them for a sat instance); nil in Fresh mode.
	Premises []int
	// Status is the label, the same before and after (certified twice).
	Status solver.Status
}

// Add returns inst with k distractors of mode added at random positions,
// drawn with rng under the sampler's params p (template mix, negation
// probability, distinct words; p.Lexicon must be the instance's
// vocabulary, nil meaning the built-in one). Every decision is made by b,
// which is reset before each problem. The instance is decided before and
// after; an Unknown answer is an error wrapping solver.ErrUndecided, and a
// changed label is an error (a bug: see the package documentation,
// # Soundness).
func Add(ctx context.Context, rng *rand.Rand, b solver.Backend, inst fragments.Instance, k int, mode Mode, p fragments.Params) (Result, error) {
	lx := p.Lexicon.OrDefault()
	p.Lexicon = lx
	if err := checkInput(inst, k, mode, lx); err != nil {
		return Result{}, err
	}
	before, err := decide(ctx, b, inst.Formulas())
	if err != nil {
		return Result{}, fmt.Errorf("deciding the instance: %w", err)
	}
	var ds []fragments.Sentence
	var premises []int
	switch mode {
	case Fresh:
		ds, err = fresh(ctx, rng, b, inst, k, p)
	case Implied:
		ds, premises, err = implied(ctx, rng, b, inst, k, p, before)
	}
	if err != nil {
		return Result{}, err
	}
	out, added, moved := interleave(rng, inst, ds)
	out.Nouns, out.Verbs = extendWords(inst, ds)
	for i, j := range premises {
		premises[i] = moved[j]
	}
	after, err := decide(ctx, b, out.Formulas())
	if err != nil {
		return Result{}, fmt.Errorf("re-deciding with %d distractors: %w", k, err)
	}
	if after.Status != before.Status {
		return Result{}, fmt.Errorf("%s distractors changed the label from %v to %v: %q",
			mode, before.Status, after.Status, out.English())
	}
	return Result{Instance: out, Added: added, Premises: premises, Status: after.Status}, nil
}

// checkInput rejects arguments Add cannot work with.
func checkInput(inst fragments.Instance, k int, mode Mode, lx *fragments.Lexicon) error {
	switch {
	case k < 0:
		return fmt.Errorf("number of distractors must not be negative, got %d", k)
	case mode != Fresh && mode != Implied:
		return fmt.Errorf("unknown distractor mode %v: allowed values are fresh, implied", mode)
	case !inst.Fragment.Valid():
		return fmt.Errorf("unknown fragment %v: allowed values are S, W, V, Z, A", inst.Fragment)
	}
	for i, s := range inst.Sentences {
		if err := s.Check(); err != nil {
			return fmt.Errorf("sentence %d: %w", i+1, err)
		}
		if s.Fragment() > inst.Fragment {
			return fmt.Errorf("sentence %d (%s) is not in fragment %s", i+1, s.ID(), inst.Fragment)
		}
	}
	nouns, verbs := instanceWords(inst)
	for _, w := range nouns {
		if _, ok := lx.Noun(w); !ok {
			return fmt.Errorf("noun %q of the instance is not in the lexicon", w)
		}
	}
	for _, w := range verbs {
		if _, ok := lx.Verb(w); !ok {
			return fmt.Errorf("verb %q of the instance is not in the lexicon", w)
		}
	}
	return nil
}

// decide is solver.Decide without a MUS, for which an Unknown answer is
// an error wrapping solver.ErrUndecided.
func decide(ctx context.Context, b solver.Backend, fs []fol.Formula) (solver.Verdict, error) {
	v, err := solver.Decide(ctx, b, fs, solver.DecideOptions{})
	if err == nil && v.Status == solver.Unknown {
		err = fmt.Errorf("%s answered unknown (%v): %w", b.Name(), v.Reason, solver.ErrUndecided)
	}
	return v, err
}

// interleave places ds at k positions of the m+k drawn uniformly with rng
// (the first k steps of a Fisher–Yates shuffle, then sorted), in their
// order, and keeps the order of the original sentences. It returns the
// new instance, the distractors' positions and, for each original
// sentence, its new position.
func interleave(rng *rand.Rand, inst fragments.Instance, ds []fragments.Sentence) (fragments.Instance, []int, []int) {
	n := len(inst.Sentences) + len(ds)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	for i := range ds {
		j := i + rng.IntN(n-i)
		all[i], all[j] = all[j], all[i]
	}
	added := slices.Clone(all[:len(ds)])
	slices.Sort(added)
	out := inst
	out.Sentences = make([]fragments.Sentence, 0, n)
	moved := make([]int, 0, len(inst.Sentences))
	for pos, a, o := 0, 0, 0; pos < n; pos++ {
		if a < len(added) && added[a] == pos {
			out.Sentences = append(out.Sentences, ds[a])
			a++
			continue
		}
		out.Sentences = append(out.Sentences, inst.Sentences[o])
		moved = append(moved, pos)
		o++
	}
	return out, added, moved
}
