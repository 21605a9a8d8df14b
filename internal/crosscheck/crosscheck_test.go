package crosscheck

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// liar answers Unsat to everything.
type liar struct{}

func (liar) Name() string { return "liar" }
func (liar) Solve(_ context.Context, p *solver.Problem) (solver.Result, error) {
	return solver.Result{Status: solver.Unsat}, nil
}

func instances(t *testing.T, texts ...[]string) []Instance {
	t.Helper()
	var out []Instance
	for i, ss := range texts {
		var sents []fragments.Sentence
		for _, s := range ss {
			st, err := fragments.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			sents = append(sents, st)
		}
		out = append(out, Instance{Frag: fragments.S, Label: string(rune('a' + i)), Sents: sents})
	}
	return out
}

func TestRunAndTable(t *testing.T) {
	insts := instances(t,
		[]string{"Every scholar is a poet.", "Some scholar is not a poet."},
		[]string{"Every scholar is a poet.", "Some poet is a scholar."})
	newNative := func() (solver.Backend, error) { return native.New(native.Options{}), nil }
	newLiar := func() (solver.Backend, error) { return liar{}, nil }
	for _, tt := range []struct {
		name      string
		second    func() (solver.Backend, error)
		disagree  int
		wantTable string
	}{
		{"agree", newNative, 0, "S          2      2         0"},
		{"a liar", newLiar, 1, "S          2      1         1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Names: [2]string{"native", "other"}, NewBackend: [2]func() (solver.Backend, error){newNative, tt.second}, Workers: 2}
			res, err := Run(context.Background(), insts, o)
			if err != nil {
				t.Fatal(err)
			}
			tab := NewTable(o.Names)
			var report bytes.Buffer
			n := 0
			for _, r := range res {
				if tab.Add(r) {
					n++
					Report(context.Background(), &report, r, o)
				}
			}
			var out bytes.Buffer
			tab.Print(&out, "test")
			if n != tt.disagree || !strings.Contains(strings.Join(strings.Fields(out.String()), " "), strings.Join(strings.Fields(tt.wantTable), " ")) {
				t.Errorf("%d disagreements; table:\n%s", n, out.String())
			}
			if tt.disagree > 0 && !strings.Contains(report.String(), "DISAGREEMENT on b") {
				t.Errorf("report:\n%s", report.String())
			}
		})
	}
}
