package audit

import (
	"github.com/nlsat/nlsat/internal/learn"
	"github.com/nlsat/nlsat/internal/textfeat"
)

// skeletonColumns is the number of most frequent train skeletons the
// gbm-structure baseline counts.
const skeletonColumns = 128

// structModel is the gbm-structure baseline: the skeletons it counts, and
// the boosted model on their counts and the structural statistics.
type structModel struct {
	cols  *textfeat.Skeletons
	model *learn.Boosted
}

// structTrainLimit bounds the train records the boosted model is fitted
// on (the first ones; split files are in random order).
const structTrainLimit = 30000

func fitStruct(train []item) *structModel {
	freq := map[uint64]int{}
	var buf []uint64
	for i := range train {
		buf = train[i].skeletons(buf)
		for _, h := range buf {
			freq[h]++
		}
	}
	m := &structModel{cols: textfeat.CommonOf(freq, skeletonColumns)}
	n := min(len(train), structTrainLimit)
	x := make([][]float64, n)
	for i := range n {
		x[i] = m.row(&train[i])
	}
	m.model = learn.FitBoosted(x, labelsOf(train[:n]), learn.BoostOptions{})
	return m
}

// row is the model's feature vector of an item.
func (m *structModel) row(it *item) []float64 {
	x := make([]float64, textfeat.NumStats+len(m.cols.Keys))
	copy(x, it.st())
	m.cols.Count(it.skeletons(nil), x[textfeat.NumStats:])
	return x
}

func (m *structModel) predict(it *item) int8 {
	if m.model.Score(m.row(it)) >= 0 {
		return 1
	}
	return 0
}
