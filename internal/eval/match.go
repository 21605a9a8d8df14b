package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
)

// matching pairs gold records with their predictions.
type matching struct {
	pred    []int    // per gold record, the index of its prediction or -1
	digests []string // the configuration digests of the gold ids, sorted
	texts   int      // predictions whose instance text was checked
}

// match finds each prediction's gold record and checks that the
// prediction was made for it: its id is gold's, and the record's text and
// gold label it carries, if any, are the record's; otherText is what the
// error says it carries otherwise (Spec.OtherText).
func match(gold []Gold, preds []Prediction, otherText string) (matching, error) {
	m := matching{pred: make([]int, len(gold)), digests: []string{}}
	index := make(map[string]int, len(gold))
	for i, g := range gold {
		index[g.ID] = i
		m.pred[i] = -1
		if d, ok := dataset.IDDigest(g.ID); ok && !slices.Contains(m.digests, d) {
			m.digests = append(m.digests, d)
		}
	}
	slices.Sort(m.digests)
	for k := range preds {
		p := &preds[k]
		i, ok := index[p.ID]
		if !ok {
			return m, unknownID(p, m.digests)
		}
		g := &gold[i]
		if p.hasText {
			if p.text != g.Text {
				return m, fmt.Errorf("%s: prediction for %s carries %s than the gold record (%s): it was made for another dataset", p.Where, p.ID, otherText, g.Where)
			}
			m.texts++
		}
		if p.hasDocLabel && p.docLabel != g.Label {
			return m, fmt.Errorf("%s: the lm-eval doc of %s has label %d, but the gold record (%s) has %d: the prompts were made from other data", p.Where, p.ID, p.docLabel, g.Where, g.Label)
		}
		m.pred[i] = k
	}
	return m, nil
}

// unknownID explains a prediction whose id is not gold's; when the id
// carries another configuration digest than gold's, the predictions were
// made for another build.
func unknownID(p *Prediction, digests []string) error {
	d, ok := dataset.IDDigest(p.ID)
	if !ok || len(digests) == 0 || slices.Contains(digests, d) {
		return fmt.Errorf("%s: prediction for id %s, which is not a gold record", p.Where, p.ID)
	}
	return fmt.Errorf("%s: prediction for id %s was made for dataset %s, but the gold records are dataset %s: another seed or other flags built them",
		p.Where, p.ID, d, strings.Join(digests, ", "))
}
