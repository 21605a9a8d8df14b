package eval

import (
	"fmt"

	"github.com/nlsat/nlsat/internal/binom"
)

// PairReport scores minimal pairs: twins that differ in one sentence, an
// original and an edited one, whose labels the logic says differ. A pair
// counts when both twins have a prediction.
type PairReport struct {
	// Pairs is the number of pairs with both twins predicted.
	Pairs int `json:"pairs"`
	// Incomplete counts pair ids of the gold records with only one twin,
	// or with a twin that has no prediction.
	Incomplete int `json:"incomplete"`
	// OppositeLabels counts the scored pairs whose gold labels differ, as
	// nlsat pairs promises for all of them.
	OppositeLabels int `json:"opposite_labels"`
	// BothCorrect is the consistency rate: the share of pairs whose two
	// predictions are both correct.
	BothCorrect Rate `json:"both_correct"`
	// Changed is the share of pairs whose two predictions are parseable
	// and differ; an unparseable answer is no change.
	Changed Rate `json:"prediction_changed"`
}

// Rate is a share of the scored pairs with its interval.
type Rate struct {
	Hits   int     `json:"hits"`
	Rate   float64 `json:"rate"`
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
}

func rate(hits, n int) Rate {
	r := Rate{Hits: hits}
	if n > 0 {
		r.Rate = float64(hits) / float64(n)
		iv := binom.Wilson(hits, n, Confidence)
		r.CILow, r.CIHigh = iv.Lo, iv.Hi
	}
	return r
}

// scorePairs groups the gold records by pair_id and scores the pairs; it
// returns nil when no record has a pair_id. A pair_id on more than two
// records, or twins with the same role, is an error naming the record.
func scorePairs(gold []Gold, answer []int, has []bool) (*PairReport, error) {
	type twins struct{ orig, edit int }
	pairs := map[string]*twins{}
	var order []string
	for i, g := range gold {
		if g.PairID == "" {
			continue
		}
		p, ok := pairs[g.PairID]
		if !ok {
			p = &twins{-1, -1}
			pairs[g.PairID] = p
			order = append(order, g.PairID)
		}
		slot := &p.orig
		if g.PairRole == RoleEdited {
			slot = &p.edit
		}
		if *slot >= 0 {
			return nil, fmt.Errorf("%s: record %s is a second %s twin in pair %s (the first is %s)", g.Where, g.ID, g.PairRole, g.PairID, gold[*slot].ID)
		}
		*slot = i
	}
	if len(order) == 0 {
		return nil, nil
	}
	rep := &PairReport{}
	var both, changed int
	for _, id := range order {
		p := pairs[id]
		if p.orig < 0 || p.edit < 0 || !has[p.orig] || !has[p.edit] {
			rep.Incomplete++
			continue
		}
		rep.Pairs++
		o, e := gold[p.orig], gold[p.edit]
		if o.Label != e.Label {
			rep.OppositeLabels++
		}
		if answer[p.orig] == o.Label && answer[p.edit] == e.Label {
			both++
		}
		if answer[p.orig] != Unparseable && answer[p.edit] != Unparseable && answer[p.orig] != answer[p.edit] {
			changed++
		}
	}
	rep.BothCorrect, rep.Changed = rate(both, rep.Pairs), rate(changed, rep.Pairs)
	return rep, nil
}
