package fragments

import (
	"slices"
	"strings"
	"testing"
)

func TestParseFragment(t *testing.T) {
	tests := []struct {
		in   string
		want Fragment
		err  string
	}{
		{"S", S, ""}, {"w", W, ""}, {"V", V, ""}, {"Z", Z, ""}, {"A", A, ""},
		{"B", 0, `unknown fragment "B": allowed values are S, W, V, Z, A`},
		{"", 0, "allowed values are S, W, V, Z, A"},
		{"SW", 0, "allowed values"},
	}
	for _, tc := range tests {
		got, err := ParseFragment(tc.in)
		if got != tc.want || (tc.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseFragment(%q) = %v, %v; want %v, error containing %q", tc.in, got, err, tc.want, tc.err)
		}
	}
	if s := Fragment(0).String(); s != "Fragment(0)" {
		t.Errorf("Fragment(0).String() = %q", s)
	}
}

// TestCounts checks the number of templates (spec: S 3, W 6, V 9, Z 12,
// A 15) and of shapes (3 + 3 + 8 + 12 + 16) per fragment.
func TestCounts(t *testing.T) {
	wantT := map[Fragment]int{S: 3, W: 6, V: 9, Z: 12, A: 15}
	wantS := map[Fragment]int{S: 3, W: 6, V: 14, Z: 26, A: 42}
	for _, f := range All() {
		if got := len(f.Templates()); got != wantT[f] {
			t.Errorf("%s has %d templates, want %d", f, got, wantT[f])
		}
		if got := len(f.Shapes()); got != wantS[f] {
			t.Errorf("%s has %d shapes, want %d", f, got, wantS[f])
		}
		if got := len(f.Own()) + len(f.Inherited()); got != wantT[f] {
			t.Errorf("%s: own + inherited = %d, want %d", f, got, wantT[f])
		}
		for _, tpl := range f.Own() {
			if tpl.Fragment() != f || !strings.HasPrefix(tpl.String(), f.String()) {
				t.Errorf("own template %s of %s belongs to %s", tpl, f, tpl.Fragment())
			}
		}
	}
}

// TestIDTable: the id a shape gives from the table is the one written
// out, for every shape, and a combination no template has is written out
// too.
func TestIDTable(t *testing.T) {
	for _, sh := range A.Shapes() {
		if got, want := sh.ID(), sh.id(); got != want || got == "" {
			t.Errorf("%+v: id %q from the table, %q written out", sh, got, want)
		}
	}
	for _, sh := range []Shape{{Template: S1, Quant: Every, Clause: WhoNot}, {Template: A3 + 1}, {Template: S1, Quant: -1}} {
		if got, want := sh.ID(), sh.id(); got != want {
			t.Errorf("%+v: id %q, want %q", sh, got, want)
		}
	}
}

func TestIDRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for _, sh := range A.Shapes() {
		id := sh.ID()
		if seen[id] {
			t.Errorf("duplicate id %s", id)
		}
		seen[id] = true
		got, err := ParseID(id)
		if err != nil || got != sh {
			t.Errorf("ParseID(%q) = %+v, %v; want %+v", id, got, err, sh)
		}
		tpl, err := ParseTemplate(sh.Template.String())
		if err != nil || tpl != sh.Template {
			t.Errorf("ParseTemplate(%q) = %v, %v", sh.Template.String(), tpl, err)
		}
	}
	for _, bad := range []string{"S4", "V1", "V2.some", "A1.every-some", "Z1.some.who", "s1", ""} {
		if _, err := ParseID(bad); err == nil {
			t.Errorf("ParseID(%q) accepted an invalid id", bad)
		}
	}
}

func FuzzParseID(f *testing.F) {
	for _, sh := range A.Shapes() {
		f.Add(sh.ID())
	}
	f.Fuzz(func(t *testing.T, id string) {
		sh, err := ParseID(id)
		if err != nil {
			return
		}
		if !sh.Valid() || sh.ID() != id {
			t.Fatalf("ParseID(%q) = %+v, which prints as %q", id, sh, sh.ID())
		}
	})
}

func FuzzParseFragment(f *testing.F) {
	for _, s := range []string{"S", "W", "V", "Z", "A", "a", "X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fr, err := ParseFragment(s)
		if err != nil {
			return
		}
		if !fr.Valid() || !strings.EqualFold(fr.String(), s) {
			t.Fatalf("ParseFragment(%q) = %v", s, fr)
		}
	})
}

func TestCompareNamesAndNames(t *testing.T) {
	names := []string{"Z", "other", "A", "S", "s", "W", "V"}
	slices.SortFunc(names, CompareNames)
	if got := strings.Join(names, " "); got != "S W V Z A other s" {
		t.Errorf("sorted %q", got)
	}
	if got := strings.Join(Names(), ","); got != "S,W,V,Z,A" {
		t.Errorf("Names() = %s", got)
	}
	if S.HasVerbs() || W.HasVerbs() || !V.HasVerbs() || !A.HasVerbs() {
		t.Error("only V, Z and A have verbs")
	}
}
