package fol

import (
	"io"
	"testing"
)

// The records hold one formula string per sentence, so String and Parse
// run once per sentence of every instance generated or read.

func BenchmarkString(b *testing.B) {
	fs := caseFormulas(specCases)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = String(fs[i%len(fs)])
	}
}

func BenchmarkParse(b *testing.B) {
	var ss []string
	for _, c := range specCases {
		ss = append(ss, String(c.f))
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Parse(ss[i%len(ss)]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSMTLIBProblem(b *testing.B) {
	fs := caseFormulas(specCases)
	b.ReportAllocs()
	for b.Loop() {
		if err := (SMTLIBConfig{CheckSat: true}).FprintProblem(io.Discard, fs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEval checks an A-shaped sentence on a 10-element structure,
// the work every sat certificate costs.
func BenchmarkEval(b *testing.B) {
	f, err := ParseSentence("forall x(o(x) -> exists y(p(y) & ~s(y,x) & r(x,y)))")
	if err != nil {
		b.Fatal(err)
	}
	s := NewStructure(10, Signature{"o": 1, "p": 1, "r": 2, "s": 2})
	for a := range 10 {
		s.Unary["o"][a], s.Unary["p"][a] = a%2 == 0, a%3 == 0
		for c := range 10 {
			s.Binary["r"][a][c] = (a+c)%2 == 0
		}
	}
	for b.Loop() {
		if _, err := Eval(f, s); err != nil {
			b.Fatal(err)
		}
	}
}
