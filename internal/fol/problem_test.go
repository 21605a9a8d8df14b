package fol

import (
	"strings"
	"testing"
)

func TestFprintProblemDefaults(t *testing.T) {
	fs := []Formula{every(px("artist"), px("beekeeper")), someX(px("artist"), someY(py("beekeeper"), rxy("admire")))}
	var smt, tptp strings.Builder
	if err := (SMTLIBConfig{}).FprintProblem(&smt, fs); err != nil {
		t.Fatal(err)
	}
	wantSMT := `(set-logic UF)
(declare-sort U 0)
(declare-fun admire (U U) Bool)
(declare-fun artist (U) Bool)
(declare-fun beekeeper (U) Bool)
(assert (! (forall ((x U)) (=> (artist x) (beekeeper x))) :named s1))
(assert (! (exists ((x U)) (and (artist x) (exists ((y U)) (and (beekeeper y) (admire x y))))) :named s2))
`
	if smt.String() != wantSMT {
		t.Errorf("got\n%s\nwant\n%s", smt.String(), wantSMT)
	}
	cfg := TPTPConfig{Names: []string{"every artist", "a2"}, Role: "hypothesis"}
	if err := cfg.FprintProblem(&tptp, fs); err != nil {
		t.Fatal(err)
	}
	wantTPTP := `fof('every artist', hypothesis, ! [X] : (artist(X) => beekeeper(X))).
fof(a2, hypothesis, ? [X] : (artist(X) & ? [Y] : (beekeeper(Y) & admire(X,Y)))).
`
	if tptp.String() != wantTPTP {
		t.Errorf("got\n%s\nwant\n%s", tptp.String(), wantTPTP)
	}
}

func TestSMTLIBOptions(t *testing.T) {
	fs := []Formula{some("x", px("p"))}
	cfg := SMTLIBConfig{Sort: "Person", Logic: "ALL", Names: []string{"first one"}, CheckSat: true}
	var b strings.Builder
	if err := cfg.FprintProblem(&b, fs); err != nil {
		t.Fatal(err)
	}
	want := `(set-logic ALL)
(declare-sort Person 0)
(declare-fun p (Person) Bool)
(assert (! (exists ((x Person)) (p x)) :named |first one|))
(check-sat)
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestProblemErrors(t *testing.T) {
	closed := some("x", px("p"))
	tests := []struct {
		name string
		smt  SMTLIBConfig
		tptp TPTPConfig
		fs   []Formula
		want string
	}{
		{"open", SMTLIBConfig{}, TPTPConfig{}, []Formula{px("p")}, "sentence 1: free variable x"},
		{"malformed", SMTLIBConfig{}, TPTPConfig{}, []Formula{closed, nil}, "sentence 2: nil formula"},
		{"arity", SMTLIBConfig{}, TPTPConfig{}, []Formula{closed, some("x", bin("p", "x", "x"))}, "used with arities 1 and 2"},
		{"few names", SMTLIBConfig{Names: []string{"a"}}, TPTPConfig{Names: []string{"a"}}, []Formula{closed, closed}, "1 names for 2 sentences"},
		{"dup names", SMTLIBConfig{Names: []string{"a", "a"}}, TPTPConfig{Names: []string{"a", "a"}}, []Formula{closed, closed}, `duplicate sentence name "a"`},
	}
	for _, tt := range tests {
		var b strings.Builder
		err := tt.smt.FprintProblem(&b, tt.fs)
		if err == nil || !strings.Contains(err.Error(), tt.want) || b.Len() > 0 {
			t.Errorf("%s: SMT-LIB: got error %v (wrote %d bytes), want %q", tt.name, err, b.Len(), tt.want)
		}
		err = tt.tptp.FprintProblem(&b, tt.fs)
		if err == nil || !strings.Contains(err.Error(), tt.want) || b.Len() > 0 {
			t.Errorf("%s: TPTP: got error %v (wrote %d bytes), want %q", tt.name, err, b.Len(), tt.want)
		}
	}
}

func TestSMTLIBErrors(t *testing.T) {
	tests := []struct {
		cfg  SMTLIBConfig
		fs   []Formula
		want string
	}{
		{SMTLIBConfig{Sort: "Bool"}, []Formula{some("x", px("p"))}, "built-in SMT-LIB sort"},
		{SMTLIBConfig{Sort: "a|b"}, []Formula{some("x", px("p"))}, "cannot be an SMT-LIB symbol"},
		{SMTLIBConfig{Names: []string{"let"}}, []Formula{some("x", px("p"))}, "reserved in SMT-LIB"},
		{SMTLIBConfig{}, []Formula{some("x", px("s1"))}, `assertion name "s1" is also a predicate`},
		{SMTLIBConfig{Names: []string{"and'"}}, []Formula{some("x", px("and"))}, `assertion name "and'" is also a predicate`},
		{SMTLIBConfig{}, []Formula{some("p", u("p", "p"))}, "variable p is also a predicate name"},
	}
	for _, tt := range tests {
		var b strings.Builder
		err := tt.cfg.FprintProblem(&b, tt.fs)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: got error %v, want %q", tt.cfg, err, tt.want)
		}
	}
	if err := (TPTPConfig{Role: "fact"}).FprintProblem(new(strings.Builder), []Formula{some("x", px("p"))}); err == nil {
		t.Error("TPTP role fact: got no error")
	}
}

func TestSMTLIBSymbol(t *testing.T) {
	tests := []struct{ in, want string }{
		{"artist", "artist"}, {"and", "|and'|"}, {"let", "|let'|"}, {"true", "|true'|"}, {"land", "land"},
	}
	for _, tt := range tests {
		if got := SMTLIBSymbol(tt.in); got != tt.want {
			t.Errorf("SMTLIBSymbol(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
