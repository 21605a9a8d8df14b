package fol_test

import (
	"fmt"
	"os"

	"github.com/nlsat/nlsat/internal/fol"
)

func ExampleFprint() {
	// "Every non-artist who is a beekeeper is not a carpenter."
	f := &fol.Forall{V: "x", Body: &fol.Implies{
		L: fol.Conj(fol.Lit(false, fol.Unary("artist", "x")), fol.Unary("beekeeper", "x")),
		R: fol.Lit(false, fol.Unary("carpenter", "x")),
	}}
	if err := fol.Fprint(os.Stdout, f); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	fmt.Println(fol.ASCII(f))
	// Output:
	// ∀x(¬artist(x) ∧ beekeeper(x) → ¬carpenter(x))
	// forall x(~artist(x) & beekeeper(x) -> ~carpenter(x))
}

func ExampleParseSentence() {
	f, err := fol.ParseSentence("exists x(artist(x) & forall y(beekeeper(y) & admire(y,x) -> ~hate(x,y)))")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(fol.String(f))
	_, err = fol.ParseSentence("∀x(artist(x) → admire(x,y)")
	fmt.Println(err)
	// Output:
	// ∃x(artist(x) ∧ ∀y(beekeeper(y) ∧ admire(y,x) → ¬hate(x,y)))
	// column 27: expected ")" to close "(" at column 3, found end of input
}

func ExampleSMTLIBConfig_FprintProblem() {
	fs := []fol.Formula{
		&fol.Forall{V: "x", Body: &fol.Implies{L: fol.Unary("artist", "x"), R: fol.Unary("beekeeper", "x")}},
		&fol.Exists{V: "x", Body: fol.Conj(fol.Unary("artist", "x"), fol.Lit(false, fol.Unary("beekeeper", "x")))},
	}
	cfg := fol.SMTLIBConfig{GetUnsatCore: true}
	if err := cfg.FprintProblem(os.Stdout, fs); err != nil {
		fmt.Println(err)
	}
	// Output:
	// (set-option :produce-unsat-cores true)
	// (set-logic UF)
	// (declare-sort U 0)
	// (declare-fun artist (U) Bool)
	// (declare-fun beekeeper (U) Bool)
	// (assert (! (forall ((x U)) (=> (artist x) (beekeeper x))) :named s1))
	// (assert (! (exists ((x U)) (and (artist x) (not (beekeeper x)))) :named s2))
	// (check-sat)
	// (get-unsat-core)
}

func ExampleTPTPConfig_FprintProblem() {
	f := &fol.Forall{V: "x", Body: &fol.Implies{L: fol.Unary("artist", "x"), R: fol.Unary("beekeeper", "x")}}
	if err := (fol.TPTPConfig{}).FprintProblem(os.Stdout, []fol.Formula{f}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// fof(s1, axiom, ! [X] : (artist(X) => beekeeper(X))).
}

func ExampleFprintLaTeX() {
	f := &fol.Forall{V: "x", Body: &fol.Implies{L: fol.Unary("artist", "x"), R: fol.Unary("beekeeper", "x")}}
	if err := fol.FprintLaTeX(os.Stdout, f); err != nil {
		fmt.Println(err)
	}
	// Output:
	// \forall x\,(\mathit{artist}(x) \rightarrow \mathit{beekeeper}(x))
}
