package binom

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	tests := []struct {
		k, n   int
		lo, hi float64
	}{
		{50, 100, 0.4038, 0.5962},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{1, 1, 0.2065, 1},
		{0, 0, 0, 1},
		{540, 1000, 0.5090, 0.5707},
	}
	for _, tt := range tests {
		iv := Wilson(tt.k, tt.n, 0.95)
		if math.Abs(iv.Lo-tt.lo) > 5e-5 || math.Abs(iv.Hi-tt.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tt.k, tt.n, iv.Lo, iv.Hi, tt.lo, tt.hi)
		}
	}
}

func TestWilsonContainsEstimate(t *testing.T) {
	for n := 1; n <= 60; n++ {
		for k := 0; k <= n; k++ {
			iv, p := Wilson(k, n, 0.95), float64(k)/float64(n)
			if !(iv.Lo <= p && p <= iv.Hi) || iv.Lo < 0 || iv.Hi > 1 {
				t.Fatalf("Wilson(%d, %d) = %v does not contain %v within [0, 1]", k, n, iv, p)
			}
			if wide := Wilson(k, n, 0.99); wide.Lo > iv.Lo+1e-12 || wide.Hi < iv.Hi-1e-12 {
				t.Fatalf("the 99%% interval %v of %d/%d is not wider than the 95%% one %v", wide, k, n, iv)
			}
		}
	}
}
