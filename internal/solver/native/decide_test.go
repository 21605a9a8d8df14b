package native

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestDecideHandBuilt decides small problems whose labels are argued in
// the comments.
func TestDecideHandBuilt(t *testing.T) {
	u := func(pos bool, p string) fol.Formula { return ul(pos, p, vx) }
	uy := func(pos bool, p string) fol.Formula { return ul(pos, p, vy) }
	tests := []struct {
		name string
		fs   []fol.Formula
		want solver.Status
	}{
		// Design §2: the existential witnesses a (¬p2, ¬p0, ¬p1) and b (p0)
		// are distinct types; r2(b,a) is forced (a is a non-p1) and
		// forbidden (b is a p0, a a non-p2). Plain elimination says sat.
		{"clique conflict", []fol.Formula{
			every(u(true, "p0"), obj(false, uy(false, "p2"), false, "r2")),
			some(fol.Conj(u(false, "p2"), u(false, "p0")), u(false, "p1")),
			some(u(true, "p0"), obj(false, uy(false, "p1"), true, "r2")),
		}, solver.Unsat},
		// Dropping the universal removes the conflict.
		{"clique conflict minus one", []fol.Formula{
			some(fol.Conj(u(false, "p2"), u(false, "p0")), u(false, "p1")),
			some(u(true, "p0"), obj(false, uy(false, "p1"), true, "r2")),
		}, solver.Sat},
		// S: the p of the third sentence is both a q and not a q.
		{"S unsat", []fol.Formula{every(u(true, "p"), u(true, "q")), every(u(true, "p"), u(false, "q")),
			some(u(true, "p"), u(true, "o")), some(u(true, "q"), u(true, "o")), every(u(true, "s"), u(true, "o"))}, solver.Unsat},
		// S: universals only; an element that is not a p satisfies both.
		{"S sat no existential", []fol.Formula{every(u(true, "p"), u(true, "q")), every(u(true, "p"), u(false, "q"))}, solver.Sat},
		// S: all are q, so none is o, so all are p, but no q is a p; the
		// domain is not empty.
		{"S unsat by non-empty domain", []fol.Formula{every(u(true, "p"), u(true, "q")), every(u(false, "p"), u(true, "q")),
			every(u(true, "q"), u(false, "o")), every(u(false, "o"), u(true, "p")), every(u(true, "q"), u(false, "p"))}, solver.Unsat},
		// W: the same o ∧ p both is and is not a q.
		{"W unsat", []fol.Formula{some(fol.Conj(u(true, "o"), u(true, "p")), u(true, "q")),
			every(fol.Conj(u(true, "o"), u(true, "p")), u(false, "q"))}, solver.Unsat},
		// W with a repeated noun: the universal's guard o ∧ ¬o is vacuous.
		{"W vacuous guard", []fol.Formula{every(fol.Conj(u(true, "o"), u(false, "o")), u(true, "q")),
			some(u(true, "o"), u(false, "q"))}, solver.Sat},
		// V: the required r-edge to a q is forbidden.
		{"V unsat", []fol.Formula{some(u(true, "p"), obj(true, uy(true, "q"), true, "r")),
			every(u(true, "p"), obj(false, uy(true, "q"), false, "r"))}, solver.Unsat},
		// V: a p can be its own witness.
		{"V self witness", []fol.Formula{every(u(true, "p"), obj(true, uy(true, "p"), true, "r")),
			some(u(true, "p"), u(true, "q"))}, solver.Sat},
		// V: everyone is a q, and every q needs a non-q.
		{"V unsat witness", []fol.Formula{every(u(true, "p"), u(true, "q")), every(u(false, "p"), u(true, "q")),
			every(u(true, "q"), obj(true, uy(false, "q"), true, "r"))}, solver.Unsat},
		// Z: the o that r's some p must be a q, yet no o is a q.
		{"Z unsat", []fol.Formula{every(fol.Conj(u(true, "o"), obj(true, uy(true, "p"), true, "r")), u(true, "q")),
			some(u(true, "o"), obj(true, uy(true, "p"), true, "r")), every(u(true, "o"), u(false, "q"))}, solver.Unsat},
		// A: a requirement and its negation.
		{"A unsat", []fol.Formula{some(u(true, "p"), obj(true, arc(true, "q", true, "s"), true, "r")),
			every(u(true, "p"), obj(false, arc(true, "q", true, "s"), false, "r"))}, solver.Unsat},
		// A with r = s: every p r's some p who does not r him. No p can
		// witness itself (r(a,a) ∧ ¬r(a,a)), so witnesses are distinct;
		// a 3-cycle of p's works.
		{"A r = s distinct witnesses", []fol.Formula{every(u(true, "p"), obj(true, arc(true, "p", false, "r"), true, "r")),
			some(u(true, "p"), u(true, "q"))}, solver.Sat},
		// A with r = s: some p r's every p who does not r him, and does not
		// r itself: r(a,a) false makes a a "p who does not r him", so
		// r(a,a) is forced; contradiction.
		{"A r = s reflexive", []fol.Formula{some(u(true, "p"), fol.Conj(obj(false, arc(true, "p", false, "r"), true, "r"),
			obj(false, uy(true, "p"), false, "r")))}, solver.Unsat},
		// Generic shapes beyond the templates: every element needs an
		// r-successor that does not r it back; a 3-cycle does it.
		{"generic tournament", []fol.Formula{all(vx, ex(vy, fol.Conj(fol.Binary("r", vx, vy), not(fol.Binary("r", vy, vx)))))}, solver.Sat},
		// r is total, yet some pair is not in r.
		{"generic total", []fol.Formula{all(vx, all(vy, fol.Binary("r", vx, vy))),
			ex(vx, ex(vy, not(fol.Binary("r", vx, vy))))}, solver.Unsat},
		// r is irreflexive in the sense that r-related elements differ in p,
		// and every element has an r-successor: p alternates; sat.
		{"generic alternation", []fol.Formula{all(vx, all(vy, imp(fol.Binary("r", vx, vy),
			fol.Disj(fol.Conj(ul(true, "p", vx), ul(false, "p", vy)), fol.Conj(ul(false, "p", vx), ul(true, "p", vy)))))),
			all(vx, ex(vy, fol.Binary("r", vx, vy)))}, solver.Sat},
	}
	b := New(Options{})
	for _, tc := range tests {
		p := &solver.Problem{Sentences: tc.fs}
		res, err := b.Solve(context.Background(), p)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if res.Status != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, res.Status, tc.want)
		}
		if res.Status == solver.Sat {
			if err := solver.CheckModel(p, res.Model); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
		if res.Status == solver.Unsat {
			checkCore(t, tc.name, b, p, res.Core)
		}
	}
}

// TestManyNouns checks that a problem with verbs and many nouns is
// decided (the lazy search has no noun limit), and that the explicit
// search, whose memory grows with 2^nouns, gives up above its cap.
func TestManyNouns(t *testing.T) {
	var fs []fol.Formula
	for i := range 10 {
		p := string(rune('a' + i))
		fs = append(fs, every(ul(true, p, vx), obj(true, ul(true, p+"2", vy), true, "r")))
	}
	fs = append(fs, some(ul(true, "a", vx), ul(true, "b", vx)))
	p := &solver.Problem{Sentences: fs}
	res, err := New(Options{}).Solve(context.Background(), p)
	if err != nil || res.Status != solver.Sat {
		t.Errorf("lazy: got %v %v %q %v, want sat", res.Status, res.Reason, res.Detail, err)
	}
	res, err = New(Options{Explicit: true, ExplicitNouns: 8}).Solve(context.Background(), p)
	if err != nil || res.Status != solver.Unknown || res.Reason != solver.GaveUp || res.Detail == "" {
		t.Errorf("explicit: got %v %v %q %v, want unknown gave-up with a detail", res.Status, res.Reason, res.Detail, err)
	}
}

// TestCanceled checks that a canceled context gives Unknown, Canceled.
func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fs := []fol.Formula{every(ul(true, "p", vx), obj(true, ul(true, "q", vy), true, "r"))}
	res, err := New(Options{}).Solve(ctx, &solver.Problem{Sentences: fs})
	if err != nil || res.Status != solver.Unknown || res.Reason != solver.Canceled {
		t.Errorf("got %v %v %v, want unknown canceled", res.Status, res.Reason, err)
	}
}

// TestNodeBudget checks the fallback past the search budget: the
// clique-conflict example needs 3 nodes; with a budget of 1 both searches
// hand over to the one-shot encoding, which must refute it too.
func TestNodeBudget(t *testing.T) {
	fs := []fol.Formula{
		every(ul(true, "p0", vx), obj(false, ul(false, "p2", vy), false, "r2")),
		some(fol.Conj(ul(false, "p2", vx), ul(false, "p0", vx)), ul(false, "p1", vx)),
		some(ul(true, "p0", vx), obj(false, ul(false, "p1", vy), true, "r2")),
	}
	for _, o := range []Options{{MaxNodes: 1}, {MaxNodes: 1, Explicit: true}} {
		res, err := New(o).Solve(context.Background(), &solver.Problem{Sentences: fs})
		if err != nil || res.Status != solver.Unsat || res.Stats["one_shot"] != 1 {
			t.Errorf("explicit %v: got %v %v %v, want unsat by the one-shot encoding", o.Explicit, res.Status, res.Stats["one_shot"], err)
		}
	}
}

// TestOneShot forces the one-shot encoding (a node budget of 1) on random
// V, Z, A instances, the Vconf mix and sampled ones, and compares its
// answers with the default search's; Solve checks every model.
func TestOneShot(t *testing.T) {
	n := envInt(t, "NLSAT_ONESHOT_N", 120)
	if testing.Short() {
		n = 25
	}
	rng := rand.New(rand.NewPCG(31, 32))
	def, one := New(Options{}), New(Options{MaxNodes: 1})
	used := 0
	for i := range n {
		var fs []fol.Formula
		switch i % 3 {
		case 0:
			g := newGen(rng, 3+rng.IntN(5), 1+rng.IntN(3), false)
			for range len(g.nouns) + rng.IntN(3*len(g.nouns)) {
				fs = append(fs, g.vconf())
			}
		case 1:
			fs = newGen(rng, 2+rng.IntN(5), 1+rng.IntN(3), i%4 == 0).instance(2+i%3, 3+rng.IntN(12))
		default:
			fs = sampleAt(t, rng, fragments.All()[2+i%3], true).Formulas()
		}
		p := &solver.Problem{Sentences: fs}
		a, err1 := def.Solve(context.Background(), p)
		b, err2 := one.Solve(context.Background(), p)
		if err1 != nil || err2 != nil {
			t.Fatalf("instance %d: %v / %v", i, err1, err2)
		}
		if a.Status != b.Status || b.Status == solver.Unknown {
			t.Errorf("instance %d: default %v, one-shot %v (%s)", i, a.Status, b.Status, b.Detail)
		}
		if b.Stats["one_shot"] == 1 {
			used++
		}
	}
	t.Logf("%d of %d instances went to the one-shot encoding", used, n)
}

// checkCore checks that an Unsat core lists increasing valid indices and
// is itself Unsat.
func checkCore(t *testing.T, name string, b *Backend, p *solver.Problem, core []int) {
	t.Helper()
	sub := &solver.Problem{}
	for i, j := range core {
		if j < 0 || j >= len(p.Sentences) || (i > 0 && core[i-1] >= j) {
			t.Errorf("%s: bad core %v", name, core)
			return
		}
		sub.Sentences = append(sub.Sentences, p.Sentences[j])
	}
	res, err := b.Solve(context.Background(), sub)
	if err != nil || res.Status != solver.Unsat {
		t.Errorf("%s: core %v is %v (%v), want unsat", name, core, res.Status, err)
	}
}

// TestLargeSizes decides sampled V, Z, A instances with n1 = n2 = 17, 24
// and 64 (the last sets the top bit of a 64-noun pattern) near the phase
// change: every one is decided, Solve checks the models, and the unsat
// cores must be unsat. There used to be a limit of 16 nouns.
func TestLargeSizes(t *testing.T) {
	b := New(Options{})
	rng := rand.New(rand.NewPCG(17, 24))
	per := 4
	if testing.Short() {
		per = 1
	}
	mult := map[fragments.Fragment]float64{fragments.V: 2.5, fragments.Z: 2.9, fragments.A: 3.5}
	for _, f := range []fragments.Fragment{fragments.V, fragments.Z, fragments.A} {
		for _, n := range []int{17, 24, 64} {
			for range per {
				in, err := fragments.Sample(rng, f, fragments.DefaultParams(), int(mult[f]*float64(n)), n, n)
				if err != nil {
					t.Fatal(err)
				}
				p := &solver.Problem{Sentences: in.Formulas()}
				res, err := b.Solve(context.Background(), p)
				if err != nil || res.Status == solver.Unknown {
					t.Fatalf("%v n=%d: %v %v %s", f, n, res.Status, err, res.Detail)
				}
				if res.Status == solver.Unsat {
					checkCore(t, fmt.Sprintf("%v n=%d", f, n), b, p, res.Core)
				}
			}
		}
	}
}

// TestMemoryBudget checks that a search past Options.MaxMemory is an
// error wrapping ErrMemory that names the budget, on the lazy path, the
// explicit one and the model builder, and that a generous budget decides.
func TestMemoryBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 24))
	in, err := fragments.Sample(rng, fragments.A, fragments.DefaultParams(), 84, 24, 24)
	if err != nil {
		t.Fatal(err)
	}
	p := &solver.Problem{Sentences: in.Formulas()}
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"lazy", Options{MaxMemory: 16 << 10}},
		{"explicit", Options{Explicit: true, ExplicitNouns: 24, MaxMemory: 16 << 20}},
	} {
		res, err := New(tc.o).Solve(context.Background(), p)
		if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), FormatBytes(tc.o.MaxMemory)) || res.Status != solver.Unknown {
			t.Errorf("%s: got %v, %v; want an ErrMemory naming %s", tc.name, res.Status, err, FormatBytes(tc.o.MaxMemory))
		}
	}
	if res, err := New(Options{MaxMemory: 1 << 30}).Solve(context.Background(), p); err != nil || res.Status == solver.Unknown {
		t.Errorf("1 GiB: got %v, %v", res.Status, err)
	}
	tb := &typer[p1]{nverbs: 24, budget: 1 << 20}
	if err := tb.modelFits(200); !errors.Is(err, ErrMemory) {
		t.Errorf("a model of 200 elements over 24 verbs in 1 MiB: %v", err)
	}
}
