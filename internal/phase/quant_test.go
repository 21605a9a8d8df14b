package phase

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/nlsat/nlsat/internal/figure"
	"github.com/nlsat/nlsat/internal/figure/figuretest"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/golden"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestQuantBins checks the shares against a count by hand of the
// quantifiers in the formulas of templates.golden (fragments/testdata):
// the subject's is the outermost, every nested one an object's.
func TestQuantBins(t *testing.T) {
	tests := []struct {
		sentences []string
		subj, obj int
	}{
		{[]string{"Every artist is a beekeeper."}, 0, -1},                                                                                 // ∀
		{[]string{"Some artist is not a beekeeper.", "No artist is a beekeeper."}, 5, -1},                                                 // ∃ ∀
		{[]string{"Every artist admires some beekeeper."}, 0, 9},                                                                          // ∀x ∃y
		{[]string{"No artist admires every beekeeper."}, 0, 9},                                                                            // ∀x(→ ∃y ¬r): the spec's reading
		{[]string{"Some artist does not admire any beekeeper."}, 9, 0},                                                                    // ∃x ∀y
		{[]string{"Every artist who admires some beekeeper is a chemist."}, 0, 9},                                                         // Z: the clause's object
		{[]string{"Some artist admires every beekeeper who hates him.", "Every artist is a chemist.", "Some artist is a chemist."}, 6, 0}, // 2 of 3 ∃
	}
	for _, tt := range tests {
		var fs []fol.Formula
		for _, s := range tt.sentences {
			sent, err := fragments.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			fs = append(fs, sent.Formula())
		}
		if subj, obj := quantBins(fs); subj != tt.subj || obj != tt.obj {
			t.Errorf("%q: bins (%d, %d), want (%d, %d)", tt.sentences, subj, obj, tt.subj, tt.obj)
		}
	}
}

func TestQuantifiersRoundTrip(t *testing.T) {
	es := fixture()
	for i := range es {
		for s := range 7 {
			es[i].addQuant(s%3, s%4-1, []solver.Status{solver.Sat, solver.Unsat, solver.Unknown}[s%3])
		}
	}
	if q := es[0].Quant; len(q) != 7 || q[0].Subj != 0 || q[0].Obj != -1 || q[6].Subj != 2 {
		t.Fatalf("cells not sorted by bin: %+v", q)
	}
	var b1, b2 bytes.Buffer
	if err := WriteQuantifiers(&b1, es); err != nil {
		t.Fatal(err)
	}
	got, _ := ReadPoints(pointsOf(t, es))
	n, err := ReadQuantifiers(bytes.NewReader(b1.Bytes()), got)
	if err != nil || n != 7*len(es) {
		t.Fatalf("matched %d of %d cells: %v", n, 7*len(es), err)
	}
	WriteQuantifiers(&b2, got)
	if b1.String() != b2.String() {
		t.Errorf("quantifiers.csv changed on a round trip:\n%.300s\n%.300s", b1.String(), b2.String())
	}
	if !strings.HasPrefix(b1.String(), strings.Join(QuantHeader, ",")+"\nS,4,6,0,0.0,,1,1,0,0\n") {
		t.Errorf("quantifiers.csv begins %.120q", b1.String())
	}
}

func pointsOf(t *testing.T, es []Estimate) *bytes.Buffer {
	var b bytes.Buffer
	if err := WritePoints(&b, es); err != nil {
		t.Fatal(err)
	}
	return &b
}

func TestReadQuantifiersErrors(t *testing.T) {
	h := strings.Join(QuantHeader, ",") + "\n"
	tests := []struct{ in, want string }{
		{"a,b,c,d,e,f,g,h,i,j\n", "header"},
		{h + "S,4,6,0,0.35,,1,1,0,0\n", "line 2: subj_exist_share \"0.35\" is not a bin"},
		{h + "S,4,6,0,1.0,,1,1,0,0\n", "is not a bin"},
		{h + "S,4,6,0,0.1,,1,1,0,0\nS,4,6,0,0.1,x,1,1,0,0\n", "line 3: obj_exist_share"},
		{h + "S,4,6,0,0.1,,2,1,0,0\n", "not n = 2"},
		{h + "Q,4,6,0,0.1,,1,1,0,0\n", "line 2"},
	}
	for _, tt := range tests {
		_, err := ReadQuantifiers(strings.NewReader(tt.in), fixture())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want an error with %q", tt.in, err, tt.want)
		}
	}
}

// TestOutline checks the band's contour on a 3×2 grid by hand: the cells
// in the band are (0,0) and (1,0); their outline is 6 unit edges.
func TestOutline(t *testing.T) {
	g := newHeatGrid(bins{0, 1, 3}, bins{0, 1, 2}, []tally{
		{0.5, 0.5, 50, 100}, {1.5, 0.5, 40, 100}, {2.5, 0.5, 10, 100},
		{0.5, 1.5, 90, 100}, {1.5, 1.5, 5, 10}, // too few decided: blank
	})
	if z := g.Z(1, 1); z == z {
		t.Errorf("a cell of 10 decided has P(sat) %v, want NaN (blank)", z)
	}
	got := g.outline(PaperBand())
	want := [][2][2]float64{{{0, 0}, {1, 0}}, {{1, 0}, {2, 0}}, {{0, 0}, {0, 1}}, {{2, 0}, {2, 1}}, {{0, 1}, {1, 1}}, {{1, 1}, {2, 1}}}
	if len(got) != len(want) {
		t.Fatalf("outline %v, want %v", got, want)
	}
	seen := map[[2][2]float64]bool{}
	for _, l := range got {
		seen[l] = true
	}
	for _, l := range want {
		if !seen[l] {
			t.Errorf("outline %v lacks %v", got, l)
		}
	}
}

// quantFixture is fixture() with quantifier counts: at each point the
// share of existential subjects is spread over three bins around one that
// grows with m, and V's objects over two.
func quantFixture() []Estimate {
	es := fixture()
	for i := range es {
		e := &es[i]
		for s := range e.N {
			subj, obj := min(e.M/4+s%3, QuantBins-1), -1
			if e.Fragment == fragments.V {
				obj = s % 2 * 5
			}
			st := solver.Unsat
			if s < e.Sat {
				st = solver.Sat
			}
			e.addQuant(subj, obj, st)
		}
	}
	return es
}

// TestPaperFigures draws the multi-panel figures of S and V, checks their
// tables against testdata/paper-figures.golden, and writes them twice,
// concurrently (WriteFigures), to the same bytes.
func TestPaperFigures(t *testing.T) {
	figs, err := PaperFigures(quantFixture(), FigureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var tables bytes.Buffer
	for _, f := range figs {
		names = append(names, f.Name)
		fmt.Fprintf(&tables, "# %s\n", f.Name)
		csv.NewWriter(&tables).WriteAll(f.Table)
	}
	want := []string{"fig2-psat-m", "fig4-psat-alpha-beta", "fig5-psat-clause-variable-ratio",
		"fig6-psat-alpha-subject-quantifiers", "fig7-psat-m-subject-quantifiers", "fig8-psat-quantifier-shares"}
	if !slices.Equal(names, want) {
		t.Errorf("figures %v, want %v", names, want)
	}
	golden.Check(t, "testdata/paper-figures.golden", tables.Bytes())
	for i := range figs {
		figs[i] = lowRes(figs[i]) // 300 dpi is slow under the race detector
		checkFigure(t, figs[i])
	}
	dirs := []string{t.TempDir(), t.TempDir()}
	for _, d := range dirs {
		if err := WriteFigures(d, figs); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names {
		for _, ext := range []string{".png", ".svg", ".csv"} {
			a, _ := os.ReadFile(filepath.Join(dirs[0], n+ext))
			b, _ := os.ReadFile(filepath.Join(dirs[1], n+ext))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%s%s: %d and %d bytes, not the same", n, ext, len(a), len(b))
			}
		}
	}
}

// TestSingleFragmentFigures draws the multi-panel figures of a sweep of V
// alone: each is one panel, unlettered, on a canvas sized for its title
// and key, with its resolution recorded; fig2 and fig8 are checked against
// golden images in testdata/single (go test -update rewrites them; look
// at them before committing).
func TestSingleFragmentFigures(t *testing.T) {
	var es []Estimate
	for _, e := range quantFixture() {
		if e.Fragment == fragments.V {
			es = append(es, e)
		}
	}
	figs, err := PaperFigures(es, FigureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 6 {
		t.Fatalf("%d figures, want 6", len(figs))
	}
	for _, f := range figs {
		var b bytes.Buffer
		if err := f.Encode(&b, "png"); err != nil {
			t.Fatal(err)
		}
		if x, y, ok := figure.Resolution(b.Bytes()); !ok || math.Round(x) != 300 || math.Round(y) != 300 {
			t.Errorf("%s: the PNG records %v × %v dpi (%v), want 300", f.Name, x, y, ok)
		}
		var svg bytes.Buffer
		if err := f.Encode(&svg, "svg"); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(svg.String(), ">(a) ") {
			t.Errorf("%s: a lone panel is lettered (a)", f.Name)
		}
		if f.size.W < 3.8*vg.Inch {
			t.Errorf("%s: %.2f inches wide, too narrow for its title and key", f.Name, f.size.W/vg.Inch)
		}
		switch f.Name {
		case "fig2-psat-m", "fig8-psat-quantifier-shares":
			figuretest.Check(t, filepath.Join("testdata", "single", f.Name+".png"), b.Bytes())
			figuretest.Check(t, filepath.Join("testdata", "single", f.Name+".svg"), svg.Bytes())
		}
	}
}
