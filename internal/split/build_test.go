package split

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nlsat/nlsat/internal/audit"
	"github.com/nlsat/nlsat/internal/canon"
	"github.com/nlsat/nlsat/internal/cardtest"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/golden"
	"github.com/nlsat/nlsat/internal/job"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/solver/native"
)

// smallPlan is a plan of fragment f with the three main splits from the
// shipped region and, for S and A, the two further sets. Its balance
// pilots are of at most testPilot candidates.
// testPilot caps the balance pilots of smallPlan's builds. A pilot is the
// larger part of a small build's decisions (the default would draw 2,240
// for 280 records, and as many for the residual stage), and the tests
// of shards, resumes, workers and formats compare builds with each
// other, whatever their pilots; the tests of what the balance achieves,
// and the card's golden, set DefaultPilot.
const testPilot = 1000

func smallPlan(t testing.TB, f fragments.Fragment, train, val, test, gen, zero int) *Plan {
	t.Helper()
	r, err := phase.DefaultRegion(f)
	if err != nil {
		t.Fatal(err)
	}
	pts := r.Points
	p := &Plan{Fragment: f.String(), Seed: 3, Dedup: DedupRenaming, DrawLimit: 20, Solver: "nlsat-native-1",
		Sampler: fragments.DefaultSampler(),
		Balance: Balance{Mode: BalanceSurface, Pilot: testPilot, Residual: true}}
	main := Pool{Name: "main", Source: "test region", Strata: RegionStrata(pts)}
	for _, s := range []struct {
		name string
		n    int
	}{{Train, train}, {Validation, val}, {Test, test}} {
		sp, err := NewSplit(s.name, s.n, len(main.Strata))
		if err != nil {
			t.Fatal(err)
		}
		main.Splits = append(main.Splits, sp)
	}
	p.Pools = append(p.Pools, main)
	if gen > 0 {
		a, b, c, d := GeneralisationSizes(f)
		pl := Pool{Name: Generalisation, Source: "test", Strata: SizeStrata(f, a, b, c, d)}
		sp, err := NewSplit(Generalisation, gen, len(pl.Strata))
		if err != nil {
			t.Fatal(err)
		}
		pl.Splits = []Split{sp}
		p.Pools = append(p.Pools, pl)
	}
	if zero > 0 {
		a, b, c, d := ZeroShotSizes(f)
		pl := Pool{Name: ZeroShot, Source: "test", Strata: TotalStrata(f, a, b, c, d)}
		sp, err := NewSplit(ZeroShot, zero, len(pl.Strata))
		if err != nil {
			t.Fatal(err)
		}
		pl.Splits = []Split{sp}
		p.Pools = append(p.Pools, pl)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	return p
}

func testOptions(dir string, workers int) Options {
	return Options{Dir: dir, Workers: workers, Audit: audit.ForManifest(TaskAudit), NewBackend: func() (solver.Backend, error) { return native.New(native.Options{}), nil }, License: "cc-by-4.0",
		Toolkit: Toolkit{Name: "nlsat", Version: "test", Commit: "0000000"}, Command: "nlsat split (test)"}
}

func sameTree(t *testing.T, want, got map[string][]byte) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("file sets differ: %d vs %d files", len(want), len(got))
	}
	for name, w := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s missing", name)
		} else if !bytes.Equal(w, g) {
			t.Errorf("%s differs (%d vs %d bytes)", name, len(w), len(g))
		}
	}
}

// recordKeys is the order and JSON type of every key of a record, as the
// card's features declare them.
var recordKeys = []struct{ name, kind string }{
	{"id", "string"}, {"fragment", "string"}, {"text", "string"}, {"sentences", "[]string"},
	{"label", "int"}, {"label_text", "string"}, {"m", "int"}, {"n1", "int"}, {"n2", "int"},
	{"alpha", "number"}, {"beta", "number"}, {"nouns", "[]string"}, {"verbs", "[]string"},
	{"templates", "[]string"}, {"formulas", "[]string"}, {"solver", "string"},
	{"certificate", "object"}, {"seed", "string"},
	{"difficulty", "object"}, {"distractors", "[]int"}, {"distractor_mode", "string"},
}

// checkSchema reads a line with encoding/json alone and checks its keys,
// their order and their JSON types.
func checkSchema(t *testing.T, where string, line []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%s: not an object", where)
	}
	rec := map[string]any{}
	for i := 0; dec.More(); i++ {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if i >= len(recordKeys) || tok != recordKeys[i].name {
			t.Fatalf("%s: key %d is %v, want %s", where, i, tok, recordKeys[min(i, len(recordKeys)-1)].name)
		}
		if !hasKind(v, recordKeys[i].kind) {
			t.Fatalf("%s: %s = %v is not of type %s", where, tok, v, recordKeys[i].kind)
		}
		rec[recordKeys[i].name] = v
	}
	if len(rec) != len(recordKeys) {
		t.Fatalf("%s: %d keys, want %d", where, len(rec), len(recordKeys))
	}
	cert := rec["certificate"].(map[string]any)
	if !hasKind(cert["model_size"], "int") || !hasKind(cert["mus"], "[]int") || len(cert) != 2 {
		t.Fatalf("%s: certificate %v", where, cert)
	}
	return rec
}

func hasKind(v any, kind string) bool {
	switch kind {
	case "string":
		_, ok := v.(string)
		return ok
	case "int":
		n, ok := v.(json.Number)
		_, err := n.Int64()
		return ok && err == nil
	case "number":
		n, ok := v.(json.Number)
		_, err := n.Float64()
		return ok && err == nil
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "[]string", "[]int":
		xs, ok := v.([]any)
		for _, x := range xs {
			ok = ok && hasKind(x, kind[2:])
		}
		return ok
	}
	return false
}

func TestBuildSmall(t *testing.T) {
	frags := []fragments.Fragment{fragments.S, fragments.V}
	if testing.Short() {
		frags = frags[:1] // V's build is the full suite's
	}
	for _, f := range frags {
		t.Run(f.String(), func(t *testing.T) {
			p := smallPlan(t, f, 600, 120, 120, 170, 120)
			dir := t.TempDir()
			m, err := Run(context.Background(), p, testOptions(dir, 2))
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, dir, p, m)
		})
	}
}

// checkDataset checks a built dataset independently of the builder: sizes,
// exact balance per stratum, no duplicate as written or up to renaming
// anywhere, the schema of every line, the manifest's checksums and
// sha256sum's view of SHA256SUMS.
func checkDataset(t *testing.T, dir string, p *Plan, m *Manifest) {
	t.Helper()
	exact, renamed := map[string]string{}, map[string]string{}
	ids := map[string]bool{}
	for k, pl := range p.Pools {
		for _, sp := range pl.Splits {
			data, err := os.ReadFile(filepath.Join(dir, sp.File))
			if err != nil {
				t.Fatal(err)
			}
			type cell struct{ sat, unsat int }
			cells := map[string]*cell{}
			lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
			if len(lines) != sp.Size {
				t.Errorf("%s: %d lines, want %d", sp.File, len(lines), sp.Size)
			}
			for i, line := range lines {
				where := fmt.Sprintf("%s:%d", sp.File, i+1)
				rec := checkSchema(t, where, line)
				id := rec["id"].(string)
				if ids[id] {
					t.Errorf("%s: id %s repeated", where, id)
				}
				ids[id] = true
				// Stratum from the record's own sizes.
				m, _ := rec["m"].(json.Number).Int64()
				n1, _ := rec["n1"].(json.Number).Int64()
				n2, _ := rec["n2"].(json.Number).Int64()
				key := stratumKey(pl, int(m), int(n1), int(n2))
				if key == "" {
					t.Fatalf("%s: (m, n1, n2) = (%d, %d, %d) is in no stratum of set %s", where, m, n1, n2, pl.Name)
				}
				if cells[key] == nil {
					cells[key] = &cell{}
				}
				if rec["label"].(json.Number).String() == "1" {
					cells[key].sat++
				} else {
					cells[key].unsat++
				}
				inst := parseInstance(t, where, rec)
				ek, rk := canon.ExactKey(inst), canon.Key(inst)
				if prev, ok := exact[ek]; ok {
					t.Errorf("%s: same sentences as %s", where, prev)
				}
				if prev, ok := renamed[rk]; ok {
					t.Errorf("%s: same problem up to renaming as %s", where, prev)
				}
				exact[ek], renamed[rk] = where, where
			}
			for s, st := range pl.Strata {
				c := cells[st.Key]
				if c == nil {
					c = &cell{}
				}
				if c.sat != sp.Pairs[s] || c.unsat != sp.Pairs[s] {
					t.Errorf("%s: stratum %s has %d sat, %d unsat; want %d each", sp.File, st.Key, c.sat, c.unsat, sp.Pairs[s])
				}
			}
		}
		_ = k
	}
	if err := Verify(dir); err != nil {
		t.Fatal(err)
	}
	for _, fr := range m.Files {
		data, _ := os.ReadFile(filepath.Join(dir, fr.Path))
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != fr.SHA256 || int64(len(data)) != fr.Bytes {
			t.Errorf("%s: manifest checksum or size wrong", fr.Path)
		}
	}
	if path, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command(path, "-c", "--quiet", SumsFile)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c: %v\n%s", err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, workDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("work directory left behind: %v", err)
	}
}

func stratumKey(pl Pool, m, n1, n2 int) string {
	for _, st := range pl.Strata {
		for _, pt := range st.Points {
			if pt.M == m && pt.N1 == n1 && pt.N2 == n2 {
				return st.Key
			}
		}
	}
	return ""
}

// parseInstance rebuilds an instance from a record's sentences.
func parseInstance(t *testing.T, where string, rec map[string]any) fragments.Instance {
	t.Helper()
	f, err := fragments.ParseFragment(rec["fragment"].(string))
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	inst := fragments.Instance{Fragment: f}
	for _, s := range rec["sentences"].([]any) {
		sent, err := fragments.Parse(s.(string))
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		inst.Sentences = append(inst.Sentences, sent)
	}
	return inst
}

func TestBuildWorkersAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a dataset several times")
	}
	p := smallPlan(t, fragments.V, 400, 60, 60, 0, 60)
	ref := t.TempDir()
	if _, err := Run(context.Background(), p, testOptions(ref, 1)); err != nil {
		t.Fatal(err)
	}
	want := cardtest.ReadTree(t, ref)

	t.Run("workers", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := Run(context.Background(), p, testOptions(dir, 3)); err != nil {
			t.Fatal(err)
		}
		sameTree(t, want, cardtest.ReadTree(t, dir))
	})
	// Interrupt the build at several points (once per set and at its
	// end), resuming each time, and compare with the uninterrupted build.
	t.Run("interrupted", func(t *testing.T) {
		dir := t.TempDir()
		stops := []int{1, 150, 399, 519, 30}
		for round := 0; ; round++ {
			ctx, cancel := context.WithCancel(context.Background())
			o := testOptions(dir, 2)
			seen := 0
			o.Progress = func(set string, accepted, total, label int) {
				seen++
				if round < len(stops) && seen == stops[round] {
					cancel()
				}
			}
			_, err := Run(ctx, p, o)
			cancel()
			if err == nil {
				break
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, "data")); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("round %d: data directory exists before the build is complete", round)
			}
			if round > len(stops) {
				t.Fatal("the build does not finish")
			}
		}
		sameTree(t, want, cardtest.ReadTree(t, dir))
	})
	// A crash leaves the partial files longer than the checkpoint says:
	// resuming cuts them back.
	t.Run("crash", func(t *testing.T) {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		o := testOptions(dir, 2)
		o.Progress = func(set string, accepted, total, label int) {
			if accepted >= 200 {
				cancel()
			}
		}
		if _, err := Run(ctx, p, o); !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want canceled", err)
		}
		// Garbage after the checkpointed lengths, as a crash mid-write
		// leaves it.
		for _, name := range []string{Train + ".jsonl", "keys"} {
			f, err := os.OpenFile(filepath.Join(dir, workDir, name), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(`{"id":"half-writ`)
			f.Close()
		}
		if _, err := Run(context.Background(), p, testOptions(dir, 2)); err != nil {
			t.Fatal(err)
		}
		sameTree(t, want, cardtest.ReadTree(t, dir))
	})
	// The checkpoint names the models' file: a resumed build that cannot
	// read it refuses, naming it, and writes no data.
	t.Run("models lost", func(t *testing.T) {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		o := testOptions(dir, 2)
		o.Progress = func(set string, accepted, total, label int) { cancel() }
		if _, err := Run(ctx, p, o); !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want canceled", err)
		}
		models := filepath.Join(dir, workDir, "models-0"+packedExt)
		if err := os.Remove(models); err != nil {
			t.Fatal(err)
		}
		_, err := Run(context.Background(), p, testOptions(dir, 2))
		if err == nil || !strings.Contains(err.Error(), models) {
			t.Fatalf("got %v, want an error naming %s", err, models)
		}
		if _, err := os.Stat(filepath.Join(dir, "data")); !errors.Is(err, os.ErrNotExist) {
			t.Error("a data directory was written")
		}
	})
	t.Run("already built", func(t *testing.T) {
		if _, err := Run(context.Background(), p, testOptions(ref, 2)); !errors.Is(err, ErrAlreadyBuilt) {
			t.Fatalf("got %v, want ErrAlreadyBuilt", err)
		}
	})
}

func TestBuildRefuses(t *testing.T) {
	p := smallPlan(t, fragments.S, 80, 0, 0, 0, 0)
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) *Plan
		want  string
	}{
		{"non-empty directory", func(t *testing.T, dir string) *Plan {
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
			return p
		}, "is not empty"},
		{"another plan's unfinished build", func(t *testing.T, dir string) *Plan {
			ctx, cancel := context.WithCancel(context.Background())
			o := testOptions(dir, 1)
			o.Progress = func(string, int, int, int) { cancel() }
			Run(ctx, p, o)
			q := *p
			q.Seed++
			return &q
		}, "unfinished run of another configuration"},
		{"unfillable stratum", func(t *testing.T, dir string) *Plan {
			q := smallPlan(t, fragments.S, 80, 0, 0, 0, 0)
			// 40 sentences over 6 nouns are never satisfiable.
			q.Pools[0].Strata[0] = Stratum{Key: "m=40 n1=6 n2=0", Points: []phase.Point{{M: 40, N1: 6}}}
			q.DrawLimit = 1
			return q
		}, "stratum m=40 n1=6 n2=0 drew"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			q := tt.setup(t, dir)
			_, err := Run(context.Background(), q, testOptions(dir, 1))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "data")); !errors.Is(err, os.ErrNotExist) {
				t.Error("data written by a refused build")
			}
		})
	}
}

func TestVerifyCatchesTampering(t *testing.T) {
	p := smallPlan(t, fragments.W, 100, 20, 20, 0, 0)
	dir := t.TempDir()
	if _, err := Run(context.Background(), p, testOptions(dir, 2)); err != nil {
		t.Fatal(err)
	}
	if err := Verify(dir); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "data", "test.jsonl")
	data, _ := os.ReadFile(name)
	os.WriteFile(name, bytes.Replace(data, []byte(`"label":1`), []byte(`"label":0`), 1), 0o644)
	if err := Verify(dir); err == nil || !strings.Contains(err.Error(), "test.jsonl") {
		t.Fatalf("tampered file not caught: %v", err)
	}
}

// TestCardGolden pins the dataset card and the manifest of a small build.
func TestCardGolden(t *testing.T) {
	p := smallPlan(t, fragments.Z, 200, 40, 40, 100, 0)
	p.Balance.Pilot = DefaultPilot // the card of a build with the default pilot
	dir := t.TempDir()
	if _, err := Run(context.Background(), p, testOptions(dir, 2)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{CardFile, ManifestFile, SumsFile} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "small-Z."+name), got)
		if name == CardFile {
			cardtest.CheckInfo(t, got)
		}
	}
}

func TestNewSplit(t *testing.T) {
	tests := []struct {
		size, n int
		want    []int
		err     bool
	}{
		{10, 3, []int{2, 2, 1}, false},
		{6000, 9, []int{334, 334, 334, 333, 333, 333, 333, 333, 333}, false},
		{4, 5, []int{1, 1, 0, 0, 0}, false},
		{7, 2, nil, true},
	}
	for _, tt := range tests {
		sp, err := NewSplit("x", tt.size, tt.n)
		if (err != nil) != tt.err {
			t.Fatalf("NewSplit(%d, %d): error %v", tt.size, tt.n, err)
		}
		if err == nil && !reflect.DeepEqual(sp.Pairs, tt.want) {
			t.Errorf("NewSplit(%d, %d) = %v, want %v", tt.size, tt.n, sp.Pairs, tt.want)
		}
	}
}

func TestPaperSizes(t *testing.T) {
	for _, f := range fragments.All() {
		a, b, c, d := ZeroShotSizes(f)
		zs := TotalStrata(f, a, b, c, d)
		if len(zs) != 6 || zs[0].Key != "n=5" || zs[5].Key != "n=10" {
			t.Errorf("%v: zero-shot strata %v, want n=5..10", f, zs)
		}
		a, b, c, d = GeneralisationSizes(f)
		gs := SizeStrata(f, a, b, c, d)
		want := 85
		if f == fragments.S || f == fragments.W {
			want = 9
		}
		if len(gs) != want {
			t.Errorf("%v: %d generalisation strata, want %d", f, len(gs), want)
		}
	}
}

// TestDedupRejects builds from a point with few distinct problems up to
// renaming (though nouns come from the whole vocabulary, so exact copies
// are rare), and checks that the renaming rule rejects candidates and
// leaves none in the data, while the exact rule lets them through.
func TestDedupRejects(t *testing.T) {
	for _, rule := range []string{DedupRenaming, DedupExact} {
		t.Run(rule, func(t *testing.T) {
			p := smallPlan(t, fragments.S, 40, 0, 0, 0, 0)
			p.Dedup = rule
			p.Balance = Balance{Mode: BalanceStrata} // every candidate meets the rules
			p.Pools[0].Strata = []Stratum{{Key: "m=2 n1=2 n2=0", Points: []phase.Point{{M: 2, N1: 2}}}}
			p.Pools[0].Splits = p.Pools[0].Splits[:1]
			p.Pools[0].Splits[0].Pairs = []int{6}
			p.Pools[0].Splits[0].Size = 12
			dir := t.TempDir()
			m, err := Run(context.Background(), p, testOptions(dir, 2))
			if err != nil {
				t.Fatal(err)
			}
			if rule == DedupRenaming {
				if m.Sets[0].DuplicatesRenaming == 0 {
					t.Error("no candidate rejected as a renamed copy")
				}
				checkDataset(t, dir, p, m)
				return
			}
			if m.Sets[0].DuplicatesRenaming != 0 {
				t.Errorf("the exact rule rejected %d renamed copies", m.Sets[0].DuplicatesRenaming)
			}
			data, _ := os.ReadFile(filepath.Join(dir, "data", "train.jsonl"))
			keys := map[string]bool{}
			copies := 0
			for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
				k := canon.Key(parseInstance(t, fmt.Sprint("line ", i+1), checkSchema(t, "train", line)))
				if keys[k] {
					copies++
				}
				keys[k] = true
			}
			if copies == 0 {
				t.Error("no renamed copies under the exact rule: the test does not exercise the difference")
			}
		})
	}
}

// TestShardsMerge builds a dataset unsharded, as 1 shard and as 3 shards
// (run concurrently), merges the shards and compares the bytes.
func TestShardsMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a dataset sharded and unsharded")
	}
	p := smallPlan(t, fragments.V, 300, 60, 60, 0, 60)
	ref := t.TempDir()
	if _, err := Run(context.Background(), p, testOptions(ref, 2)); err != nil {
		t.Fatal(err)
	}
	want := cardtest.ReadTree(t, ref)
	shards := func(n int) []string {
		dirs := make([]string, n)
		for j := range dirs {
			dirs[j] = filepath.Join(t.TempDir(), fmt.Sprint("shard", j))
		}
		return dirs
	}
	var three []string
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprint(n, " shards in turns"), func(t *testing.T) {
			dirs := shards(n)
			out := filepath.Join(t.TempDir(), "merged")
			if _, err := shardTurns(context.Background(), p, dirs, out, 1); err != nil {
				t.Fatal(err)
			}
			sameTree(t, want, cardtest.ReadTree(t, out))
			if n == 3 {
				three = dirs
			}
		})
	}
	if three == nil {
		t.FailNow()
	}
	// The shards removed their pilots once the merge had fitted the
	// balance to them: the merge that did can go on, but a new one is
	// refused, not misled.
	t.Run("a new merge of finished shards", func(t *testing.T) {
		for _, dir := range three {
			m, err := job.Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range m.Files {
				_, gone := os.Stat(filepath.Join(dir, f.Path))
				if pilot := strings.HasSuffix(f.Set, "pilot"); f.Spent != pilot || pilot != errors.Is(gone, fs.ErrNotExist) {
					t.Errorf("%s: %+v (file: %v); want the pilots, and only them, spent and removed", dir, f, gone)
				}
			}
		}
		out := filepath.Join(t.TempDir(), "merged")
		if _, err := merge(context.Background(), []string{three[2], three[0], three[1]}, testOptions(out, 2)); err == nil || !strings.Contains(err.Error(), "once a merge had read it") {
			t.Fatalf("got %v, want a refusal", err)
		}
	})

	// Refusals, each with its own message.
	other := smallPlan(t, fragments.V, 300, 60, 60, 0, 60)
	other.Seed++
	otherDir := filepath.Join(t.TempDir(), "other")
	if _, err := RunShard(context.Background(), other, Shard{Index: 1, Count: 3}, testOptions(otherDir, 2)); !errors.Is(err, ErrWaiting) {
		t.Fatalf("a shard before its first merge: got %v, want ErrWaiting", err)
	}
	tampered := filepath.Join(t.TempDir(), "tampered")
	copyDir(t, three[1], tampered)
	cardtest.EditGzip(t, filepath.Join(tampered, "main.jsonl.gz"), func(s string) string {
		return strings.Replace(s, `"label":1`, `"label":0`, 1)
	})
	tests := []struct {
		name string
		dirs []string
		want string
	}{
		{"another seed", []string{three[0], otherDir, three[2]}, "another configuration or seed"},
		{"missing shard", []string{three[0], three[2]}, "shards [1] of 3 are missing"},
		{"shard twice", []string{three[0], three[1], three[1], three[2]}, "shard 1 is given twice"},
		{"tampered file", []string{three[0], tampered, three[2]}, "was changed or truncated"},
		{"not a shard", []string{three[0], t.TempDir(), three[2]}, "is not a finished shard"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "merged")
			_, err := merge(context.Background(), tt.dirs, testOptions(out, 1))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Error("a refused merge wrote output")
			}
		})
	}
}

func TestShardsTooFewCandidates(t *testing.T) {
	p := smallPlan(t, fragments.S, 2000, 0, 0, 0, 0)
	// Without the surface balance, whose pilot every shard draws in full.
	p.Balance = Balance{Mode: BalanceStrata}
	dir := filepath.Join(t.TempDir(), "shard")
	if _, err := RunShard(context.Background(), p, Shard{Index: 0, Count: 1, Oversample: 0.01}, testOptions(dir, 2)); err != nil {
		t.Fatal(err)
	}
	_, err := merge(context.Background(), []string{dir}, testOptions(filepath.Join(t.TempDir(), "out"), 1))
	if err == nil || !strings.Contains(err.Error(), "higher --oversample") {
		t.Fatalf("got %v, want a request for more candidates", err)
	}
}

// merge checks the shard directories and merges them.
func merge(ctx context.Context, dirs []string, o Options) (*Manifest, error) {
	src, err := job.OpenShards(dirs)
	if err != nil {
		return nil, err
	}
	return Merge(ctx, src, o)
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	for name, data := range cardtest.ReadTree(t, from) {
		dst := filepath.Join(to, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestShardsMergeMinCore: under --min-core, the shards say which unsat
// candidates hold a core below it, so the merge keeps them out as one
// process does. (The candidate lines once left that out, and a sharded
// build let such instances in.)
func TestShardsMergeMinCore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a dataset sharded and unsharded")
	}
	p := smallPlan(t, fragments.V, 200, 40, 40, 0, 0)
	p.MinCore = 3
	ref := t.TempDir()
	if _, err := Run(context.Background(), p, testOptions(ref, 2)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "merged")
	if _, err := shardTurns(context.Background(), p, []string{filepath.Join(t.TempDir(), "shard0"), filepath.Join(t.TempDir(), "shard1")}, out, 2); err != nil {
		t.Fatal(err)
	}
	sameTree(t, cardtest.ReadTree(t, ref), cardtest.ReadTree(t, out))
}

// TestShardResume interrupts a shard in each of its turns and compares
// the finished shard with one run straight through, and the merges of
// both.
func TestShardResume(t *testing.T) {
	p := smallPlan(t, fragments.W, 400, 40, 40, 0, 60)
	ref := filepath.Join(t.TempDir(), "ref")
	refMerged := filepath.Join(t.TempDir(), "merged")
	if _, err := shardTurns(context.Background(), p, []string{filepath.Join(t.TempDir(), "shard0"), ref}, refMerged, 2); err != nil {
		t.Fatal(err)
	}
	sh := Shard{Index: 1, Count: 2}
	// Shard 0 again, uninterrupted, for the merge of the resumed shard:
	// the first one's pilots were spent in the reference's turns.
	other := filepath.Join(t.TempDir(), "shard0")
	dir := filepath.Join(t.TempDir(), "resumed")
	merged := filepath.Join(t.TempDir(), "merged")
	turns := 0
	for ; turns < 4; turns++ {
		if _, err := RunShard(context.Background(), p, Shard{Index: 0, Count: 2}, testOptions(other, 2)); err != nil && !errors.Is(err, ErrWaiting) {
			t.Fatal(err)
		}
		// Stopped after 40 candidates, then run to the end of its turn.
		for try, stop := range []int{40, -1} {
			ctx, cancel := context.WithCancel(context.Background())
			o := testOptions(dir, 2)
			seen := 0
			o.Progress = func(string, int, int, int) {
				if seen++; seen == stop {
					cancel()
				}
			}
			_, err := RunShard(ctx, p, sh, o)
			cancel()
			if stop >= 0 && !errors.Is(err, context.Canceled) || stop < 0 && err != nil && !errors.Is(err, ErrWaiting) {
				t.Fatalf("turn %d, try %d: %v", turns, try, err)
			}
		}
		if _, err := merge(context.Background(), []string{other, dir}, testOptions(merged, 2)); !errors.Is(err, ErrWaiting) {
			if err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if turns != 2 {
		t.Errorf("the shard took %d turns after its first, want 2 (pilots, residual pilots, candidates)", turns)
	}
	m, err := job.Read(dir)
	if err != nil || !m.Done() {
		t.Fatalf("the resumed shard is not done: %+v, %v", m, err)
	}
	// The shard stopped drawing each stratum at its quota, well inside
	// its budget.
	budget := 0
	for s := range p.Pools[0].Strata {
		budget += (p.budget(0, s, 1.2) + 1) / 2
	}
	for _, f := range m.Files {
		if f.Set == p.Pools[0].Name && f.Rows >= budget*3/4 {
			t.Errorf("the shard wrote %d candidates of %s, its budget %d: the quota did not stop it", f.Rows, f.Set, budget)
		}
	}
	sameTree(t, cardtest.ReadTree(t, ref), cardtest.ReadTree(t, dir))
	sameTree(t, cardtest.ReadTree(t, refMerged), cardtest.ReadTree(t, merged))
}

// TestInterruptDuringFit: an interrupt while the surface-balance models
// are fitted stops the build without waiting for the fit (here one that
// does not end until the test lets it), and writes no data.
func TestInterruptDuringFit(t *testing.T) {
	if testing.Short() {
		t.Skip("labels a pilot")
	}
	p := smallPlan(t, fragments.V, 400, 60, 60, 0, 60)
	release := make(chan struct{})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fit := fitModelsFunc
	defer func() { fitModelsFunc = fit }()
	fitModelsFunc = func([]surface, []int8, []int, func(int) float64) *balanceModels {
		cancel()
		<-release
		return nil
	}
	dir := t.TempDir()
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, p, testOptions(dir, 2))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want canceled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the interrupted build waited for the fit")
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a data directory was written")
	}
}

// TestWorkFiles: what saveWork writes (packed and gzip-compressed) reads
// back through readWork, as do the JSON files, plain or gzip-compressed,
// that earlier versions wrote for a checkpoint that names them; a corrupt
// one is refused, named.
func TestWorkFiles(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, workDir), 0o755)
	b := &builder{opt: Options{Dir: dir}}
	want := map[string][]int{"pairs": {3, 1, 4, 1, 5}}
	var file string
	if err := b.saveWork("models-0", want, &file); err != nil || file != "models-0.packed.gz" {
		t.Fatalf("saved as %q: %v", file, err)
	}
	os.WriteFile(filepath.Join(dir, workDir, "models-1.json"), []byte(`{"pairs":[3,1,4,1,5]}`), 0o644)
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte(`{"pairs":[3,1,4,1,5]}`))
	w.Close()
	os.WriteFile(filepath.Join(dir, workDir, "models-2.json.gz"), z.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, workDir, "models-3.json.gz"), []byte(`{"pairs":[3,1,4,1,5]}`), 0o644)
	os.WriteFile(filepath.Join(dir, workDir, "models-4.packed.gz"), z.Bytes(), 0o644)
	tests := []struct {
		file, err string
	}{
		{"models-0.packed.gz", ""},
		{"models-1.json", ""},
		{"models-2.json.gz", ""},
		{"models-3.json.gz", "models-3.json.gz"},
		{"models-4.packed.gz", "models-4.packed.gz"},
	}
	for _, tt := range tests {
		var got map[string][]int
		err := readWork(filepath.Join(dir, workDir), tt.file, "the models", &got)
		switch {
		case tt.err == "" && (err != nil || !reflect.DeepEqual(got, want)):
			t.Errorf("%s: read %v, %v", tt.file, got, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: got %v, want an error naming it", tt.file, err)
		}
	}
}

// TestAuditAfterCollected holds that a build lets go of what chose its
// records (the acceptors' entries and counts, the dedup sets, all of which
// grow with the candidates, and the balance models) before the audit, the
// other large holder of memory, starts, and that the manifest still
// gives the models' pilot figures.
func TestAuditAfterCollected(t *testing.T) {
	p := smallPlan(t, fragments.V, 200, 40, 40, 0, 0)
	p.Audit = true
	seen := false
	testHookBeforeAudit = func(b *builder) {
		seen = true
		if b.exact != nil || b.renamed != nil {
			t.Errorf("the dedup sets are held during the audit: %d and %d keys", len(b.exact), len(b.renamed))
		}
		for k, a := range b.acceptors {
			if a.entries != nil || a.counts != nil {
				t.Errorf("set %d's entries are held during the audit", k)
			}
			if b.st.Pools[k].Models != nil {
				t.Errorf("set %d's balance models are held during the audit", k)
			}
		}
	}
	defer func() { testHookBeforeAudit = nil }()
	m, err := Run(context.Background(), p, testOptions(t.TempDir(), 2))
	if err != nil {
		t.Fatal(err)
	}
	if !seen {
		t.Fatal("the build ran no audit")
	}
	for _, sr := range m.Sets {
		if sr.Pilot == nil || sr.Pilot.Decided == 0 {
			t.Errorf("set %s: the manifest has no pilot figures: %+v", sr.Name, sr.Pilot)
		}
	}
}

// TestModelsReleasedAfterSet: once a set's candidates are all scored,
// its models' indices of their patterns are let go before the next
// pool's pilot is fitted, the build's largest step; so is the solver's
// memo of decided shapes, which the pilot's decisions filled.
func TestModelsReleasedAfterSet(t *testing.T) {
	p := smallPlan(t, fragments.V, 200, 40, 40, 0, 40)
	seen := false
	testHookFitPilot = func(b *builder, k int) {
		if k != 1 {
			return
		}
		seen = true
		if n := solver.ShapesHeld(); n != 0 {
			t.Errorf("the solver's memo holds %d subsets while the pilot is fitted", n)
		}
		m := b.st.Pools[0].Models
		if m == nil || m.Free == nil || len(m.Free.Pairs) == 0 || m.Residual == nil {
			t.Fatalf("train's models have no pair models or residual stage: %+v", m)
		}
		for j, ps := range m.Free.Pairs {
			if ps.column != nil {
				t.Errorf("train's pair model %d keeps its index while the next pilot is fitted", j)
			}
		}
		if m.Residual.column[0] != nil || m.Residual.column[1] != nil {
			t.Error("train's residual stage keeps its indices while the next pilot is fitted")
		}
	}
	defer func() { testHookFitPilot = nil }()
	if _, err := Run(context.Background(), p, testOptions(t.TempDir(), 2)); err != nil {
		t.Fatal(err)
	}
	if !seen {
		t.Fatal("the build fitted no second pilot")
	}
}
