package proof

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// ErrNoProof is wrapped by Find's error when no proof was found within
// the budget. It is an answer, not a failure: the instance has no proof of
// that size by this package's rules and search, and gets none (never a
// partial one).
var ErrNoProof = errors.New("no proof within the budget")

// Budget bounds the search for a proof and the proof itself.
type Budget struct {
	// Steps is the most steps a proof may have, the given sentences and
	// the contradiction included.
	Steps int
	// Individuals is the most individuals a tableau may name.
	Individuals int
	// Clauses is the most clauses the monadic saturation may hold.
	Clauses int
}

// DefaultBudget is the budget nlsat solve and the measurements use.
var DefaultBudget = Budget{Steps: 60, Individuals: 12, Clauses: 20000}

// FindWithin is Find within DefaultBudget for a builder that records the
// proof: no proof within the budget (ErrNoProof) is a nil proof, not an
// error.
func FindWithin(ctx context.Context, b solver.Backend, lx *fragments.Lexicon, sentences []fragments.Sentence, mus []int) (*Proof, error) {
	p, err := Find(ctx, b, lx, sentences, mus, DefaultBudget)
	switch {
	case errors.Is(err, ErrNoProof):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return &p, nil
}

// Find returns a checked refutation of the sentences at mus, which must be
// unsatisfiable (a certified MUS: a proof then cites each of them). Sets
// of S and W sentences get a monadic proof by chaining (# Monadic proofs
// in the package documentation); any other set a tableau over named
// individuals (# Tableau proofs). The proof found is checked with Check
// before it is returned; a proof that fails its check is an error, never
// a result. Without a proof within budget the error wraps ErrNoProof.
func Find(ctx context.Context, b solver.Backend, lx *fragments.Lexicon, sentences []fragments.Sentence, mus []int, budget Budget) (Proof, error) {
	if len(mus) == 0 {
		return Proof{}, errors.New("no sentences to refute")
	}
	for _, i := range mus {
		if i < 0 || i >= len(sentences) {
			return Proof{}, fmt.Errorf("no sentence %d", i+1)
		}
	}
	mus = slices.Sorted(slices.Values(mus))
	var p Proof
	var err error
	if m, ok := monadicInput(sentences, mus); ok {
		var hit []int
		if hit, err = m.saturate(budget.Clauses); err == nil {
			p, err = m.proof(lx, sentences, mus, hit)
		}
	} else {
		p, err = findTableau(lx, sentences, mus, budget)
	}
	if err != nil {
		return Proof{}, err
	}
	if p.Len() > budget.Steps {
		return Proof{}, fmt.Errorf("%w: the proof found has %d steps, over %d", ErrNoProof, p.Len(), budget.Steps)
	}
	if err := Check(ctx, b, lx, sentences, p); err != nil {
		if ctx.Err() != nil {
			return Proof{}, ctx.Err()
		}
		return Proof{}, fmt.Errorf("the proof found fails its check: %w", err)
	}
	return p, nil
}
