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
