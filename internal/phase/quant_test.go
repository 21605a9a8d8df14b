package phase

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
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
