package eval

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// chainSentences and chainGood are a small unsat record and its chain.
var chainSentences = []string{"Every scholar is a poet.", "Every poet loves some musician.", "Some scholar does not love any musician."}

const chainGood = `1. Every scholar is a poet.   sentence 1
2. Every poet loves some musician.   sentence 2
3. Some scholar does not love any musician.   sentence 3
4. #1 is a scholar and #1 does not love any musician.   naming someone new, by 3
5. #1 is a poet.   by 1, 4
6. #1 loves some musician.   by 2, 5
7. These two cannot both be true: a contradiction.   by 4, 6
`

// chainRecords returns n gold records and predictions alternating a valid
// chain and one whose fifth step names an individual and says more.
func chainRecords(n int) ([]Gold, []Prediction) {
	var gold []Gold
	var preds []Prediction
	for i := range n {
		id := fmt.Sprintf("r%02d", i)
		gold = append(gold, Gold{ID: id, Label: dataset.LabelUnsat, Sentences: chainSentences})
		answer := chainGood
		if i%2 == 1 {
			answer = `1. Every scholar is a poet.   sentence 1
2. Every poet loves some musician.   sentence 2
3. Some scholar does not love any musician.   sentence 3
4. #1 is a scholar and #1 does not love any musician.   naming someone new, by 3
5. #2 is a musician and #2 is not a poet.   the world is not empty
6. #1 is a poet.   by 1, 4
7. #1 loves some musician.   by 2, 6
8. These two cannot both be true: a contradiction.   by 4, 7
`
		}
		preds = append(preds, Prediction{ID: id, Answer: answer})
	}
	return gold, preds
}

// TestScoreChainsWorkers checks that the chains' report and results do not
// depend on the number of workers, and that the broken chains fail at
// their fifth step.
func TestScoreChainsWorkers(t *testing.T) {
	gold, preds := chainRecords(8)
	var first *ChainReport
	for _, w := range []int{1, 2, 3} {
		c := Config{Workers: w}
		rep, res, err := scoreChains(context.Background(), withDefaults(c), gold, preds)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = rep
		} else if !reflect.DeepEqual(rep, first) {
			t.Errorf("-j %d: report %+v, want %+v", w, rep, first)
		}
		for i, g := range gold {
			r := res[g.ID]
			if want := 5 * (i % 2); r.FirstUnsupported != want || r.Valid != (i%2 == 0) {
				t.Errorf("-j %d: %s: first unsupported %d, valid %v; want %d", w, g.ID, r.FirstUnsupported, r.Valid, want)
			}
		}
	}
}

// TestScoreChainsCanceled checks that a canceled context stops the
// scoring with its error, not with a report.
func TestScoreChainsCanceled(t *testing.T) {
	gold, preds := chainRecords(4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, _, err := scoreChains(ctx, withDefaults(Config{}), gold, preds)
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Errorf("got %v, %v; want context.Canceled and no report", rep, err)
	}
}

// TestScoreChainsBackend checks that the chains are checked by the
// deciders Config.NewBackend makes.
func TestScoreChainsBackend(t *testing.T) {
	gold, preds := chainRecords(2)
	made := 0
	c := withDefaults(Config{Workers: 1})
	c.NewBackend = func() (solver.Backend, error) {
		made++
		return native.New(native.Options{}), nil
	}
	if _, _, err := scoreChains(context.Background(), c, gold, preds); err != nil || made != 1 {
		t.Errorf("got %v, %d backends made; want 1", err, made)
	}
}

func withDefaults(c Config) Config {
	if c.Lexicon == nil {
		c.Lexicon = fragments.Default()
	}
	if c.NewBackend == nil {
		c.NewBackend = func() (solver.Backend, error) { return native.New(native.Options{}), nil }
	}
	return c
}
