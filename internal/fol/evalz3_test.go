package fol

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/provers"
)

// TestEvalAgreesWithZ3 checks the evaluator, the reference every model is
// checked against, with z3: for random sentences and random structures of
// up to three elements, z3 is given the structure's complete diagram (its
// elements distinct, nothing else in the domain) and the sentence, and
// must answer sat exactly when Eval says true. All checks share one z3
// process, each inside (push)/(pop).
func TestEvalAgreesWithZ3(t *testing.T) {
	requireTool(t, provers.Z3)
	r := rand.New(rand.NewPCG(5, 6))
	var script strings.Builder
	script.WriteString("(set-logic UF)\n(declare-sort U 0)\n")
	for _, p := range genUnary {
		fmt.Fprintf(&script, "(declare-fun %s (U) Bool)\n", smtSymbol(p))
	}
	for _, p := range genBinary {
		fmt.Fprintf(&script, "(declare-fun %s (U U) Bool)\n", smtSymbol(p))
	}
	var want []bool
	var sentences []string
	for i := 0; i < 40; i++ {
		s := randStructure(r, 1+r.IntN(3))
		script.WriteString("(push)\n")
		writeDiagram(&script, s)
		for j := 0; j < 5; j++ {
			f := genConfig{depth: 1 + j%4}.randSentence(r)
			v, err := Eval(f, s)
			if err != nil {
				t.Fatal(err)
			}
			want, sentences = append(want, v), append(sentences, String(f))
			script.WriteString("(push)\n(assert ")
			if err := (SMTLIBConfig{}).Fprint(&script, f); err != nil {
				t.Fatal(err)
			}
			script.WriteString(")\n(check-sat)\n(pop)\n")
		}
		script.WriteString("(pop)\n")
	}
	run := runTool(t, provers.Z3, script.String(), 20*time.Second)
	got := provers.SMTAnswers(run.Stdout)
	if _, _, bad := run.InputError(); bad || len(got) != len(want) {
		t.Fatalf("z3 gave %d answers for %d checks:\n%v", len(got), len(want), run)
	}
	trues := 0
	for _, v := range want {
		trues += boolInt(v)
	}
	t.Logf("%d of %d sentences true in their structure", trues, len(want))
	if trues < len(want)/5 || trues > len(want)*4/5 {
		t.Errorf("%d of %d sentences true: too lopsided to test both answers", trues, len(want))
	}
	for i, v := range want {
		if w := map[bool]string{true: "sat", false: "unsat"}[v]; got[i] != w {
			t.Errorf("check %d, %s: Eval says %v, z3 says %s", i, sentences[i], v, got[i])
		}
	}
}

func randStructure(r *rand.Rand, size int) *Structure {
	sig := Signature{}
	for _, p := range genUnary {
		sig[p] = 1
	}
	for _, p := range genBinary {
		sig[p] = 2
	}
	s := NewStructure(size, sig)
	for _, ext := range s.Unary {
		for a := range ext {
			ext[a] = r.IntN(2) == 0
		}
	}
	for _, ext := range s.Binary {
		for a := range ext {
			for b := range ext[a] {
				ext[a][b] = r.IntN(2) == 0
			}
		}
	}
	return s
}

// writeDiagram asserts that the domain is exactly the distinct constants
// e0, …, e(n-1) and fixes every predicate on them as in s.
func writeDiagram(b *strings.Builder, s *Structure) {
	var elems []string
	for a := 0; a < s.Size; a++ {
		elems = append(elems, fmt.Sprintf("e%d", a))
		fmt.Fprintf(b, "(declare-fun e%d () U)\n", a)
	}
	if s.Size > 1 {
		fmt.Fprintf(b, "(assert (distinct %s))\n", strings.Join(elems, " "))
	}
	fmt.Fprintf(b, "(assert (forall ((d U)) (or false %s)))\n", "(= d "+strings.Join(elems, ") (= d ")+")")
	lit := func(v bool, atom string) string {
		if v {
			return atom
		}
		return "(not " + atom + ")"
	}
	for _, p := range genUnary {
		for a := range s.Size {
			fmt.Fprintf(b, "(assert %s)\n", lit(s.Unary[p][a], fmt.Sprintf("(%s e%d)", smtSymbol(p), a)))
		}
	}
	for _, p := range genBinary {
		for a := range s.Size {
			for c := range s.Size {
				fmt.Fprintf(b, "(assert %s)\n", lit(s.Binary[p][a][c], fmt.Sprintf("(%s e%d e%d)", smtSymbol(p), a, c)))
			}
		}
	}
}
