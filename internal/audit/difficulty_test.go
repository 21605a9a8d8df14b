package audit

import "testing"

func TestDifficultyReport(t *testing.T) {
	it := func(label int8, mus int32, pair int8) item { return item{label: label, mus: mus, pair: pair} }
	tests := []struct {
		name               string
		items              []item
		unsat, known, with int
		buckets            []int // counts for MUS sizes 1..6+
		oneStep            float64
		scored             bool
	}{
		{"pairs known", []item{it(1, 0, 0), it(1, 0, 0), it(0, 2, 1), it(0, 4, 1), it(0, 3, 0), it(0, 9, 0)},
			4, 4, 2, []int{0, 1, 1, 1, 0, 1}, 4.0 / 6, true},
		{"pairs not recorded", []item{it(1, 0, -1), it(0, 2, -1)}, 1, 0, 0, []int{0, 1, 0, 0, 0, 0}, 0, false},
		{"all sat", []item{it(1, 0, 0)}, 0, 0, 0, []int{0, 0, 0, 0, 0, 0}, 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := difficultyReport([]*split{{name: "test", items: tc.items}}, DefaultOptions())[0]
			if d.Unsat != tc.unsat || d.PairKnown != tc.known || d.WithPair != tc.with {
				t.Errorf("unsat %d, known %d, with a pair %d; want %d, %d, %d", d.Unsat, d.PairKnown, d.WithPair, tc.unsat, tc.known, tc.with)
			}
			for k, b := range d.MUSSizes {
				if b.Count != tc.buckets[k] {
					t.Errorf("MUS size %d: %d, want %d", b.Size, b.Count, tc.buckets[k])
				}
			}
			if (d.OneStep != nil) != tc.scored || d.OneStep != nil && d.OneStep.Accuracy != r4(tc.oneStep) {
				t.Errorf("one-step %+v, want scored %v at %.4f", d.OneStep, tc.scored, tc.oneStep)
			}
			if d.Text() == "" {
				t.Error("no text")
			}
		})
	}
}
