package pairs

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// allSentences returns one sentence per shape and allowed polarity
// combination of fragment A (so of every fragment), with fixed words.
func allSentences(t *testing.T) []fragments.Sentence {
	t.Helper()
	var out []fragments.Sentence
	for _, sh := range fragments.A.Shapes() {
		s := fragments.Sentence{Shape: sh, O: fragments.Term{Noun: "artist"}, P: fragments.Term{Noun: "baker"},
			Q: fragments.Term{Noun: "scholar"}, R: "admire", S: "hate"}
		switch sh.Template.Fragment() {
		case fragments.S:
			s.O.Noun, s.R, s.S = "", "", ""
		case fragments.W:
			s.R, s.S = "", ""
		case fragments.V:
			s.O.Noun, s.S = "", ""
		case fragments.Z:
			s.S = ""
		case fragments.A:
			s.Q.Noun = ""
		}
		for mask := range 8 {
			v := s
			v.O.Neg, v.P.Neg, v.Q.Neg = mask&1 != 0, mask&2 != 0, mask&4 != 0
			if v.Check() == nil {
				out = append(out, v)
			}
		}
	}
	// 2^k polarity combinations per shape, k the free polarities: S 2+2+4,
	// W 4+4+8, V 8·4, Z 4·(4+4+8), A 8·2·4 (the counts of CountSentences
	// with one word per role).
	if want := 8 + 16 + 32 + 64 + 64; len(out) != want {
		t.Fatalf("enumerated %d sentences, want %d", len(out), want)
	}
	return out
}

// skeleton lists a formula's quantifiers ("Ax", "Ey") and literals
// ("+p(x)", "-r(x,y)") in pre-order.
func skeleton(f fol.Formula) (quants, lits []string) {
	var walk func(fol.Formula, bool)
	walk = func(f fol.Formula, pos bool) {
		switch g := f.(type) {
		case *fol.Atom:
			sign := "+"
			if !pos {
				sign = "-"
			}
			args := make([]string, len(g.Args))
			for i, a := range g.Args {
				args[i] = string(a)
			}
			lits = append(lits, fmt.Sprintf("%s%s(%s)", sign, g.Pred, strings.Join(args, ",")))
		case *fol.Not:
			walk(g.F, !pos)
		case *fol.And:
			for _, h := range g.Fs {
				walk(h, pos)
			}
		case *fol.Implies:
			walk(g.L, pos)
			walk(g.R, pos)
		case *fol.Forall:
			quants = append(quants, "A"+string(g.V))
			walk(g.Body, pos)
		case *fol.Exists:
			quants = append(quants, "E"+string(g.V))
			walk(g.Body, pos)
		}
	}
	walk(f, true)
	return quants, lits
}

// differsAt returns the positions where a and b differ, or nil and false
// if their lengths differ.
func differsAt(a, b []string) ([]int, bool) {
	if len(a) != len(b) {
		return nil, false
	}
	var d []int
	for i := range a {
		if a[i] != b[i] {
			d = append(d, i)
		}
	}
	return d, true
}

// TestCandidatesAreOneLogicalStep checks every candidate of every sentence
// shape against the formulas: a negation or predicate flip changes the
// sign of exactly the literal of its role, a quantifier swap changes
// exactly its variable's quantifier, and nothing else changes.
func TestCandidatesAreOneLogicalStep(t *testing.T) {
	for _, s := range allSentences(t) {
		q0, l0 := skeleton(s.Formula())
		for _, c := range Candidates(s) {
			name := fmt.Sprintf("%s → %s (%s %s)", s.English(), c.To.English(), c.Kind, c.Role)
			q1, l1 := skeleton(c.To.Formula())
			dq, okq := differsAt(q0, q1)
			dl, okl := differsAt(l0, l1)
			if !okq || !okl {
				t.Errorf("%s: skeleton changed length: %v %v → %v %v", name, q0, l0, q1, l1)
				continue
			}
			switch c.Kind {
			case Quantifier:
				v := map[string]string{RoleSubject: "x", RoleObject: "y"}[c.Role]
				if len(dl) != 0 || len(dq) != 1 || q0[dq[0]][1:] != v {
					t.Errorf("%s: quantifiers %v → %v, literals %v → %v", name, q0, q1, l0, l1)
				}
			case Negation, Predicate:
				word := map[string]string{RoleO: s.O.Noun, RoleP: s.P.Noun, RoleQ: s.Q.Noun, RoleR: s.R, RoleS: s.S}[c.Role]
				if len(dq) != 0 || len(dl) != 1 || !strings.HasPrefix(l0[dl[0]][1:], word+"(") {
					t.Errorf("%s: quantifiers %v → %v, literals %v → %v", name, q0, q1, l0, l1)
				}
			default:
				t.Errorf("%s: unknown kind", name)
			}
			back, err := fragments.Parse(c.To.English())
			if err != nil || back != c.To || c.To.Fragment() != s.Fragment() {
				t.Errorf("%s: parses back as %+v (%v), fragment %s", name, back, err, c.To.Fragment())
			}
		}
	}
}

// TestCandidateCounts checks how many edits of each kind a sentence has:
// one negation per free polarity (plus A's anaphor), one quantifier swap
// per quantifier, one predicate flip per predicate that a negation word
// alone cannot flip. The counts follow from the template tables of
// docs/fragments.md.
func TestCandidateCounts(t *testing.T) {
	want := map[fragments.Template][3]int{ // negation, quantifier, predicate
		fragments.S1: {1, 1, 1}, fragments.S2: {1, 1, 1}, fragments.S3: {2, 1, 0},
		fragments.W1: {2, 1, 1}, fragments.W2: {2, 1, 1}, fragments.W3: {3, 1, 0},
		fragments.V1: {2, 2, 1}, fragments.V2: {2, 2, 1}, fragments.V3: {2, 2, 1},
		fragments.Z1: {2, 2, 2}, fragments.Z2: {2, 2, 2}, fragments.Z3: {3, 2, 1},
		fragments.A1: {3, 2, 1}, fragments.A2: {3, 2, 1}, fragments.A3: {3, 2, 1},
	}
	for _, s := range allSentences(t) {
		var got [3]int
		var order []int
		for _, c := range Candidates(s) {
			k := slices.Index(Kinds(), c.Kind)
			got[k]++
			order = append(order, k)
		}
		if got != want[s.Template] {
			t.Errorf("%s: %v edits by kind, want %v", s.English(), got, want[s.Template])
		}
		if !slices.IsSorted(order) {
			t.Errorf("%s: kinds out of order: %v", s.English(), order)
		}
	}
}

func TestCandidateExamples(t *testing.T) {
	tests := []struct {
		from string
		want []string // "kind role: English"
	}{
		{"Every artist is a baker.", []string{
			"negation P: Every non-artist is a baker.",
			"quantifier subject: Some artist is a baker.",
			"predicate-negation Q: No artist is a baker."}},
		{"No non-artist is a baker.", []string{
			"negation P: No artist is a baker.",
			"quantifier subject: Some non-artist is not a baker.",
			"predicate-negation Q: Every non-artist is a baker."}},
		{"Some artist who is not a poet is not a baker.", []string{
			"negation O: Some non-artist who is not a poet is not a baker.",
			"negation P: Some artist who is a poet is not a baker.",
			"negation Q: Some artist who is not a poet is a baker.",
			"quantifier subject: No artist who is not a poet is a baker."}},
		{"Every artist admires some baker.", []string{
			"negation P: Every non-artist admires some baker.",
			"negation Q: Every artist admires some non-baker.",
			"quantifier subject: Some artist admires some baker.",
			"quantifier object: Every artist admires every baker.",
			"predicate-negation R: No artist admires every baker."}},
		{"Some artist does not admire any baker.", []string{
			"negation P: Some non-artist does not admire any baker.",
			"negation Q: Some artist does not admire any non-baker.",
			"quantifier subject: No artist admires any baker.",
			"quantifier object: Some artist does not admire every baker.",
			"predicate-negation R: Some artist admires every baker."}},
		{"Every artist who admires some baker is a poet.", []string{
			"negation O: Every non-artist who admires some baker is a poet.",
			"negation P: Every artist who admires some non-baker is a poet.",
			"quantifier subject: Some artist who admires some baker is a poet.",
			"quantifier object: Every artist who admires every baker is a poet.",
			"predicate-negation Q: No artist who admires some baker is a poet.",
			"predicate-negation R: Every artist who does not admire every baker is a poet."}},
		{"No artist hates every baker who admires him.", []string{
			"negation O: No non-artist hates every baker who admires him.",
			"negation P: No artist hates every non-baker who admires him.",
			"negation S: No artist hates every baker who does not admire him.",
			"quantifier subject: Some artist does not hate every baker who admires him.",
			"quantifier object: No artist hates any baker who admires him.",
			"predicate-negation R: Every artist hates some baker who admires him."}},
	}
	for _, tt := range tests {
		s, err := fragments.Parse(tt.from)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range Candidates(s) {
			got = append(got, fmt.Sprintf("%s %s: %s", c.Kind, c.Role, c.To.English()))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.from, got, tt.want)
		}
	}
}

// TestEditsAdmissible checks the instance-level filter and order: an
// edit that would repeat another sentence or leave the fragment is left
// out, and the rest come by sentence, kind and role.
func TestEditsAdmissible(t *testing.T) {
	text := []string{"Every artist is a baker.", "Some artist is a baker.", "No non-artist is a baker."}
	var sents []fragments.Sentence
	for _, e := range text {
		s, err := fragments.Parse(e)
		if err != nil {
			t.Fatal(err)
		}
		sents = append(sents, s)
	}
	var got []string
	for _, e := range Edits(fragments.Default(), sents, fragments.S) {
		got = append(got, fmt.Sprintf("%d %s %s: %s", e.Sentence, e.Kind, e.Role, e.To.English()))
	}
	want := []string{
		"0 negation P: Every non-artist is a baker.",
		// 0 quantifier subject gives sentence 1.
		"0 predicate-negation Q: No artist is a baker.",
		"1 negation P: Some non-artist is a baker.",
		"1 negation Q: Some artist is not a baker.",
		// 1 quantifier subject gives sentence 0.
		"2 negation P: No artist is a baker.",
		"2 quantifier subject: Some non-artist is not a baker.",
		"2 predicate-negation Q: Every non-artist is a baker.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("edits:\ngot  %q\nwant %q", got, want)
	}
	// A sentence of W has no admissible edit in an instance of S.
	w, _ := fragments.Parse("Every artist who is a poet is a baker.")
	if es := Edits(fragments.Default(), []fragments.Sentence{w}, fragments.S); len(es) != 0 {
		t.Errorf("edits outside the fragment: %v", es)
	}
}
