package entail

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

func parse(t *testing.T, es ...string) []fragments.Sentence {
	t.Helper()
	var out []fragments.Sentence
	for _, e := range es {
		s, err := fragments.Default().Parse(e)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestDecide checks labels and subsets worked out by hand.
func TestDecide(t *testing.T) {
	phi := []string{"Every artist is a baker.", "Some artist is a chef.", "No dentist is a chef."}
	tests := []struct {
		premises []string
		hyp      string
		want     Label
		subset   []int
	}{
		{phi, "Some baker is a chef.", Entailment, []int{0, 1}},
		{phi, "No baker is a chef.", Contradiction, []int{0, 1}},
		{phi, "Some artist is not a dentist.", Entailment, []int{1, 2}},
		{phi, "Every chef is a baker.", Neutral, nil},
		{phi, "Some chef is a dentist.", Contradiction, []int{2}},
		{phi, "Some artist is a chef.", Entailment, []int{1}},
		{[]string{"Every artist admires every baker.", "Some artist is a chef.", "Some baker is a dentist."},
			"Some chef admires some dentist.", Entailment, []int{0, 1, 2}},
		{[]string{"Every artist admires every baker.", "Some artist is a chef."},
			"Some chef admires some dentist.", Neutral, nil},
	}
	b := native.New(native.Options{})
	for _, tt := range tests {
		r, err := Decide(context.Background(), b, parse(t, tt.premises...), parse(t, tt.hyp)[0], true)
		if err != nil {
			t.Fatalf("%s: %v", tt.hyp, err)
		}
		if !r.Decided || r.Label != tt.want || !slices.Equal(r.Subset, tt.subset) {
			t.Errorf("%s: got %v %v, want %v %v", tt.hyp, r.Label, r.Subset, tt.want, tt.subset)
		}
	}
}

func TestDecideInconsistent(t *testing.T) {
	b := native.New(native.Options{})
	_, err := Decide(context.Background(), b, parse(t, "Every artist is a baker.", "Some artist is not a baker."),
		parse(t, "Some chef is a dentist.")[0], true)
	if !errors.Is(err, ErrInconsistent) {
		t.Errorf("got %v, want ErrInconsistent", err)
	}
}

// checkCertificate checks r's certificate independently of how Decide
// found it: a subset proves the label (the subset with the hypothesis
// side is Unsat) and is minimal (each premise dropped gives a model),
// and a neutral answer's two models make Φ ∪ {ψ} and Φ ∪ {neg ψ} true
// under fol's evaluator.
func checkCertificate(ctx context.Context, b solver.Backend, premises []fragments.Sentence, hyp fragments.Sentence, r Result) error {
	if r.Label == Neutral {
		for i, h := range []fragments.Sentence{hyp, hyp.Negation()} {
			m := [2]*fol.Structure{r.With.Model, r.Against.Model}[i]
			p := &solver.Problem{Sentences: append(fragments.Formulas(premises), h.Formula())}
			if err := solver.CheckModel(p, m); err != nil {
				return err
			}
		}
		return nil
	}
	v, err := solver.Decide(ctx, b, Refutation(premises, hyp, r.Label, r.Subset), solver.DecideOptions{})
	if err != nil {
		return err
	}
	if v.Status != solver.Unsat {
		return errors.New("the subset with the hypothesis side is not unsat")
	}
	for k := range r.Subset {
		less := slices.Delete(slices.Clone(r.Subset), k, k+1)
		v, err := solver.Decide(ctx, b, Refutation(premises, hyp, r.Label, less), solver.DecideOptions{})
		if err != nil {
			return err
		}
		if v.Status != solver.Sat {
			return errors.New("the subset is not minimal")
		}
	}
	return nil
}

// TestDecideCertificates is the property: over random premises and
// hypotheses of every fragment, every label's certificate checks, and
// the label agrees with the verdicts (entailment and contradiction have
// a non-empty subset; neutral has none).
func TestDecideCertificates(t *testing.T) {
	ctx := context.Background()
	b := native.New(native.Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	n := 60
	if testing.Short() {
		n = 15
	}
	counts := map[Label]int{}
	for _, f := range fragments.All() {
		n1, n2 := 5, 0
		if f.HasVerbs() {
			n1, n2 = 4, 3
		}
		for range n {
			in, err := fragments.Sample(rng, f, fragments.DefaultParams(), 6, n1, n2)
			if err != nil {
				t.Fatal(err)
			}
			hyp := fragments.DrawSentence(rng, f, fragments.DefaultParams(), in.Nouns, in.Verbs)
			r, err := Decide(ctx, b, in.Sentences, hyp, true)
			if errors.Is(err, ErrInconsistent) {
				continue
			}
			if err != nil || !r.Decided {
				t.Fatalf("%s: %v %v", in.Text(), r.Decided, err)
			}
			counts[r.Label]++
			if (r.Label == Neutral) != (len(r.Subset) == 0) {
				t.Errorf("%s / %s: %v with subset %v", in.Text(), hyp.English(), r.Label, r.Subset)
			}
			if err := checkCertificate(ctx, b, in.Sentences, hyp, r); err != nil {
				t.Errorf("%s / %s: %v: %v", in.Text(), hyp.English(), r.Label, err)
			}
		}
	}
	for _, l := range entailrec.Labels() {
		if counts[l] == 0 {
			t.Errorf("no %v among the random problems (%v)", l, counts)
		}
	}
}

// TestLabeller runs one labeller per premise set over a sequence of
// hypotheses (repeats and equivalents among them, so that its memo and
// models are used) and checks each label against Decide's; and a second
// one through labelFor, each hypothesis asked with every set of open
// labels in turn, which must give Decide's label when it is open and
// may give noLabel only when it is not.
func TestLabeller(t *testing.T) {
	phi := []string{"Every artist is a baker.", "Some artist is a chef.", "No dentist is a chef."}
	tests := []struct {
		premises []string
		hyps     []string
	}{
		{phi, []string{"Some baker is a chef.", "Every chef is a baker.", "No baker is a chef.", "Some chef is a baker.",
			"Some chef is a dentist.", "Some artist is not a dentist.", "No chef is a dentist.", "Every chef is a baker.",
			"Some dentist is an artist.", "No baker is a dentist."}},
		{[]string{"Every artist admires every baker.", "Some artist is a chef.", "Some baker is a dentist."},
			[]string{"Some chef admires some dentist.", "Some chef does not admire any dentist.", "Every chef admires some dentist.",
				"Every artist admires some dentist.", "Some chef admires some dentist.", "Some dentist does not admire any chef."}},
		{[]string{"Every artist is a baker.", "Some artist is not a baker."}, []string{"Some chef is a dentist."}},
	}
	ctx := context.Background()
	b := native.New(native.Options{})
	for _, tt := range tests {
		premises := parse(t, tt.premises...)
		l := newLabeller(b, premises, false)
		var lf [8]*labeller // per set of open labels (bit k: label k)
		for bits := 1; bits < 8; bits++ {
			lf[bits] = newLabeller(b, premises, false)
		}
		for _, h := range parse(t, tt.hyps...) {
			want, werr := Decide(ctx, b, premises, h, false)
			got, ok, err := l.label(ctx, h, h.Meaning())
			if ok != want.Decided || got != want.Label || !errors.Is(err, werr) {
				t.Errorf("%v / %s: got %v %v %v, want %v %v %v", tt.premises, h.English(), got, ok, err, want.Label, want.Decided, werr)
			}
			for bits := 1; bits < 8; bits++ {
				open := [3]bool{bits&1 != 0, bits&2 != 0, bits&4 != 0}
				got, ok, err := lf[bits].labelFor(ctx, h, h.Meaning(), open)
				switch {
				case werr != nil || err != nil:
					if !errors.Is(err, werr) {
						t.Errorf("%v / %s open %v: error %v, want %v", tt.premises, h.English(), open, err, werr)
					}
				case !ok || (got == noLabel && open[want.Label]) || (got != noLabel && got != want.Label):
					t.Errorf("%v / %s open %v: got %v %v, want %v", tt.premises, h.English(), open, got, ok, want.Label)
				}
			}
		}
	}
}
