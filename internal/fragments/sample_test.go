package fragments

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
)

// TestRoundTrip samples sentences of every fragment and checks that
// render → parse gives back the same sentence (template, variant, words,
// polarities) and the same formula.
func TestRoundTrip(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 3000
	}
	p := DefaultParams()
	lx := Default()
	nouns, verbs := nounWords(lx), verbWords(lx)
	for _, f := range All() {
		rng := rand.New(rand.NewPCG(uint64(f), 7))
		for i := 0; i < n; i++ {
			s := drawSentence(rng, f, p, nouns, verbs)
			e := s.English()
			back, err := Parse(e)
			if err != nil {
				t.Fatalf("%s: Parse(%q): %v", f, e, err)
			}
			if back != s || !fol.Equal(back.Formula(), s.Formula()) {
				t.Fatalf("%s: %q parsed as %+v, want %+v", f, e, back, s)
			}
			if err := s.Check(); err != nil {
				t.Fatalf("%s: sampled an ill-formed sentence: %v", f, err)
			}
		}
	}
}

func TestSampleDeterministic(t *testing.T) {
	for _, f := range All() {
		n2 := 0
		if f >= V {
			n2 = 4
		}
		a, err := Sample(rand.New(rand.NewPCG(42, uint64(f))), f, DefaultParams(), 20, 6, n2)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Sample(rand.New(rand.NewPCG(42, uint64(f))), f, DefaultParams(), 20, 6, n2)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: same seed gave different instances:\n%s\n%s", f, a.Text(), b.Text())
		}
		c, _ := Sample(rand.New(rand.NewPCG(43, uint64(f))), f, DefaultParams(), 20, 6, n2)
		if a.Text() == c.Text() {
			t.Errorf("%s: different seeds gave the same instance", f)
		}
	}
}

func TestSampleInstance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range All() {
		for trial := 0; trial < 50; trial++ {
			n1, n2, m := 3+rng.IntN(6), 0, 1+rng.IntN(30)
			if f >= V {
				n2 = 2 + rng.IntN(5)
			}
			in, err := Sample(rng, f, DefaultParams(), m, n1, n2)
			if err != nil {
				t.Fatalf("%s m=%d n1=%d n2=%d: %v", f, m, n1, n2, err)
			}
			checkInstance(t, in, m, n1, n2)
		}
	}
}

func checkInstance(t *testing.T, in Instance, m, n1, n2 int) {
	t.Helper()
	if len(in.Sentences) != m || len(in.Nouns) != n1 || len(in.Verbs) != n2 {
		t.Fatalf("got %d sentences, %d nouns, %d verbs; want %d, %d, %d",
			len(in.Sentences), len(in.Nouns), len(in.Verbs), m, n1, n2)
	}
	if hasDup(in.Nouns) || hasDup(in.Verbs) || hasDup(in.English()) {
		t.Fatalf("duplicate word or sentence in %v %v %q", in.Nouns, in.Verbs, in.Text())
	}
	for _, s := range in.Sentences {
		if s.Fragment() > in.Fragment {
			t.Errorf("sentence %s outside fragment %s", s.ID(), in.Fragment)
		}
		ns, vs := s.Nouns(), s.Verbs()
		if hasDup(ns) || hasDup(vs) {
			t.Errorf("%q repeats a word", s.English())
		}
		for _, w := range ns {
			if !containsWord(in.Nouns, w) {
				t.Errorf("%q uses noun %q not drawn for the instance", s.English(), w)
			}
		}
		for _, w := range vs {
			if !containsWord(in.Verbs, w) {
				t.Errorf("%q uses verb %q not drawn for the instance", s.English(), w)
			}
		}
	}
	meanings := make([]string, len(in.Sentences))
	for i, s := range in.Sentences {
		meanings[i] = s.Meaning()
	}
	if hasDup(meanings) {
		t.Errorf("two sentences of one instance mean the same: %q", in.Text())
	}
	if got, err := ParseText(in.Text()); err != nil || len(got) != m {
		t.Errorf("ParseText(Text()) = %d sentences, %v", len(got), err)
	}
}

func hasDup(ws []string) bool {
	seen := map[string]bool{}
	for _, w := range ws {
		if seen[w] {
			return true
		}
		seen[w] = true
	}
	return false
}

func TestValidateErrors(t *testing.T) {
	def := DefaultParams()
	equiv := def
	equiv.Equivalent = true
	loose := def
	loose.Distinct = false
	ownOnly := def
	ownOnly.OwnShare = 1
	inhOnly := def
	inhOnly.OwnShare = 0
	tests := []struct {
		f         Fragment
		p         Params
		m, n1, n2 int
		want      string // "" means valid
	}{
		{W, def, 5, 2, 0, "fragment W needs n1 >= 3 (a sentence uses 3 distinct nouns), got 2"},
		{S, def, 5, 4, 1, "fragment S takes no verbs: n2 must be 0"},
		{W, def, 5, 4, 2, "fragment W takes no verbs: n2 must be 0"},
		{V, def, 5, 4, 0, "fragment V needs n2 >= 1, got 0"},
		{A, loose, 5, 4, 0, "fragment A needs n2 >= 1, got 0"},
		{A, def, 5, 4, 1, "fragment A needs n2 >= 2 (a sentence uses 2 distinct verbs), got 1"},
		{A, inhOnly, 5, 4, 1, ""},
		{A, loose, 5, 4, 1, ""},
		{S, def, 5, 1, 0, "fragment S needs n1 >= 2"},
		{S, loose, 5, 1, 0, ""},
		{V, inhOnly, 5, 2, 1, "fragment V needs n1 >= 3"},
		{V, ownOnly, 5, 2, 1, ""},
		{S, def, 0, 4, 0, "m must be at least 1, got 0"},
		{S, def, 5, 0, 0, "n1 must be at least 1, got 0"},
		{S, def, 5, 1000, 0, "exceeds the"},
		{Fragment(0), def, 5, 4, 0, "allowed values are S, W, V, Z, A"},
		{S, SamplerParams{OwnShare: 2, NegProb: 0.5}.Params(), 5, 4, 0, "must lie in [0, 1]"},
		// S with n1 = 2: S1 and S2 have 2·2 fillings, S3 2·4, so 16
		// sentences; of distinct meaning 8 ("Every non-a is a b" is "Every
		// non-b is an a", "Some a is a b" is "Some b is an a", ...).
		{S, equiv, 16, 2, 0, ""},
		{S, equiv, 17, 2, 0, "has only 16 distinct sentences"},
		{S, def, 8, 2, 0, ""},
		{S, def, 9, 2, 0, "has only 8 sentences of distinct meaning"},
	}
	for _, tc := range tests {
		err := Validate(tc.f, tc.p, tc.m, tc.n1, tc.n2)
		name := fmt.Sprintf("Validate(%v, m=%d, n1=%d, n2=%d)", tc.f, tc.m, tc.n1, tc.n2)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want an error containing %q", name, err, tc.want)
		}
	}
}

// TestSampleExclude checks that excluded templates are never drawn, that
// the rest still are, and that excluding everything is refused.
func TestSampleExclude(t *testing.T) {
	tests := []struct {
		f       Fragment
		exclude []Template
	}{
		{S, []Template{S1}},
		{W, []Template{W1, W2, W3}}, // the own group is empty: all inherited
		{A, []Template{A1, S3}},
		{Z, []Template{Z2}},
	}
	for _, tt := range tests {
		p := DefaultParams()
		p.Exclude = tt.exclude
		rng := rand.New(rand.NewPCG(1, uint64(tt.f)))
		seen := map[Template]bool{}
		n2 := 0
		if tt.f >= V {
			n2 = 4
		}
		for range 200 {
			in, err := Sample(rng, tt.f, p, 12, 6, n2)
			if err != nil {
				t.Fatalf("%s without %v: %v", tt.f, tt.exclude, err)
			}
			for _, s := range in.Sentences {
				seen[s.Template] = true
			}
		}
		for _, tm := range tt.f.Templates() {
			if seen[tm] == slices.Contains(tt.exclude, tm) {
				t.Errorf("%s without %v: template %s drawn %v", tt.f, tt.exclude, tm, seen[tm])
			}
		}
	}
	p := DefaultParams()
	p.Exclude = S.Templates()
	if err := Validate(S, p, 5, 6, 0); err == nil {
		t.Error("excluding every template of S was accepted")
	}
}

// TestSampleEquivalent checks that Params.Equivalent, the paper's sampler,
// does draw instances with two sentences of one meaning where the default
// draws none (checkInstance checks the default).
func TestSampleEquivalent(t *testing.T) {
	p := DefaultParams()
	p.Equivalent = true
	rng := rand.New(rand.NewPCG(5, 6))
	found := 0
	for range 200 {
		in, err := Sample(rng, S, p, 12, 4, 0)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, s := range in.Sentences {
			if k := s.Meaning(); seen[k] {
				found++
				break
			} else {
				seen[k] = true
			}
		}
	}
	if found == 0 {
		t.Error("the paper's sampler drew no instance with two equivalent sentences in 200")
	}
	t.Logf("%d of 200 instances (S, m = 12, n1 = 4) hold two equivalent sentences", found)
}
