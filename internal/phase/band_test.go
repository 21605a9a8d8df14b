package phase

import (
	"testing"

	"github.com/nlsat/nlsat/internal/binom"
)

func TestClassify(t *testing.T) {
	b := PaperBand()
	tests := []struct {
		iv   binom.Interval
		want Verdict
	}{
		{binom.Interval{Lo: 0.7, Hi: 0.9}, Above},
		{binom.Interval{Lo: 0.1, Hi: 0.3}, Below},
		{binom.Interval{Lo: 0.4, Hi: 0.6}, Inside},
		{binom.Interval{Lo: 0.35, Hi: 0.65}, Inside},
		{binom.Interval{Lo: 0.3, Hi: 0.5}, Straddles},
		{binom.Interval{Lo: 0.6, Hi: 0.7}, Straddles},
		{binom.Interval{Lo: 0.2, Hi: 0.8}, Straddles},
	}
	for _, tt := range tests {
		if got := b.Classify(tt.iv); got != tt.want {
			t.Errorf("Classify(%v) = %s, want %s", tt.iv, got, tt.want)
		}
	}
}
