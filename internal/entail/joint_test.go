package entail

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nlsat/nlsat/internal/fragments"
)

// TestJointPlan checks a joint plan: its strata are every fragment's,
// each naming it; every split holds the sizes asked for per fragment, a
// third of them triples in each fragment's strata; its command asks for
// those sizes again; and a plan of one fragment names no fragment in its
// strata (its JSON, and so its digest and ids, are as before joint
// builds).
func TestJointPlan(t *testing.T) {
	fs := []fragments.Fragment{fragments.S, fragments.V}
	p := jointPlan(t, fs, 30, 15, 9, false)
	if !p.Joint() || p.Fragment != "S,V" || strings.Join(p.Fragments(), " ") != "S V" {
		t.Fatalf("fragment %q, joint %v", p.Fragment, p.Joint())
	}
	perFragment := map[string]int{}
	for s, st := range p.Strata {
		perFragment[st.Fragment]++
		if p.StratumFragment(s).String() != st.Fragment {
			t.Errorf("stratum %d: fragment %s, StratumFragment %s", s, st.Fragment, p.StratumFragment(s))
		}
	}
	for _, f := range fs {
		one := buildPlan(t, f, 30, 15, 9, false)
		if perFragment[f.String()] != len(one.Strata) {
			t.Errorf("%s: %d strata in the joint plan, %d alone", f, perFragment[f.String()], len(one.Strata))
		}
	}
	for _, sp := range p.Splits {
		want := map[string]int{"train": 30, "validation": 15, "test": 9}[sp.Name]
		if sp.Size != want*len(fs) {
			t.Errorf("%s: size %d, want %d", sp.Name, sp.Size, want*len(fs))
		}
		triples := map[string]int{}
		for s, n := range sp.Units {
			triples[p.Strata[s].Fragment] += n
		}
		for _, f := range fs {
			if triples[f.String()] != want/3 {
				t.Errorf("%s: %d triples of %s, want %d", sp.Name, triples[f.String()], f, want/3)
			}
		}
	}
	cmd := BuildConfig{}.Command(p, "native")
	if !strings.Contains(cmd, "--fragment S,V --train 30 --validation 15 --test 9 ") {
		t.Errorf("the command does not ask for the sizes per fragment: %s", cmd)
	}
	one, _ := json.Marshal(buildPlan(t, fragments.S, 30, 15, 9, false))
	var plain struct {
		Strata []map[string]any `json:"strata"`
	}
	if err := json.Unmarshal(one, &plain); err != nil {
		t.Fatal(err)
	}
	for _, st := range plain.Strata {
		if _, ok := st["fragment"]; ok || len(st) != 3 {
			t.Fatalf("a stratum of a plan of one fragment is %v, not its key, points and p_sat alone", st)
		}
	}
}

// TestJointPlanErrors checks what a joint plan refuses, and that an
// error of one fragment's region names it.
func TestJointPlanErrors(t *testing.T) {
	fs := []fragments.Fragment{fragments.S, fragments.W}
	for _, c := range []struct {
		config BuildConfig
		want   string
	}{
		{BuildConfig{RegionFile: "region.json"}, "a joint build draws each fragment from its shipped region"},
		{BuildConfig{MaxWords: 90}, "fragment W: "},
	} {
		c.config.Fragment, c.config.Fragments, c.config.Train, c.config.DrawLimit, c.config.Sampler = fs[0], fs, 3, 20, fragments.DefaultSampler()
		if _, err := NewBuildPlan(c.config); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.config, err, c.want)
		}
	}
}
