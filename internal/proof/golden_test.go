package proof

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/golden"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// goldenCases are instances whose proofs are kept in testdata, text and
// JSON, to be read by a person when they change (go test -update).
var goldenCases = []struct {
	name  string
	sents []string
}{
	{"figure1", []string{"Every scholar is a poet.", "Every poet loves some musician.", "Some scholar does not love any musician."}},
	{"z-clause", []string{"Some poet admires some musician.", "Every musician is an artist.",
		"No poet who admires some artist is a scholar.", "Every poet is a scholar."}},
	{"a-anaphora", []string{"Some scholar is a musician.", "Every scholar admires some poet who hates him.",
		"No poet hates any scholar."}},
	{"s-chain", []string{"Some poet is a scholar.", "Every scholar is a musician.", "No poet is a baker.",
		"Every musician is a baker.", "Every baker is a dentist."}},
	{"s-universal", []string{"Every poet is a scholar.", "No poet is a scholar.", "Every non-poet is a baker.", "No baker is a dentist.", "Every non-poet is a dentist."}},
	{"w-chain", []string{"Some artist who is not a carpenter is a baker.", "Every artist who is a baker is a dentist.",
		"No dentist who is not a carpenter is an engineer.", "Every non-engineer who is a baker is a carpenter."}},
}

func TestGoldenProofs(t *testing.T) {
	b := native.New(native.Options{})
	ctx := context.Background()
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			sents := parseAll(t, c.sents...)
			v, err := solver.Decide(ctx, b, fragments.Formulas(sents), solver.DecideOptions{MUS: true})
			if err != nil || v.Status != solver.Unsat {
				t.Fatalf("%v %v: the case must be unsatisfiable", v.Status, err)
			}
			p, err := Find(ctx, b, fragments.Default(), sents, v.MUS, DefaultBudget)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			Fprint(&out, p)
			js, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			out.WriteString("\n")
			out.Write(js)
			out.WriteString("\n")
			golden.Check(t, "testdata/"+c.name+".golden", out.Bytes())
		})
	}
}
