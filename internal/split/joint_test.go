package split

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/canon"
	"github.com/nlsat/nlsat/internal/cardtest"
	"github.com/nlsat/nlsat/internal/fragments"
)

func TestParseFragments(t *testing.T) {
	tests := []struct {
		in, want string // want: the joined names, or an error's text
	}{
		{"A", "A"}, {"all", "S,W,V,Z,A"}, {"ALL", "S,W,V,Z,A"}, {"A,S", "S,A"}, {"s, w,S", "S,W"}, {"S,X", "unknown fragment"}, {"", "unknown fragment"},
	}
	for _, tt := range tests {
		fs, err := ParseFragments(tt.in)
		got := fragmentNames(fs)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("ParseFragments(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// jointConfig is a joint build's configuration: sizes per fragment.
func jointConfig(fs []fragments.Fragment, train, val, test int) Config {
	return Config{Fragment: fs[0], Fragments: fs, Train: train, Validation: val, Test: test, Seed: 5, Dedup: DedupRenaming, DrawLimit: 20,
		Sampler: fragments.DefaultSampler(), Holdout: HoldoutNone, Balance: BalanceSurface, Pilot: DefaultPilot, Audit: true, Solver: "native", SolverName: "nlsat-native-1"}
}

func TestJointPlan(t *testing.T) {
	all := fragments.All()
	p, err := NewPlan(jointConfig(all, 200, 40, 40))
	if err != nil {
		t.Fatal(err)
	}
	if p.Fragment != "S,W,V,Z,A" || !p.Joint() || len(p.Pools) != 10 {
		t.Fatalf("fragment %q, %d sets; want S,W,V,Z,A and 10", p.Fragment, len(p.Pools))
	}
	// Per fragment, train's set and the evaluation set of validation and
	// test, each with a pilot sized for all three splits.
	for k, pl := range p.Pools {
		f := all[k/2]
		name, splits, sizes := f.String(), []string{Train}, []int{200}
		if k%2 == 1 {
			name, splits, sizes = f.String()+"-evaluation", []string{Validation, Test}, []int{40, 40}
		}
		if pl.Name != name || p.PoolFrag(k) != f || p.PilotFor(k) != 2240 || len(pl.Splits) != len(splits) {
			t.Errorf("set %d: %s of %v, pilot %d, %d splits; want %s, pilot 2240 (8 times 280), %d splits", k, pl.Name, p.PoolFrag(k), p.PilotFor(k), len(pl.Splits), name, len(splits))
			continue
		}
		for t2, want := range sizes {
			if sp := pl.Splits[t2]; sp.Name != splits[t2] || sp.Size != want || sp.File != "data/"+sp.Name+".jsonl" {
				t.Errorf("set %s, split %s: size %d in %s, want %s of %d", pl.Name, sp.Name, sp.Size, sp.File, splits[t2], want)
			}
		}
	}
	// The residual stages of train's sets are fitted together, and those
	// of the evaluation sets.
	if got, want := p.ResidualGroups(), [][]int{{0, 2, 4, 6, 8}, {1, 3, 5, 7, 9}}; !p.Balance.Pooled || !reflect.DeepEqual(got, want) {
		t.Errorf("pooled %v, groups %v; want pooled, %v", p.Balance.Pooled, got, want)
	}
	if got := len(p.dataFiles()); got != 3 {
		t.Errorf("%d files, want 3", got)
	}
	// The card gives each fragment's lengths once, though it has two sets.
	var lengths strings.Builder
	cardLengths(&lengths, p)
	for _, f := range all {
		if n := strings.Count(lengths.String(), "- Lengths, fragment "+f.String()+":"); n != 1 {
			t.Errorf("the card gives fragment %v's lengths %d times, want once:\n%s", f, n, lengths.String())
		}
	}
	bad := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"region", func(c *Config) { c.RegionFile = "r.json" }, "--region"},
		{"holdout", func(c *Config) { c.Holdout = HoldoutSize }, "--holdout"},
		{"further sets", func(c *Config) { c.ZeroShot = 100 }, "--zero-shot"},
		{"word limit", func(c *Config) { c.MaxWords = 300 }, "--max-words"},
		{"odd size", func(c *Config) { c.Test = 41 }, "must be even"},
	}
	for _, tt := range bad {
		c := jointConfig(all, 200, 40, 40)
		tt.edit(&c)
		if _, err := NewPlan(c); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error about %s", tt.name, err, tt.want)
		}
	}
	one, err := NewPlan(jointConfig(all[:1], 200, 40, 40))
	if err != nil {
		t.Fatal(err)
	}
	if one.Balance.Pooled || one.ResidualGroups() != nil {
		t.Error("a build of one fragment pools its residual stages")
	}
	one.Balance.Pooled = true
	if err := one.Validate(); err == nil || !strings.Contains(err.Error(), "joint build") {
		t.Errorf("a plan of one fragment with pooled residual stages: %v, want an error", err)
	}
	p.Pools[2].Fragment = "S"
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "has train in another set") {
		t.Errorf("a plan with two train sets of S: %v, want an error", err)
	}
}

// TestJointBuild builds all five fragments together and checks the
// dataset independently of the builder; then that shards merge into, and
// an interrupted build resumes to, the same bytes.
func TestJointBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a joint dataset several times")
	}
	p, err := NewPlan(jointConfig(fragments.All(), 100, 20, 20))
	if err != nil {
		t.Fatal(err)
	}
	ref := t.TempDir()
	m, err := Run(context.Background(), p, testOptions(ref, 2))
	if err != nil {
		t.Fatal(err)
	}
	checkJoint(t, ref, p, m)
	want := cardtest.ReadTree(t, ref)
	if card := string(want["README.md"]); !strings.Contains(card, "The third models of train's sets were fitted together") {
		t.Error("the card does not say that the residual stages were fitted together")
	}
	t.Run("shards", func(t *testing.T) {
		dirs := []string{filepath.Join(t.TempDir(), "0"), filepath.Join(t.TempDir(), "1")}
		out := filepath.Join(t.TempDir(), "merged")
		if _, err := shardTurns(context.Background(), p, dirs, out, 2); err != nil {
			t.Fatal(err)
		}
		sameTree(t, want, cardtest.ReadTree(t, out))
	})
	// Interrupted halfway through the evaluation sets' residual pilot,
	// which all five fragments draw together and which starts again; in
	// the first set; and in the last, whose end writes the files of all
	// five from the sets collected before the resume.
	t.Run("interrupted", func(t *testing.T) {
		dir := t.TempDir()
		stops := []string{"joint-evaluation residual", "S", "A"}
		for round := 0; ; round++ {
			ctx, cancel := context.WithCancel(context.Background())
			o := testOptions(dir, 2)
			o.Progress = func(set string, accepted, total, label int) {
				if round < len(stops) && set == stops[round] && accepted >= total-3 {
					cancel()
				}
			}
			seen := 0
			o.Pilot = func(set string, total, label int) {
				if round < len(stops) && set == stops[round] {
					if seen++; seen == total/2 {
						cancel()
					}
				}
			}
			_, err := Run(ctx, p, o)
			cancel()
			if err == nil {
				if round != len(stops) {
					t.Fatalf("finished in round %d, before every stop", round)
				}
				break
			}
			if !errors.Is(err, context.Canceled) || round > len(stops) {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		sameTree(t, want, cardtest.ReadTree(t, dir))
	})
}

// checkJoint checks a joint dataset: every file holds each fragment's
// quota, half sat in every (fragment, stratum) and in every block of 20,
// ids unique and named by their record's fragment, no two instances the
// same as written or up to renaming whatever their fragments, and the
// checksums right.
func checkJoint(t *testing.T, dir string, p *Plan, m *Manifest) {
	t.Helper()
	seen := map[string]string{}
	for _, df := range p.dataFiles() {
		data, err := os.ReadFile(filepath.Join(dir, df.split.File))
		if err != nil {
			t.Fatal(err)
		}
		cells := map[string]*[2]int{}
		lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
		for i, line := range lines {
			where := fmt.Sprintf("%s:%d", df.split.File, i+1)
			rec := checkSchema(t, where, line)
			frag := rec["fragment"].(string)
			if id := rec["id"].(string); !strings.HasPrefix(id, frag+"-"+df.split.Name+"-") || !strings.HasSuffix(id, fmt.Sprintf("-%06d", i)) {
				t.Errorf("%s: id %s, want %s-%s-…-%06d", where, id, frag, df.split.Name, i)
			}
			k := slices.IndexFunc(p.Pools, func(pl Pool) bool { return pl.Fragment == frag })
			mm, _ := rec["m"].(json.Number).Int64()
			n1, _ := rec["n1"].(json.Number).Int64()
			n2, _ := rec["n2"].(json.Number).Int64()
			key := frag + " " + stratumKey(p.Pools[k], int(mm), int(n1), int(n2))
			if cells[key] == nil {
				cells[key] = &[2]int{}
			}
			label, _ := rec["label"].(json.Number).Int64()
			cells[key][label]++
			inst := parseInstance(t, where, rec)
			inst.Fragment = fragments.A // the same sentences in two fragments are one problem
			for _, key := range []string{canon.ExactKey(inst), canon.Key(inst)} {
				if prev, ok := seen[key]; ok {
					t.Errorf("%s: the same instance as %s", where, prev)
				}
				seen[key] = where
			}
		}
		for i := 0; i+20 <= len(lines); i += 20 {
			if n := bytes.Count(bytes.Join(lines[i:i+20], nil), []byte(`"label":1,`)); n != 10 {
				t.Errorf("%s: records %d to %d hold %d sat, want 10", df.split.File, i+1, i+20, n)
			}
		}
		for _, mb := range df.members {
			pl, sp := p.Pools[mb[0]], p.Pools[mb[0]].Splits[mb[1]]
			for s, st := range pl.Strata {
				if c := cells[pl.Fragment+" "+st.Key]; sp.Pairs[s] > 0 && (c == nil || c[0] != sp.Pairs[s] || c[1] != sp.Pairs[s]) {
					t.Errorf("%s: %s %s holds %v unsat/sat, want %d each", df.split.File, pl.Fragment, st.Key, c, sp.Pairs[s])
				}
			}
		}
	}
	if err := Verify(dir); err != nil {
		t.Fatal(err)
	}
	if len(m.Files) != 3 || len(m.Sets) != 10 {
		t.Errorf("manifest: %d files, %d sets; want 3 and 10 (train's and the evaluation set of each fragment)", len(m.Files), len(m.Sets))
	}
}
