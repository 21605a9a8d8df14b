package native

import (
	"fmt"
	"slices"
	"strings"
)

// Test-only rendering of the normal form in the notation of the design's
// per-template table, with literals sorted so that output is canonical.

func (n *normal[P]) guardLits(g guard[P], negate bool) []string {
	var out []string
	order := make([]int, len(n.nouns))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(n.nouns[a], n.nouns[b]) })
	for _, i := range order {
		name := n.nouns[i]
		if !pHas(g.mask, i) {
			continue
		}
		pos := pHas(g.val, i)
		if pos == negate {
			name = "¬" + name
		}
		out = append(out, name)
	}
	if g.c >= 0 {
		c := fmt.Sprintf("c%d", g.c)
		if negate {
			c = "¬" + c
		}
		out = append([]string{c}, out...)
	}
	return out
}

func (n *normal[P]) blitString(l blit) string {
	s := n.verbs[l.verb()] + "(x,y)"
	if int(l)&2 != 0 {
		s = n.verbs[l.verb()] + "(y,x)"
	}
	if int(l)&1 != 0 {
		s = "¬" + s
	}
	return s
}

func (n *normal[P]) blits(ls []blit) string {
	var out []string
	for _, l := range ls {
		out = append(out, n.blitString(l))
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

// items renders every item, one string each, sorted.
func (n *normal[P]) items() []string {
	var out []string
	for c := range n.csrc {
		out = append(out, fmt.Sprintf("∃ c%d", c))
	}
	for _, g := range n.mono {
		out = append(out, "M "+strings.Join(n.guardLits(g, true), " ∨ "))
	}
	for _, c := range n.cs {
		out = append(out, fmt.Sprintf("C {%s} {%s} {%s}", strings.Join(n.guardLits(c.x, false), ","),
			strings.Join(n.guardLits(c.y, false), ","), n.blits(c.d)))
	}
	for _, q := range n.qs {
		out = append(out, fmt.Sprintf("Q {%s} {%s} {%s}", strings.Join(n.guardLits(q.x, false), ","),
			strings.Join(n.guardLits(q.y, false), ","), n.blits(q.e)))
	}
	slices.Sort(out)
	return out
}
