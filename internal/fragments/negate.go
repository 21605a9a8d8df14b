package fragments

// negQuant maps the quantifier variant of a V or A sentence to the
// template number and variant of its negation: ¬∀x∀y r is ∃x∃y ¬r, and so
// on, with the object's restrictor (A's anaphoric clause included) kept.
var negQuant = map[[2]int]struct {
	number int
	quant  Quant
}{
	{1, int(EveryEvery)}: {3, Every}, // ¬∀x∀y r  = ∃x∃y ¬r: Some p does not r every q
	{1, int(EverySome)}:  {3, Any},   // ¬∀x∃y r  = ∃x∀y ¬r: Some p does not r any q
	{1, int(SomeEvery)}:  {2, Every}, // ¬∃x∀y r  = ∀x∃y ¬r: No p r's every q
	{1, int(SomeSome)}:   {2, Any},   // ¬∃x∃y r  = ∀x∀y ¬r: No p r's any q
	{2, int(Any)}:        {1, SomeSome},
	{2, int(Every)}:      {1, SomeEvery},
	{3, int(Any)}:        {1, EverySome},
	{3, int(Every)}:      {1, EveryEvery},
}

// Negation returns the sentence, over the same words and in the same
// template family (so in the same fragment), whose formula is equivalent
// to the negation of s's: every sentence of every fragment has one (see
// the package documentation, # Negation). It is an involution:
// s.Negation().Negation() == s. s must be well formed (Check).
func (s Sentence) Negation() Sentence {
	own := s.Fragment().Own()
	n := s.Template.Number()
	switch s.Fragment() {
	case V, A:
		to := negQuant[[2]int{n, int(s.Quant)}]
		s.Template, s.Quant = own[to.number-1], to.quant
		return s
	}
	// S, W, Z: the subject's quantifier and the copula's polarity flip;
	// the restrictor (noun polarities, Z's relative clause) is kept.
	switch {
	case n == 1: // ∀x(φ → q) becomes ∃x(φ ∧ ¬q)
		s.Template, s.Q.Neg = own[2], true
	case n == 2: // ∀x(φ → ¬q) becomes ∃x(φ ∧ q)
		s.Template, s.Q.Neg = own[2], false
	case s.Q.Neg: // ∃x(φ ∧ ¬q) becomes ∀x(φ → q)
		s.Template, s.Q.Neg = own[0], false
	default: // ∃x(φ ∧ q) becomes ∀x(φ → ¬q)
		s.Template = own[1]
	}
	return s
}
