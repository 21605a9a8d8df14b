package generate

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

func TestNewPlan(t *testing.T) {
	def := fragments.DefaultSampler()
	region := filepath.Join(t.TempDir(), "region.json")
	os.WriteFile(region, []byte(`{"fragment": "S", "band": {"lo": 0.3, "hi": 0.7}, "sampler": {"own_share": 0.5, "neg_prob": 0.5, "distinct": true}, "points": [{"m": 8, "n1": 6, "n2": 0}]}`), 0o644)
	tests := []struct {
		name   string
		o      Options
		err    string
		n1, n2 Range
		frag   string
	}{
		{"defaults with verbs", Options{Fragment: fragments.V, Sampler: def, Count: 5, SolverName: "native"}, "", Range{3, 8}, Range{3, 8}, "V"},
		{"defaults without verbs", Options{Fragment: fragments.W, Sampler: def, Count: 5}, "", Range{6, 16}, Range{}, "W"},
		{"given ranges", Options{Fragment: fragments.A, Sampler: def, Count: 5, N1: &Range{4, 5}, N2: &Range{2, 2}}, "", Range{4, 5}, Range{2, 2}, "A"},
		{"region adopts its fragment", Options{Fragment: fragments.A, Sampler: def, Count: 5, Region: region}, "", Range{}, Range{}, "S"},
		{"region of another fragment", Options{Fragment: fragments.A, FragmentSet: true, Sampler: def, Count: 5, Region: region}, "is a region of fragment S", Range{}, Range{}, ""},
		{"region and ranges", Options{Fragment: fragments.S, Sampler: def, Count: 5, Region: region, N1: &Range{6, 6}}, "alternatives", Range{}, Range{}, ""},
		{"count", Options{Fragment: fragments.S, Sampler: def}, "--count must be at least 1", Range{}, Range{}, ""},
		{"share", Options{Fragment: fragments.S, Sampler: fragments.SamplerParams{OwnShare: 2}, Count: 1}, "must lie in [0, 1]", Range{}, Range{}, ""},
		{"distractors without a solver", Options{Fragment: fragments.S, Sampler: def, Count: 1, Distractors: 2, Solver: "none"}, "needs a solver", Range{}, Range{}, ""},
		{"too many sentences", Options{Fragment: fragments.S, Sampler: def, Count: 1, M: &Range{500, 500}, N1: &Range{6, 6}}, "", Range{}, Range{}, "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPlan(tt.o)
			switch {
			case tt.frag == "error":
				if err == nil {
					t.Fatal("an undrawable corner was accepted")
				}
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want %q", err, tt.err)
				}
			case err != nil:
				t.Fatal(err)
			case p.Fragment != tt.frag || len(p.Region) == 0 && (p.N1 != tt.n1 || p.N2 != tt.n2):
				t.Errorf("got %s n1 %v n2 %v, want %s %v %v", p.Fragment, p.N1, p.N2, tt.frag, tt.n1, tt.n2)
			}
		})
	}
}

// TestItem checks that an item depends on its index alone, carries its
// seed, and is labelled and certified only with a backend.
func TestItem(t *testing.T) {
	p, err := NewPlan(Options{Fragment: fragments.Z, Sampler: fragments.DefaultSampler(), Seed: 4, Count: 10, SolverName: "native"})
	if err != nil {
		t.Fatal(err)
	}
	b := native.New(native.Options{})
	for i := range 10 {
		a, err := p.Item(context.Background(), b, i)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := p.Item(context.Background(), b, i)
		if !reflect.DeepEqual(a, again) {
			t.Errorf("item %d differs between two draws", i)
		}
		r := a.Record
		if r == nil || r.Seed != "4:"+strconv.Itoa(i) || r.Label < 0 || (r.Label == 0) != (len(r.Certificate.MUS) > 0) || a.Point != [3]int{r.M, r.N1, r.N2} {
			t.Errorf("item %d: %+v", i, a)
		}
		bare, _ := p.Item(context.Background(), nil, i)
		if bare.Record.Label != -1 || bare.Record.Solver != "" || bare.status() != solver.Unknown || bare.Record.Text != r.Text {
			t.Errorf("item %d without a solver: %+v", i, bare.Record)
		}
	}
}
