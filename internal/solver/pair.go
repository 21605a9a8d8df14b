package solver

import "context"

// UnsatPair returns a jointly unsatisfiable pair of the sentences of p
// (indices, increasing), or nil when there is none, given mus, a certified
// minimal unsatisfiable subset of p. The MUS that MinimalCore finds is
// minimal, not minimum: an instance whose MUS has five sentences may still
// hold two that contradict each other, which a reasoner that compares
// sentences two at a time finds. Both answers are certified: a pair is a
// minimal unsatisfiable subset certified by MinimalCore (one sentence
// alone, when it is unsatisfiable by itself, which repeated words allow);
// nil means every subset of at most two sentences has a model that
// CheckModel accepted, or a subset of its shape did (NoCoreUpTo). An Unknown answer is an error.
func UnsatPair(ctx context.Context, b Backend, p *Problem, mus []int) ([]int, error) {
	if len(mus) <= 2 {
		return mus, nil
	}
	ok, core, err := NoCoreUpTo(ctx, b, p, 2)
	if err != nil || ok {
		return nil, err
	}
	return MinimalCore(ctx, b, p, core)
}
