package fol

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/nlsat/nlsat/internal/golden"
)

// checkGolden compares got with testdata/name (golden.Check).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func TestPrintersGolden(t *testing.T) {
	printers := []struct {
		file   string
		fprint func(io.Writer, Formula) error
	}{
		{"text.golden", TextConfig{}.Fprint},
		{"ascii.golden", TextConfig{ASCII: true}.Fprint},
		{"latex.golden", LaTeXConfig{}.Fprint},
		{"smtlib.golden", SMTLIBConfig{}.Fprint},
		{"tptp.golden", TPTPConfig{}.Fprint},
	}
	for _, p := range printers {
		t.Run(p.file, func(t *testing.T) {
			var buf bytes.Buffer
			for _, c := range allCases() {
				fmt.Fprintf(&buf, "%s\t", c.name)
				if err := p.fprint(&buf, c.f); err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				buf.WriteString("\n")
			}
			checkGolden(t, p.file, buf.Bytes())
		})
	}
}

func TestProblemsGolden(t *testing.T) {
	fs := caseFormulas(allCases())
	var smt, tptp bytes.Buffer
	full := SMTLIBConfig{GetModel: true, GetUnsatCore: true}
	if err := full.FprintProblem(&smt, fs); err != nil {
		t.Fatal(err)
	}
	if err := (TPTPConfig{}).FprintProblem(&tptp, fs); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "problem.smt2", smt.Bytes())
	checkGolden(t, "problem.p", tptp.Bytes())
}

// TestSpecStrings pins the exact printed forms of formulas from the
// tables of docs/fragments.md, so that a golden-file update cannot
// silently change them.
func TestSpecStrings(t *testing.T) {
	tests := []struct {
		f            Formula
		text, ascii  string
		latex, tptpF string
	}{
		{every(px("artist"), px("beekeeper")),
			"∀x(artist(x) → beekeeper(x))", "forall x(artist(x) -> beekeeper(x))",
			`\forall x\,(\mathit{artist}(x) \rightarrow \mathit{beekeeper}(x))`,
			"! [X] : (artist(X) => beekeeper(X))"},
		{every(and(not(px("o")), px("p")), not(px("q"))),
			"∀x(¬o(x) ∧ p(x) → ¬q(x))", "forall x(~o(x) & p(x) -> ~q(x))",
			`\forall x\,(\neg \mathit{o}(x) \land \mathit{p}(x) \rightarrow \neg \mathit{q}(x))`,
			"! [X] : ((~ o(X) & p(X)) => ~ q(X))"},
		{someX(px("p"), everyY(py("q"), rxy("r"))),
			"∃x(p(x) ∧ ∀y(q(y) → r(x,y)))", "exists x(p(x) & forall y(q(y) -> r(x,y)))",
			`\exists x\,(\mathit{p}(x) \land \forall y\,(\mathit{q}(y) \rightarrow \mathit{r}(x,y)))`,
			"? [X] : (p(X) & ! [Y] : (q(Y) => r(X,Y)))"},
		{every(and(px("o"), someY(py("p"), not(rxy("r")))), px("q")),
			"∀x(o(x) ∧ ∃y(p(y) ∧ ¬r(x,y)) → q(x))", "forall x(o(x) & exists y(p(y) & ~r(x,y)) -> q(x))",
			`\forall x\,(\mathit{o}(x) \land \exists y\,(\mathit{p}(y) \land \neg \mathit{r}(x,y)) \rightarrow \mathit{q}(x))`,
			"! [X] : ((o(X) & ? [Y] : (p(Y) & ~ r(X,Y))) => q(X))"},
		{all("x", or(px("p"), and(px("q"), not(or(px("o"), imp(px("p"), px("q"))))))),
			"∀x(p(x) ∨ q(x) ∧ ¬(o(x) ∨ (p(x) → q(x))))", "forall x(p(x) | q(x) & ~(o(x) | (p(x) -> q(x))))",
			`\forall x\,(\mathit{p}(x) \lor \mathit{q}(x) \land \neg (\mathit{o}(x) \lor (\mathit{p}(x) \rightarrow \mathit{q}(x))))`,
			"! [X] : (p(X) | (q(X) & ~ (o(X) | (p(X) => q(X)))))"},
	}
	for _, tt := range tests {
		var latex, tptp bytes.Buffer
		if err := FprintLaTeX(&latex, tt.f); err != nil {
			t.Fatal(err)
		}
		if err := (TPTPConfig{}).Fprint(&tptp, tt.f); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ got, want string }{
			{String(tt.f), tt.text}, {ASCII(tt.f), tt.ascii},
			{latex.String(), tt.latex}, {tptp.String(), tt.tptpF},
		} {
			if c.got != c.want {
				t.Errorf("got %s, want %s", c.got, c.want)
			}
		}
	}
}
