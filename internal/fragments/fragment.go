package fragments

import (
	"cmp"
	"fmt"
	"strings"
)

// Fragment is one of the five English fragments S ⊂ W ⊂ V ⊂ Z ⊂ A. The
// zero value is not a fragment, so a forgotten field is caught by Valid.
type Fragment int8

// The five fragments, in the order of inclusion.
const (
	S Fragment = iota + 1
	W
	V
	Z
	A
)

var fragmentNames = [...]string{S: "S", W: "W", V: "V", Z: "Z", A: "A"}

// All returns the five fragments in the order of inclusion.
func All() []Fragment { return []Fragment{S, W, V, Z, A} }

// Names returns the fragments' names in the order of inclusion, for
// flags and messages.
func Names() []string {
	var out []string
	for _, f := range All() {
		out = append(out, f.String())
	}
	return out
}

// HasVerbs reports whether f's sentences have transitive verbs (V, Z and
// A); S and W are monadic.
func (f Fragment) HasVerbs() bool { return f >= V }

// Valid reports whether f is one of S, W, V, Z and A.
func (f Fragment) Valid() bool { return f >= S && f <= A }

// String returns the fragment's one-letter name.
func (f Fragment) String() string {
	if !f.Valid() {
		return fmt.Sprintf("Fragment(%d)", int8(f))
	}
	return fragmentNames[f]
}

// ParseFragment reads a fragment name ("S", "W", "V", "Z" or "A"; lower
// case is accepted too).
func ParseFragment(s string) (Fragment, error) {
	for _, f := range All() {
		if strings.EqualFold(s, f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown fragment %q: allowed values are S, W, V, Z, A", s)
}

// Templates returns every template of f, the inherited ones first, in the
// order S1, S2, S3, W1, …
func (f Fragment) Templates() []Template {
	var ts []Template
	for g := S; g <= f && g.Valid(); g++ {
		ts = append(ts, g.Own()...)
	}
	return ts
}

// Own returns the three templates that f introduces.
func (f Fragment) Own() []Template {
	if !f.Valid() {
		return nil
	}
	first := Template(3*(int(f)-1) + 1)
	return []Template{first, first + 1, first + 2}
}

// Inherited returns the templates f has from the fragments below it, in
// order; it is empty for S.
func (f Fragment) Inherited() []Template {
	if f <= S {
		return nil
	}
	return (f - 1).Templates()
}

// Template is one of the fifteen sentence templates S1 … A3 of the spec.
// The zero value is not a template.
type Template int8

// The templates, three per fragment, in the spec's order.
const (
	S1 Template = iota + 1
	S2
	S3
	W1
	W2
	W3
	V1
	V2
	V3
	Z1
	Z2
	Z3
	A1
	A2
	A3
)

// Valid reports whether t is one of S1 … A3.
func (t Template) Valid() bool { return t >= S1 && t <= A3 }

// Fragment returns the fragment that introduces t.
func (t Template) Fragment() Fragment {
	if !t.Valid() {
		return 0
	}
	return Fragment((int(t)-1)/3 + 1)
}

// Number returns 1, 2 or 3: the position of t within its fragment. Template
// 1 is the "Every" template, 2 the "No" template and 3 the "Some" template
// (V1 and A1 also have "Some" subjects among their variants).
func (t Template) Number() int { return (int(t)-1)%3 + 1 }

// String returns the template's id, such as "S1" or "A3".
func (t Template) String() string {
	if !t.Valid() {
		return fmt.Sprintf("Template(%d)", int8(t))
	}
	return fmt.Sprintf("%s%d", t.Fragment(), t.Number())
}

// ParseTemplate reads a template id such as "V2".
func ParseTemplate(s string) (Template, error) {
	for t := S1; t <= A3; t++ {
		if s == t.String() {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown template %q: allowed values are S1..S3, W1..W3, V1..V3, Z1..Z3, A1..A3", s)
}

// CompareNames orders fragment names as the fragments include each other
// (S, W, V, Z, A), then any other name alphabetically, for sorting the
// rows of reports.
func CompareNames(x, y string) int {
	rank := func(name string) int {
		if f, err := ParseFragment(name); err == nil && name == f.String() {
			return int(f)
		}
		return int(A) + 1
	}
	return cmp.Or(cmp.Compare(rank(x), rank(y)), strings.Compare(x, y))
}
