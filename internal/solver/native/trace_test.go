package native

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// TestTrace records, per instance of a fixed mix (the sampler's main and
// generalisation sizes, the random generator, the Vconf mix, ground and
// capped modes, minimal cores), a digest of everything Solve returns but
// the time: status, reason, detail, core, stats and the model. Equal
// traces mean the same decisions, which is how a change meant only for
// speed is checked: the trace must equal testdata/trace.golden (rewritten
// by -update). NLSAT_TRACE=file writes the trace to file instead, with
// NLSAT_TRACE_N instances per fragment (default 200, the golden's).
func TestTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("decision trace skipped in -short mode")
	}
	path := os.Getenv("NLSAT_TRACE")
	var f strings.Builder
	n := envInt(t, "NLSAT_TRACE_N", 200)
	defer func() {
		if t.Failed() {
			return
		}
		checkTrace(t, path, f.String())
	}()
	modes := []*Backend{New(Options{}), New(Options{Ground: true}), New(Options{MaxClosure: 4})}
	emit := func(tag string, b *Backend, fs []fol.Formula) solver.Result {
		p := &solver.Problem{Sentences: fs}
		res, err := b.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		fmt.Fprintf(&f, "%s %v %s\n", tag, res.Status, digest(res))
		return res
	}
	for _, fr := range fragments.All() {
		rng := rand.New(rand.NewPCG(41, uint64(fr)))
		cores := 0
		for i := range n {
			fs := sampleAt(t, rng, fr, i%4 != 3).Formulas()
			res := emit(fmt.Sprintf("main/%v/%d", fr, i), modes[0], fs)
			if fr >= fragments.V && i%3 == 0 {
				emit(fmt.Sprintf("ground/%v/%d", fr, i), modes[1], fs)
				emit(fmt.Sprintf("capped/%v/%d", fr, i), modes[2], fs)
			}
			if res.Status == solver.Unsat && cores < 10 {
				cores++
				mus, err := solver.MinimalCore(context.Background(), modes[0], &solver.Problem{Sentences: fs}, res.Core)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&f, "mus/%v/%d %v\n", fr, i, mus)
			}
		}
		for i := range n / 4 {
			emit(fmt.Sprintf("gen/%v/%d", fr, i), modes[0], sampleGen(t, rng, fr).Formulas())
		}
	}
	rng := rand.New(rand.NewPCG(42, 43))
	for i := range 2 * n {
		g := newGen(rng, 1+rng.IntN(5), 1+rng.IntN(3), i%3 == 0)
		emit(fmt.Sprintf("rand/%d", i), modes[0], g.instance(i%5, 2+rng.IntN(10)))
	}
	for i := range n / 2 {
		g := newGen(rng, 3+rng.IntN(6), 1+rng.IntN(3), false)
		var fs []fol.Formula
		for range len(g.nouns) + rng.IntN(3*len(g.nouns)) {
			fs = append(fs, g.vconf())
		}
		emit(fmt.Sprintf("vconf/%d", i), modes[0], fs)
		emit(fmt.Sprintf("vconf-ground/%d", i), modes[1], fs)
	}
}

// checkTrace writes got to path if it is set, else compares it with (or,
// with -update, writes it to) testdata/trace.golden.
func checkTrace(t *testing.T, path, got string) {
	if path == "" {
		path = filepath.Join("testdata", "trace.golden")
		if !*update {
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("decision trace differs from %s; run go test -update and review the diff", path)
			}
			return
		}
	}
	if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
}

// digest hashes a result without its elapsed time.
func digest(res solver.Result) string {
	h := sha256.New()
	fmt.Fprintf(h, "%v|%v|%s|%v|", res.Status, res.Reason, res.Detail, res.Core)
	keys := make([]string, 0, len(res.Stats))
	for k := range res.Stats {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%v,", k, res.Stats[k])
	}
	if st := res.Model; st != nil {
		writeStructure(h, st)
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:8])
}

func writeStructure(w io.Writer, st *fol.Structure) {
	fmt.Fprintf(w, "size %d;", st.Size)
	var names []string
	for p := range st.Unary {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		fmt.Fprintf(w, "%s %v;", p, st.Unary[p])
	}
	names = names[:0]
	for r := range st.Binary {
		names = append(names, r)
	}
	slices.Sort(names)
	for _, r := range names {
		fmt.Fprintf(w, "%s %s;", r, strings.Trim(fmt.Sprint(st.Binary[r]), "[]"))
	}
}
