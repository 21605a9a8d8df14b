package fragments

// relative reads what follows "who" after the subject: W's "is (not) a p"
// or Z's relative clause, then the closing copula.
func (p *parser) relative(det string, subj Term) (Sentence, error) {
	s := Sentence{O: subj}
	n := detNumber[det]
	var err error
	if _, ok := p.accept("is"); ok {
		s.Template = templateOf(W, n)
		_, s.P.Neg = p.accept("not")
		if s.P.Noun, err = p.articleNoun(); err != nil {
			return Sentence{}, err
		}
	} else {
		s.Template = templateOf(Z, n)
		if err := p.relClause(&s); err != nil {
			return Sentence{}, err
		}
	}
	s.Q, err = p.copula(det)
	return s, err
}

// relClause reads Z's relative clause after "who" into s.R, s.Clause and
// s.P.
func (p *parser) relClause(s *Sentence) error {
	negated := p.peek() == "does"
	if _, ok := p.lx.VerbByThird(p.peek()); !ok && !negated {
		return p.fail(`"is" or "does" or a verb in the third person` + p.thirdHint())
	}
	var err error
	if s.R, err = p.verb(negated); err != nil {
		return err
	}
	dets := map[string]Clause{"some": RCSome, "every": RCEvery}
	order := []string{"some", "every"}
	if negated {
		dets = map[string]Clause{"any": RCNotAny, "every": RCNotEvery}
		order = []string{"any", "every"}
	}
	od, err := p.expect(order...)
	if err != nil {
		return err
	}
	s.Clause = dets[od]
	s.P, err = p.term()
	return err
}

// transitive reads a V or A sentence from its verb on.
func (p *parser) transitive(det string, subj Term) (Sentence, error) {
	n := detNumber[det]
	if det == "Some" && p.peek() != "does" {
		n = 1
	}
	verb, err := p.verb(n == 3)
	if err != nil {
		return Sentence{}, err
	}
	dets := []string{"any", "every"}
	if n == 1 {
		dets = []string{"every", "some"}
	}
	od, err := p.expect(dets...)
	if err != nil {
		return Sentence{}, err
	}
	obj, err := p.term()
	if err != nil {
		return Sentence{}, err
	}
	q := quantOf(n, det, od)
	if _, ok := p.accept("who"); !ok {
		if p.i < len(p.toks) {
			return Sentence{}, p.fail(`"who" or the end of the sentence`)
		}
		return Sentence{Shape: Shape{Template: templateOf(V, n), Quant: q}, P: subj, Q: obj, R: verb}, nil
	}
	s := Sentence{Shape: Shape{Template: templateOf(A, n), Quant: q, Clause: Who}, O: subj, P: obj, R: verb}
	if p.peek() == "does" {
		s.Clause = WhoNot
	}
	if s.S, err = p.verb(s.Clause == WhoNot); err != nil {
		return Sentence{}, err
	}
	_, err = p.expect("him")
	return s, err
}

// quantOf maps the determiners of a V or A sentence with template number
// n to its quantifier variant.
func quantOf(n int, det, od string) Quant {
	if n != 1 {
		return map[string]Quant{"any": Any, "every": Every}[od]
	}
	if det == "Every" {
		return map[string]Quant{"every": EveryEvery, "some": EverySome}[od]
	}
	return map[string]Quant{"every": SomeEvery, "some": SomeSome}[od]
}
