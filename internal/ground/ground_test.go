package ground

import (
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/sat"
)

// exists reports, by enumerating every structure of size k over the
// sentences' signature, whether one is a model.
func exists(t *testing.T, fs []fol.Formula, k int) bool {
	sig, err := fol.SignatureOf(fs...)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for p := range sig {
		names = append(names, p)
	}
	slices.Sort(names)
	bits := 0
	for _, p := range names {
		bits += map[int]int{1: k, 2: k * k}[sig[p]]
	}
	for m := 0; m < 1<<bits; m++ {
		st, i := fol.NewStructure(k, sig), 0
		next := func() bool { b := m>>i&1 == 1; i++; return b }
		for _, p := range names {
			if sig[p] == 1 {
				for a := range k {
					st.Unary[p][a] = next()
				}
				continue
			}
			for a := range k {
				for b := range k {
					st.Binary[p][a][b] = next()
				}
			}
		}
		if j, err := fol.EvalAll(fs, st); err == nil && j < 0 {
			return true
		}
	}
	return false
}

// TestAgainstEnumeration compares Model and ModelLazily with enumeration
// of all structures on sampled instances of every fragment over two nouns and one
// verb (words may repeat), at sizes 1 to 3: a model must satisfy the
// sentences, and no model must mean that enumeration finds none.
func TestAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	params := fragments.DefaultParams()
	params.Distinct = false
	var s sat.Solver
	found := 0
	n := 60
	if v, err := strconv.Atoi(os.Getenv("NLSAT_GROUND_N")); err == nil {
		n = v
	}
	if testing.Short() {
		n = 20
	}
	for i := range n {
		f := fragments.All()[i%5]
		n2 := 0
		if f.HasVerbs() {
			n2 = 1
		}
		in, err := fragments.Sample(rng, f, params, 2+rng.IntN(4), 2, n2)
		if err != nil {
			t.Fatal(err)
		}
		fs := in.Formulas()
		c, err := Compile(fs)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= 3; k++ {
			want := exists(t, fs, k)
			for _, search := range searches {
				st, err := search.model(c, &s, k)
				if err != nil {
					t.Fatal(err)
				}
				if st != nil {
					found++
					if st.Size != k {
						t.Errorf("%s, instance %d: size %d, want %d", search.name, i, st.Size, k)
					}
					if j, err := fol.EvalAll(fs, st); err != nil || j >= 0 {
						t.Errorf("%s, instance %d size %d: the model fails sentence %d (%v)", search.name, i, k, j+1, err)
					}
				} else if want {
					t.Errorf("%s, instance %d: no model of size %d found, enumeration finds one\n%v", search.name, i, k, in.English())
				}
			}
		}
	}
	t.Logf("%d models found in %d searches", found, 3*n*len(searches))
}

// searches are the two ways of looking for a model of a given size.
var searches = []struct {
	name  string
	model func(c *Sentences, s *sat.Solver, k int) (*fol.Structure, error)
}{
	{"Model", (*Sentences).Model},
	{"ModelLazily", func(c *Sentences, s *sat.Solver, k int) (*fol.Structure, error) { return c.ModelLazily(s, k, 0) }},
}

// TestManySentences grounds 150 sentences over 40 nouns (quantifier slots
// are per sentence, not per set) and checks the model found.
func TestManySentences(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	in, err := fragments.Sample(rng, fragments.W, fragments.DefaultParams(), 150, 40, 0)
	if err != nil {
		t.Fatal(err)
	}
	fs := in.Formulas()
	var s sat.Solver
	for k := 1; k <= 3; k++ {
		st, err := Model(&s, fs, k)
		if err != nil {
			t.Fatal(err)
		}
		if st != nil {
			if j, err := fol.EvalAll(fs, st); err != nil || j >= 0 {
				t.Errorf("size %d: the model fails sentence %d (%v)", k, j+1, err)
			}
		}
	}
}
