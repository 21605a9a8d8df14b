package learn

import "math"

// Logistic is a logistic model on dense features, each standardised by its
// training mean and deviation: P(sat | x) = σ(B + Σ W_j·(x_j − Mean_j)/SD_j),
// where a feature with SD_j = 0 contributes nothing. Its JSON form
// round-trips exactly, so a model written to a checkpoint predicts the
// same after it is read back.
type Logistic struct {
	Mean []float64 `json:"mean"`
	SD   []float64 `json:"sd"`
	W    []float64 `json:"w"`
	B    float64   `json:"b"`
}

// FitLogistic fits a Logistic to the rows x (all of one length) and labels
// y (1 sat, 0 unsat) as the audit fits its models: mean log-loss plus
// λ/2·|W|², L-BFGS from zero for at most iterations steps. It is
// deterministic and independent of the number of cores.
func FitLogistic(x [][]float64, y []int8, lambda float64, iterations int) *Logistic {
	dim := 0
	if len(x) > 0 {
		dim = len(x[0])
	}
	return FitLogisticRows(len(x), dim, func(i int) []float64 { return x[i] }, y, lambda, iterations)
}

// FitLogisticRows is FitLogistic on the n rows of dim features that row
// returns, for rows the caller would otherwise have to hold all at once:
// row(i) may return a buffer that it fills again at the next call. It
// reads the rows three times, in order.
func FitLogisticRows(n, dim int, row func(i int) []float64, y []int8, lambda float64, iterations int) *Logistic {
	m := &Logistic{}
	m.Mean, m.SD = MeanSD(n, dim, row)
	d := NewDesign(dim)
	d.ReserveDense(n)
	vals := make([]float32, dim)
	for i := range n {
		for j, v := range row(i) {
			vals[j] = float32(m.standard(j, v))
		}
		d.AddDense(vals)
	}
	fit := FitSparse(d, y, Settings{Lambda: lambda, Iterations: iterations})
	m.W, m.B = fit.W, fit.B
	return m
}

// MeanSD returns the mean and the standard deviation (over n, not n − 1)
// of each of the dim columns of the n rows that row returns, each
// column's sums taken over the rows in order. It reads the rows twice, in
// order; row(i) may return a buffer that it fills again at the next call.
func MeanSD(n, dim int, row func(i int) []float64) (mean, sd []float64) {
	mean, sd = make([]float64, dim), make([]float64, dim)
	for i := range n {
		for j, v := range row(i) {
			mean[j] += v
		}
	}
	for j := range dim {
		mean[j] /= float64(n)
	}
	for i := range n {
		for j, v := range row(i) {
			d := v - mean[j]
			sd[j] += d * d
		}
	}
	for j := range dim {
		sd[j] = math.Sqrt(sd[j] / float64(n))
	}
	return mean, sd
}

func (m *Logistic) standard(j int, v float64) float64 {
	if m.SD[j] <= 0 {
		return 0
	}
	return (v - m.Mean[j]) / m.SD[j]
}

// Score returns the model's log-odds of sat at x.
func (m *Logistic) Score(x []float64) float64 {
	z := m.B
	for j, w := range m.W {
		// The design holds float32 values; predict from the same.
		z += w * float64(float32(m.standard(j, x[j])))
	}
	return z
}

// Prob returns the model's P(sat | x).
func (m *Logistic) Prob(x []float64) float64 { return sigmoid(m.Score(x)) }
