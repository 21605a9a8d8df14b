package distract

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

func TestParseMode(t *testing.T) {
	tests := []struct {
		in      string
		want    Mode
		wantErr bool
	}{
		{"fresh", Fresh, false},
		{"implied", Implied, false},
		{"Fresh", 0, true},
		{"redundant", 0, true},
		{"", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseMode(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ParseMode(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err == nil && got.String() != tt.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tt.in)
		}
	}
}

// smallLexicon is the first nn nouns and nv verbs of the built-in
// vocabulary.
func smallLexicon(t *testing.T, nn, nv int) *fragments.Lexicon {
	t.Helper()
	lx, err := fragments.NewLexicon(fragments.Nouns()[:nn], fragments.Verbs()[:nv])
	if err != nil {
		t.Fatal(err)
	}
	return lx
}

// TestFreshAvoidsInstanceWords uses a lexicon only a few words larger
// than the instance, so that an instance word would be drawn often if
// the fresh pool leaked: every distractor word must lie outside the
// instance, and a lexicon with too few spare words is an error wrapping
// ErrNoDistractor.
func TestFreshAvoidsInstanceWords(t *testing.T) {
	tests := []struct {
		f          fragments.Fragment
		n1, n2, m  int
		spareN     int // lexicon nouns beyond the instance's
		spareV     int
		k          int
		wantNoRoom bool
	}{
		{fragments.S, 6, 0, 8, 3, 0, 3, false},
		{fragments.W, 6, 0, 8, 4, 0, 3, false},
		{fragments.V, 5, 3, 10, 4, 2, 3, false},
		{fragments.Z, 5, 3, 10, 4, 2, 3, false},
		{fragments.A, 5, 3, 10, 4, 3, 3, false},
		{fragments.S, 6, 0, 8, 1, 0, 1, true},
		{fragments.A, 5, 3, 10, 4, 1, 1, true},
	}
	b := native.New(native.Options{})
	for _, tt := range tests {
		p := fragments.DefaultParams()
		p.Lexicon = smallLexicon(t, tt.n1+tt.spareN, tt.n2+tt.spareV)
		for i := range 30 {
			rng := rand.New(rand.NewPCG(uint64(tt.f), uint64(i)))
			// The instance takes n1 of the n1+spareN nouns, so the spare
			// words differ from instance to instance.
			inst, err := fragments.Sample(rng, tt.f, p, tt.m, tt.n1, tt.n2)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Add(context.Background(), rng, b, inst, tt.k, Fresh, p)
			if tt.wantNoRoom {
				if !errors.Is(err, ErrNoDistractor) {
					t.Errorf("%s with %d spare nouns and %d spare verbs: got %v, want ErrNoDistractor", tt.f, tt.spareN, tt.spareV, err)
				}
				break
			}
			if errors.Is(err, solver.ErrUndecided) {
				continue
			}
			if err != nil {
				t.Fatalf("%s instance %d: %v", tt.f, i, err)
			}
			for _, j := range res.Added {
				s := res.Instance.Sentences[j]
				for _, w := range append(s.Nouns(), s.Verbs()...) {
					if slices.Contains(inst.Nouns, w) || slices.Contains(inst.Verbs, w) {
						t.Errorf("%s: fresh distractor %q uses the instance's word %q", tt.f, p.Lexicon.English(s), w)
					}
				}
			}
			eng := res.Instance.English()
			for _, j := range res.Added {
				back, err := p.Lexicon.Parse(eng[j])
				if err != nil || back != res.Instance.Sentences[j] {
					t.Errorf("%q does not parse back with the instance's lexicon: %v", eng[j], err)
				}
			}
		}
	}
}

// flipper answers like native but claims Unsat for any problem with more
// than limit sentences: a decider that distractors would fool.
type flipper struct {
	*native.Backend
	limit int
}

func (f flipper) Solve(ctx context.Context, p *solver.Problem) (solver.Result, error) {
	if len(p.Sentences) > f.limit {
		return solver.Result{Status: solver.Unsat}, nil
	}
	return f.Backend.Solve(ctx, p)
}

// TestLabelChangeIsAnError checks that Add's re-decision is a real check:
// with a backend whose answer changes once distractors are added, Add
// returns an error instead of a result.
func TestLabelChangeIsAnError(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, mode := range []Mode{Fresh, Implied} {
		checked := 0
		for i := 0; checked < 5 && i < 100; i++ {
			inst := sampleAt(t, rng, fragments.S)
			b := flipper{native.New(native.Options{}), len(inst.Sentences)}
			if solveWith(t, b, inst.Formulas()) != solver.Sat {
				continue
			}
			checked++
			_, err := Add(context.Background(), rng, b, inst, 2, mode, fragments.DefaultParams())
			if err == nil || !strings.Contains(err.Error(), "changed the label") {
				t.Errorf("%s: got error %v, want a changed label", mode, err)
			}
		}
		if checked < 5 {
			t.Errorf("%s: found only %d sat instances", mode, checked)
		}
	}
}

// TestZeroAndBadArguments covers k = 0 (the instance unchanged) and the
// argument errors.
func TestZeroAndBadArguments(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	b := native.New(native.Options{})
	inst := sampleAt(t, rng, fragments.V)
	for _, mode := range []Mode{Fresh, Implied} {
		res, err := Add(context.Background(), rng, b, inst, 0, mode, fragments.DefaultParams())
		if err != nil || len(res.Added) != 0 || !slices.Equal(res.Instance.English(), inst.English()) {
			t.Errorf("%s, k = 0: got %v added, error %v; want the instance unchanged", mode, res.Added, err)
		}
	}
	bad := []struct {
		name string
		k    int
		mode Mode
		inst fragments.Instance
	}{
		{"negative k", -1, Fresh, inst},
		{"no mode", 1, 0, inst},
		{"no fragment", 1, Fresh, fragments.Instance{Sentences: inst.Sentences}},
		{"sentence above the fragment", 1, Fresh, fragments.Instance{Fragment: fragments.S, Sentences: inst.Sentences}},
	}
	for _, tt := range bad {
		if _, err := Add(context.Background(), rng, b, tt.inst, tt.k, tt.mode, fragments.DefaultParams()); err == nil {
			t.Errorf("%s: got no error", tt.name)
		}
	}
}
