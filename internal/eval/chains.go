package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/pipeline"
	"github.com/nlsat/nlsat/internal/proof"
	"github.com/nlsat/nlsat/internal/solver"
)

// ChainReport scores the chains of thought in the free-text answers
// (Config.Chains), apart for unsat and sat gold records.
type ChainReport struct {
	Unsat ChainScore `json:"unsat"`
	Sat   ChainScore `json:"sat"`
}

// ChainScore counts the chains of the scored records of one gold label.
// Valid is the share valid to the end (always 0 for sat gold: no
// contradiction follows from a satisfiable set), Claimed the share that
// claims a contradiction; ByReason counts every chain by
// proof.ChainResult.Reason, ByFirstUnsupported the chains with an
// unsupported step by its number.
type ChainScore struct {
	Records            int        `json:"records"`
	Valid              Rate       `json:"valid"`
	Claimed            Rate       `json:"claimed"`
	ByReason           []KeyCount `json:"by_reason"`
	ByFirstUnsupported []KeyCount `json:"by_first_unsupported"`
}

// KeyCount is one line of a distribution.
type KeyCount struct {
	Key   string `json:"key"`
	Count int    `json:"count"`
}

// reasonOrder is the order of the reasons in a report.
var reasonOrder = []string{proof.ChainValid, proof.ChainNoContradiction, proof.ChainNoSteps, proof.ChainUnparsed,
	proof.ChainCitesLater, proof.ChainWrongSentence, proof.ChainDoesNotFollow}

// chainJob is one chain to check: a gold record's sentences and the answer.
type chainJob struct {
	g      *Gold
	sents  []fragments.Sentence
	answer string
}

// scoreChains checks the chain in the answer of every gold record with a
// prediction against the record's sentences, read with c.Lexicon, on
// c.Workers workers each with a decider from c.NewBackend. A sentence that does not parse is an InputError; once ctx ends
// it returns ctx's error, never a chain scored on a stopped check.
func scoreChains(ctx context.Context, c Config, gold []Gold, preds []Prediction) (*ChainReport, map[string]*proof.ChainResult, error) {
	lx := c.Lexicon
	byID := make(map[string]*Prediction, len(preds))
	for k := range preds {
		byID[preds[k].ID] = &preds[k]
	}
	var jobs []chainJob
	for gi := range gold {
		g := &gold[gi]
		p, ok := byID[g.ID]
		if !ok {
			continue
		}
		sents := make([]fragments.Sentence, len(g.Sentences))
		for i, text := range g.Sentences {
			var err error
			if sents[i], err = lx.Parse(text); err != nil {
				return nil, nil, &inputerr.Error{Err: fmt.Errorf("%s: record %s, sentence %d: %w (--vocab names the vocabulary)", g.Where, g.ID, i+1, err)}
			}
		}
		jobs = append(jobs, chainJob{g: g, sents: sents, answer: p.Answer})
	}
	if c.NewBackend == nil {
		return nil, nil, errors.New("no decider to check the chains with")
	}
	results := map[string]*proof.ChainResult{}
	tally := map[int]*chainTally{dataset.LabelUnsat: {}, dataset.LabelSat: {}}
	err := pipeline.Run(ctx, pipeline.Config[solver.Backend, proof.ChainResult]{
		Workers: c.Workers, Limit: len(jobs), New: c.NewBackend, Close: solver.Close,
		Do: func(ctx context.Context, b solver.Backend, i int) (proof.ChainResult, error) {
			j := jobs[i]
			r := proof.CheckChain(ctx, b, lx, j.sents, j.answer)
			switch {
			case ctx.Err() != nil:
				return r, ctx.Err() // a check the context stopped is no result
			case r.Undecided:
				return r, fmt.Errorf("record %s: step %d of its chain: %s; a chain is never scored on an undecided step", j.g.ID, r.FirstUnsupported, r.Detail)
			}
			return r, nil
		},
		Emit: func(i int, r proof.ChainResult) (bool, error) {
			results[jobs[i].g.ID] = &r
			tally[jobs[i].g.Label].add(r)
			return false, nil
		},
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, nil, err
	}
	return &ChainReport{Unsat: tally[dataset.LabelUnsat].score(), Sat: tally[dataset.LabelSat].score()}, results, nil
}

type chainTally struct {
	n, valid, claimed int
	reasons           map[string]int
	first             map[int]int
}

func (t *chainTally) add(r proof.ChainResult) {
	if t.reasons == nil {
		t.reasons, t.first = map[string]int{}, map[int]int{}
	}
	t.n++
	t.reasons[r.Reason]++
	if r.Valid {
		t.valid++
	}
	if r.Contradiction {
		t.claimed++
	}
	if r.FirstUnsupported > 0 {
		t.first[r.FirstUnsupported]++
	}
}

func (t *chainTally) score() ChainScore {
	s := ChainScore{Records: t.n, Valid: rate(t.valid, t.n), Claimed: rate(t.claimed, t.n), ByReason: []KeyCount{}, ByFirstUnsupported: []KeyCount{}}
	for _, r := range reasonOrder {
		if c := t.reasons[r]; c > 0 {
			s.ByReason = append(s.ByReason, KeyCount{r, c})
		}
	}
	steps := make([]int, 0, len(t.first))
	for k := range t.first {
		steps = append(steps, k)
	}
	slices.SortFunc(steps, cmp.Compare)
	for _, k := range steps {
		s.ByFirstUnsupported = append(s.ByFirstUnsupported, KeyCount{strconv.Itoa(k), t.first[k]})
	}
	return s
}
