package eval

// HasText and HasDocLabel say whether a prediction carries its record's
// text and an lm-eval doc's gold label, for the package's external tests.
func HasText(p *Prediction) bool     { return p.hasText }
func HasDocLabel(p *Prediction) bool { return p.hasDocLabel }
