package fragments

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/nlsat/nlsat/internal/fol"
)

// DescribeModel writes a model in English: who is what, and who does
// what to whom, with the vocabulary's articles and verb forms. Predicates
// false everywhere are not mentioned.
func DescribeModel(w io.Writer, m *fol.Structure) {
	noun := func(p string) string {
		if n, ok := LookupNoun(p); ok {
			return n.Article + " " + p
		}
		return p
	}
	verb := func(r string) string {
		if v, ok := LookupVerb(r); ok {
			return v.Third
		}
		return r
	}
	fmt.Fprintf(w, "A world with %d individual%s:\n", m.Size, map[bool]string{true: "", false: "s"}[m.Size == 1])
	for a := 0; a < m.Size; a++ {
		var is []string
		for _, p := range sortedKeys(m.Unary) {
			if m.Unary[p][a] {
				is = append(is, noun(p))
			}
		}
		var does []string
		for _, r := range sortedKeys(m.Binary) {
			var objs []string
			for b := 0; b < m.Size; b++ {
				if m.Binary[r][a][b] {
					objs = append(objs, fmt.Sprintf("#%d", b+1))
				}
			}
			if len(objs) > 0 {
				does = append(does, verb(r)+" "+andList(objs))
			}
		}
		line := fmt.Sprintf("  #%d is ", a+1)
		if len(is) == 0 {
			line += "none of the things named"
		} else {
			line += andList(is)
		}
		if len(does) > 0 {
			line += "; " + strings.Join(does, "; ")
		}
		fmt.Fprintln(w, line+".")
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func andList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
