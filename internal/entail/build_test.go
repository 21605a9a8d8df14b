package entail

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/nlsat/nlsat/internal/canon"
	"github.com/nlsat/nlsat/internal/cardtest"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
	"github.com/nlsat/nlsat/internal/solver/z3"
	"github.com/nlsat/nlsat/internal/split"
)

// buildPlan is the plan of a build of f with the given record counts
// over the fragment's shipped region.
func buildPlan(t testing.TB, f fragments.Fragment, train, val, test int, audit bool) *BuildPlan {
	t.Helper()
	p, err := NewBuildPlan(BuildConfig{Fragment: f, Train: train, Validation: val, Test: test, Seed: 4,
		Sampler: fragments.DefaultSampler(), DrawLimit: 20, Audit: audit, Solver: "nlsat-native-1"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ManifestAudit is the audit built datasets record: the entailment
// task's, which audit_test.go (outside this package, as the task's
// package imports this one) sets.
var ManifestAudit split.AuditFunc

func buildOptions(dir string, workers int) BuildOptions {
	return BuildOptions{Dir: dir, Workers: workers, Audit: ManifestAudit, NewBackend: func() (solver.Backend, error) { return native.New(native.Options{}), nil },
		License: "cc-by-4.0", Toolkit: job.Toolkit{Name: "nlsat", Version: "test", Commit: "0000000"}, Command: "nlsat split --task entailment (test)"}
}

func sameTree(t *testing.T, what string, want, got map[string][]byte) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%s: %d files, want %d", what, len(got), len(want))
	}
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s: %s differs", what, name)
		}
	}
}

// TestBuild builds small entailment datasets and checks them as a user
// would (checkBuild); for S, the bytes are the same for 1 and 2 workers
// and after an interruption and a resume, and the Parquet build holds
// the JSONL build's records in the columns its card declares, as
// parquet-go and hyparquet (an independent reader) read them.
func TestBuild(t *testing.T) {
	cases := []struct {
		f               fragments.Fragment
		train, val, tst int
		all             bool // also -j 1, resumed and Parquet
	}{
		{fragments.S, 60, 30, 30, true},
		{fragments.V, 18, 9, 9, false},
	}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, c := range cases {
		t.Run(c.f.String(), func(t *testing.T) {
			p := buildPlan(t, c.f, c.train, c.val, c.tst, c.all)
			ref := t.TempDir()
			if _, err := Build(context.Background(), p, buildOptions(ref, 2)); err != nil {
				t.Fatal(err)
			}
			checkBuild(t, ref, true)
			if !c.all {
				return
			}
			want := cardtest.ReadTree(t, ref)
			one := t.TempDir()
			if _, err := Build(context.Background(), p, buildOptions(one, 1)); err != nil {
				t.Fatal(err)
			}
			sameTree(t, "-j 1", want, cardtest.ReadTree(t, one))
			resumed := t.TempDir()
			buildInterrupted(t, p, resumed)
			sameTree(t, "resumed", want, cardtest.ReadTree(t, resumed))
			if _, err := Build(context.Background(), p, buildOptions(resumed, 2)); !errors.Is(err, split.ErrAlreadyBuilt) {
				t.Errorf("building again into the same directory: %v, want ErrAlreadyBuilt", err)
			}
			pq := t.TempDir()
			o := buildOptions(pq, 2)
			o.Output = dataset.Output{Format: dataset.Parquet}
			if _, err := Build(context.Background(), p, o); err != nil {
				t.Fatal(err)
			}
			if err := split.Verify(pq); err != nil {
				t.Error(err)
			}
			if m, err := ReadManifest(filepath.Join(pq, split.ManifestFile)); err != nil || !strings.HasSuffix(m.Command, " --format parquet") {
				t.Errorf("the Parquet build's command does not reproduce its format: %v", err)
			}
			for _, sp := range p.Splits {
				name := filepath.Join(pq, "data", sp.Name+".parquet")
				cardtest.ParquetMatches(t, name, Features)
				cardtest.HFMetadataMatches(t, name, Features)
				header := cardtest.SameRowsHyparquet(t, name, filepath.Join(ref, filepath.FromSlash(sp.File)))
				cardtest.CheckHFMetadata(t, name+" (hyparquet)", cardtest.HyparquetHFMetadata(t, header), Features)
				for _, col := range []string{`"name":"label","type":"INT64"`, `"name":"premises","type":null,"logical":"LIST"`, `"name":"subset","type":null,"logical":"LIST"`} {
					if !bytes.Contains(header, []byte(col)) {
						t.Errorf("%s: hyparquet's schema has no %s: %s", name, col, header)
					}
				}
				rows, err := parquet.ReadFile[Record](name)
				if err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				enc := entailrec.NewEncoder(&got)
				for i := range rows {
					if err := enc.Encode(&rows[i]); err != nil {
						t.Fatal(err)
					}
				}
				if !bytes.Equal(got.Bytes(), want[sp.File]) {
					t.Errorf("%s: the Parquet rows are not the JSONL build's records", name)
				}
			}
		})
	}
}

// buildInterrupted builds p into dir, cancelled after a few triples,
// then again to the end.
func buildInterrupted(t *testing.T, p *BuildPlan, dir string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := buildOptions(dir, 1)
	o.CheckpointEvery = -1
	o.Progress = func(accepted, _ int) {
		if accepted == 5 {
			cancel()
		}
	}
	if _, err := Build(ctx, p, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want canceled", err)
	}
	if _, err := os.Stat(filepath.Join(dir, split.ManifestFile)); err == nil {
		t.Fatal("an interrupted build wrote its manifest")
	}
	if _, err := Build(context.Background(), p, buildOptions(dir, 2)); err != nil {
		t.Fatal(err)
	}
}

// zbackend returns z3 where it is compiled in (with the timeout of
// NLSAT_Z3_TIMEOUT, a duration, if set), else nil.
func zbackend(t *testing.T) solver.Backend {
	t.Helper()
	if !z3.Available() {
		t.Log("z3 is not compiled in (-tags noz3): labels are checked by their certificates only")
		return nil
	}
	var o z3.Options
	if s := os.Getenv("NLSAT_Z3_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("NLSAT_Z3_TIMEOUT=%s: %v", s, err)
		}
		o.Timeout = d
	}
	z, err := z3.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	return z
}

// verifyAll runs verify on every record, on as many workers as cores,
// each with its own native decider and z3 (if withZ3 and compiled in).
func verifyAll(t *testing.T, recs []*Record, withZ3 bool) {
	t.Helper()
	next := make(chan *Record)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		b := native.New(native.Options{})
		var zb solver.Backend
		if withZ3 {
			zb = zbackend(t)
		}
		wg.Go(func() {
			for r := range next {
				verify(context.Background(), t, b, zb, r)
			}
		})
	}
	for _, r := range recs {
		next <- r
	}
	close(next)
	wg.Wait()
}

// checkBuild checks an entailment dataset directory as its card promises:
// the checksums verify; every split holds its size; every stratum of
// every split (of every fragment, in a joint build) holds the three labels
// equally; a triple's three records (one seed) are in one split, one per
// label, of one of the plan's fragments; no premise set is in two
// triples, as written or up to renaming and order, whatever their
// fragments; the card's features
// are the records' keys in order; and every record is valid, its
// certificate proves its label (native decider; models checked), and
// z3 (withZ3, where compiled in) decides both sides as the label says wherever it
// decides them.
func checkBuild(t *testing.T, dir string, withZ3 bool) {
	t.Helper()
	if err := split.Verify(dir); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(filepath.Join(dir, split.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	checkCard(t, dir)
	if m.Plan.Audit {
		checkAudit(t, m)
	}
	seeds := map[string][]int{}
	seedSplit := map[string]string{}
	exact, renamed := map[string]string{}, map[string]string{}
	var all []*Record
	lx := fragments.Default()
	for j, sp := range m.Plan.Splits {
		recs := readRecords(t, filepath.Join(dir, filepath.FromSlash(m.Files[j].Path)))
		if len(recs) != sp.Size {
			t.Errorf("%s: %d records, want %d", sp.Name, len(recs), sp.Size)
		}
		type stratum struct {
			fragment  string
			m, n1, n2 int
		}
		strata := map[stratum][3]int{}
		for i := range recs {
			r := &recs[i]
			if err := r.Validate(); err != nil {
				t.Error(err)
				continue
			}
			if !slices.Contains(m.Plan.Fragments(), r.Fragment) {
				t.Errorf("record %s is of fragment %s, not one of %s", r.ID, r.Fragment, m.Plan.Fragment)
			}
			if !strings.HasPrefix(r.ID, r.Fragment+"-") {
				t.Errorf("record %s of fragment %s is not named by it", r.ID, r.Fragment)
			}
			k := stratum{r.Fragment, r.M, r.N1, r.N2}
			c := strata[k]
			c[r.Label]++
			strata[k] = c
			seeds[r.Seed] = append(seeds[r.Seed], r.Label)
			if s, ok := seedSplit[r.Seed]; ok && s != sp.Name {
				t.Errorf("triple %s is in %s and %s", r.Seed, s, sp.Name)
			}
			seedSplit[r.Seed] = sp.Name
			if len(seeds[r.Seed]) == 1 {
				// Keyed as A's: the same sentences are one premise set
				// in any fragment.
				inst := fragments.Instance{Fragment: fragments.A, Nouns: r.Nouns, Verbs: r.Verbs}
				for _, e := range r.Premises {
					s, err := lx.Parse(e)
					if err != nil {
						t.Fatal(err)
					}
					inst.Sentences = append(inst.Sentences, s)
				}
				ek := strings.Join(slices.Sorted(slices.Values(r.Premises)), "\n")
				for _, d := range []struct {
					seen map[string]string
					key  string
				}{{exact, ek}, {renamed, canon.Key(inst)}} {
					if other, ok := d.seen[d.key]; ok {
						t.Errorf("triples %s and %s have the same premises (up to renaming)", other, r.Seed)
					}
					d.seen[d.key] = r.Seed
				}
			}
			all = append(all, r)
		}
		perFragment := map[string]int{}
		for k, c := range strata {
			if c[0] != c[1] || c[1] != c[2] {
				t.Errorf("%s: stratum %v has labels %v", sp.Name, k, c)
			}
			perFragment[k.fragment] += c[0] + c[1] + c[2]
		}
		for _, f := range m.Plan.Fragments() {
			if n := perFragment[f]; n != sp.Size/len(m.Plan.Fragments()) {
				t.Errorf("%s: %d records of fragment %s, want %d", sp.Name, n, f, sp.Size/len(m.Plan.Fragments()))
			}
		}
	}
	verifyAll(t, all, withZ3)
	for seed, ls := range seeds {
		if slices.Sort(ls); !slices.Equal(ls, []int{0, 1, 2}) {
			t.Errorf("triple %s has labels %v", seed, ls)
		}
	}
}

// checkAudit checks that the manifest holds the audit of every pair of
// labels on validation and test, and that no baseline shows a shortcut
// in any of them.
func checkAudit(t *testing.T, m *Manifest) {
	t.Helper()
	var rep struct {
		Pairs []struct {
			Pair string `json:"pair"`
		} `json:"pairs"`
		ThreeWay []struct {
			Split   string `json:"split"`
			Verdict struct {
				Shortcut bool   `json:"shortcut"`
				Text     string `json:"text"`
			} `json:"verdict"`
		} `json:"three_way"`
	}
	if err := json.Unmarshal(m.Audit, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Pairs) != 3 || len(rep.ThreeWay) != 2 {
		t.Fatalf("the audit has %d pairs and %d splits, want 3 and 2: %.300s", len(rep.Pairs), len(rep.ThreeWay), m.Audit)
	}
	for _, tw := range rep.ThreeWay {
		t.Logf("audit of %s: %s", tw.Split, tw.Verdict.Text)
		if tw.Verdict.Shortcut {
			t.Errorf("the audit finds a shortcut in %s: %s", tw.Split, tw.Verdict.Text)
		}
	}
}

// checkCard checks that the card declares the features the records
// hold: the names of the first record's keys, in order, and label and
// label_binary as ClassLabels with MNLI's and the binary names.
func checkCard(t *testing.T, dir string) {
	t.Helper()
	card, err := os.ReadFile(filepath.Join(dir, split.CardFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(card, []byte(Features)) {
		t.Fatal("the card does not declare the record's features")
	}
	cardtest.CheckInfo(t, card)
	fs := cardtest.Features(t, Features)
	data, err := dataset.ReadFile(filepath.Join(dir, "data", "train.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	dec := json.NewDecoder(bytes.NewReader(line))
	var keys []string
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	if !slices.Equal(keys, names) {
		t.Errorf("the records' keys are %v, the card's features %v", keys, names)
	}
	for _, want := range []string{"'0': entailment\n          '1': neutral\n          '2': contradiction\n", "'0': entailed\n          '1': not entailed\n"} {
		if !bytes.Contains(card, []byte(want)) {
			t.Errorf("the card lacks the class names %q", want)
		}
	}
	// The card states both pilots of the balance, as the plan has them.
	m, err := ReadManifest(filepath.Join(dir, split.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Plan; p.Pilot == 0 || p.Residual != p.Pilot {
		t.Errorf("the plan's pilots: %d and a residual %d, want a pilot and a residual pilot as large", p.Pilot, p.Residual)
	}
	for _, want := range []string{fmt.Sprintf("So a pilot of %d triples", m.Plan.Pilot), fmt.Sprintf("a residual pilot of %d triples", m.Plan.Residual)} {
		if !bytes.Contains(card, []byte(want)) {
			t.Errorf("the card lacks %q", want)
		}
	}
}

// TestBuildPlanErrors checks what NewBuildPlan refuses.
func TestBuildPlanErrors(t *testing.T) {
	for _, c := range []struct {
		train, val, test int
		want             string
	}{
		{10, 3, 3, "--train 10"},
		{9, 4, 3, "--validation 4"},
		{0, 3, 3, "--train must be above 0"},
	} {
		_, err := NewBuildPlan(BuildConfig{Fragment: fragments.S, Train: c.train, Validation: c.val, Test: c.test, Sampler: fragments.DefaultSampler(), DrawLimit: 20})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d/%d/%d: %v, want %q", c.train, c.val, c.test, err, c.want)
		}
	}
}

// TestBuiltDatasets checks whole entailment datasets built beforehand
// (scripts/entail-builds.sh builds 3,000 / 300 / 300 of V and of A):
// NLSAT_ENTAIL_DIRS names their directories, comma-separated. Without it
// the test is skipped; TestBuild checks small builds the same way.
func TestBuiltDatasets(t *testing.T) {
	dirs := os.Getenv("NLSAT_ENTAIL_DIRS")
	if dirs == "" {
		t.Skip("NLSAT_ENTAIL_DIRS is not set (scripts/entail-builds.sh sets it)")
	}
	for _, dir := range strings.Split(dirs, ",") {
		clear(z3Sides)
		t.Run(filepath.Base(dir), func(t *testing.T) { checkBuild(t, dir, true) })
		t.Logf("%s: z3 decided %d sides as the labels say (%d sat, %d unsat) and left %d undecided",
			dir, z3Sides[solver.Sat]+z3Sides[solver.Unsat], z3Sides[solver.Sat], z3Sides[solver.Unsat], z3Sides[solver.Unknown])
	}
}
