package distract

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// Record adds k distractors of mode to the labelled record p, record i
// of its file, with the distractors' randomness drawn from (seed^Stream,
// i), and returns the new record: the input's id, seed and fragment, its
// sentences with the distractors, a new certificate, and the distractors'
// positions. The label must stay the input's and the solver's: any
// difference is an error. When k distractors cannot be found, or the
// solver cannot decide on the way, the record is nil and the reason says
// why.
func Record(ctx context.Context, b solver.Backend, p dataset.Parsed, k int, mode Mode, seed uint64, i int) (*dataset.Record, string, error) {
	in := p.Rec
	inst := fragments.Instance{Fragment: p.Frag, Nouns: in.Nouns, Verbs: in.Verbs, Sentences: p.Sents}
	rng := rand.New(rand.NewPCG(seed^Stream, uint64(i)))
	res, err := Add(ctx, rng, b, inst, k, mode, fragments.DefaultSampler().WithLexicon(p.Lexicon))
	switch {
	case errors.Is(err, ErrNoDistractor) || errors.Is(err, solver.ErrUndecided):
		return nil, err.Error(), nil
	case err != nil:
		return nil, "", err
	}
	if got := dataset.LabelOf(res.Status); got != p.Old {
		return nil, "", fmt.Errorf("labelled %s, but %s decides %s", dataset.LabelText(p.Old), b.Name(), dataset.LabelText(got))
	}
	v, err := solver.Decide(ctx, b, res.Instance.Formulas(), solver.DecideOptions{MUS: true})
	if err != nil {
		return nil, "", err
	}
	if got := dataset.LabelOf(v.Status); got != p.Old {
		return nil, "", fmt.Errorf("with distractors %s decides %s, not %s", b.Name(), dataset.LabelText(got), dataset.LabelText(p.Old))
	}
	r := dataset.NewRecord(res.Instance, v, b.Name())
	r.ID, r.Seed, r.Fragment = in.ID, in.Seed, in.Fragment
	r.Distractors, r.DistractorMode = res.Added, mode.String()
	return r, "", nil
}
