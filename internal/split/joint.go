package split

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
)

// Joint builds. A build of several fragments (the paper's Table 2) has
// one main set per fragment, named after it: its strata are the points of
// the fragment's shipped region, its quotas the sizes asked for, its
// surface balance its own pilot and models (the features are the
// fragment's own: its templates are not the others'), but for the
// residual stage, which train's sets fit together, and the evaluation
// sets likewise (Balance.Pooled, fitResidualStages). The sets share the
// dedup keys, so no two instances anywhere in the dataset are the same
// (as written or, by default, up to renaming), and the same split of
// every set shares one file, written once every set is full: the
// fragments' instances together in the file order of one fragment's
// build, each record numbered in the file and named by its own fragment
// ("S-test-3f9c2a-000042" and "A-test-3f9c2a-000043" in one file).

// Joint reports whether the plan builds several fragments together.
func (p *Plan) Joint() bool { return strings.Contains(p.Fragment, ",") }

// ParseFragments reads --fragment of split: one fragment, several
// separated by commas, or all. The fragments come back once each, in the
// order S, W, V, Z, A.
func ParseFragments(s string) ([]fragments.Fragment, error) {
	if strings.EqualFold(strings.TrimSpace(s), "all") {
		return fragments.All(), nil
	}
	var out []fragments.Fragment
	for _, name := range strings.Split(s, ",") {
		f, err := fragments.ParseFragment(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// fragmentNames joins the fragments' names as a joint plan's Fragment
// holds them: "S,W,V,Z,A".
func fragmentNames(fs []fragments.Fragment) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.String())
	}
	return strings.Join(names, ",")
}

// PoolFrag returns the fragment pool k draws from.
func (p *Plan) PoolFrag(k int) fragments.Fragment {
	f, _ := fragments.ParseFragment(p.poolFragName(k))
	return f
}

// poolFragName is the name of the fragment pool k draws from.
func (p *Plan) poolFragName(k int) string {
	if f := p.Pools[k].Fragment; f != "" {
		return f
	}
	return p.Fragment
}

// newJointPlan is NewPlan for several fragments: one main set per
// fragment, from its shipped region, each with the sizes asked for.
func newJointPlan(c Config) (*Plan, error) {
	switch {
	case c.RegionFile != "":
		return nil, errors.New("--region is one fragment's region: a joint build draws each fragment from its shipped region")
	case c.Holdout != "" && c.Holdout != HoldoutNone:
		return nil, errors.New("--holdout is for a build of one fragment; a joint build takes none")
	case c.Generalisation > 0 || c.ZeroShot > 0:
		return nil, errors.New("--generalisation and --zero-shot are for a build of one fragment; build them per fragment")
	case c.MaxWords > 0:
		return nil, errors.New("--max-words is for a build of one fragment; a joint build takes none")
	}
	p := c.basePlan()
	p.Fragment, p.Holdout.Kind = fragmentNames(c.Fragments), HoldoutNone
	p.Balance.Pooled = p.Balance.Residual
	for _, f := range c.Fragments {
		fc := c
		fc.Fragment = f
		region, source, err := fc.loadRegion()
		if err != nil {
			return nil, err
		}
		main := Pool{Name: f.String(), Fragment: f.String(), Source: source, Strata: RegionStrata(region)}
		if err := fc.mainPools(p, main, make([][]bool, 3)); err != nil {
			return nil, err
		}
	}
	return p, p.Validate()
}

// validateJoint checks the fragments of a joint plan: each set draws
// from one of them, each of them has a set, no two sets share a name,
// no fragment has a split twice, and nothing is held out.
func (p *Plan) validateJoint() error {
	frags, err := ParseFragments(p.Fragment)
	if err != nil {
		return err
	}
	if fragmentNames(frags) != p.Fragment {
		return fmt.Errorf("fragments %q: expected them once each, in the order S, W, V, Z, A", p.Fragment)
	}
	if p.Holdout.Kind != HoldoutNone && p.Holdout.Kind != "" {
		return fmt.Errorf("a joint build holds nothing out, not %s", p.Holdout.Kind)
	}
	seen := map[string]bool{}
	names, splits := map[string]bool{}, map[[2]string]bool{}
	for _, pl := range p.Pools {
		f, err := fragments.ParseFragment(pl.Fragment)
		if err != nil || !slices.Contains(frags, f) || names[pl.Name] {
			return fmt.Errorf("set %s: fragment %q is not one of %s, or the set is named twice", pl.Name, pl.Fragment, p.Fragment)
		}
		for _, sp := range pl.Splits {
			if splits[[2]string{pl.Fragment, sp.Name}] {
				return fmt.Errorf("set %s: fragment %s has %s in another set too", pl.Name, pl.Fragment, sp.Name)
			}
			splits[[2]string{pl.Fragment, sp.Name}] = true
		}
		seen[pl.Fragment], names[pl.Name] = true, true
	}
	if len(seen) != len(frags) {
		return fmt.Errorf("fragments %s: %d of them have no set", p.Fragment, len(frags)-len(seen))
	}
	return nil
}

// dataFile is one split file of a build and the splits that fill it,
// as (pool, split) pairs: one split, or in a joint build the same split
// of every fragment.
type dataFile struct {
	split   Split
	members [][2]int
}

// dataFiles lists the split files in plan order, each where its first
// split stands.
func (p *Plan) dataFiles() []dataFile {
	var out []dataFile
	at := map[string]int{}
	for k, pl := range p.Pools {
		for t, sp := range pl.Splits {
			j, ok := at[sp.File]
			if !ok {
				j = len(out)
				at[sp.File] = j
				out = append(out, dataFile{split: sp})
			}
			out[j].members = append(out[j].members, [2]int{k, t})
		}
	}
	return out
}
