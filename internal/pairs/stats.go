package pairs

import (
	"fmt"
	"io"
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
)

// Stats counts, over a run of Find, the instances per fragment, those with
// a flipping edit, the pairs per edit kind and what stayed undecided.
type Stats struct {
	instances, found map[fragments.Fragment]int
	kinds            map[Kind]int
	undecided        int // instances
	edits            int // edited instances undecided by the backend
}

// NewStats returns empty counts.
func NewStats() *Stats {
	return &Stats{instances: map[fragments.Fragment]int{}, found: map[fragments.Fragment]int{}, kinds: map[Kind]int{}}
}

// Add counts the result of one instance of fragment f (Undecided when the
// instance itself stayed undecided).
func (p *Stats) Add(f fragments.Fragment, r Result, undecided bool) {
	if undecided {
		p.undecided++
		return
	}
	p.instances[f]++
	p.edits += r.Undecided
	if r.Found {
		p.found[f]++
		p.kinds[r.Edit.Kind]++
	}
}

// Report writes the counts, for a run labelled by solverName.
func (p *Stats) Report(w io.Writer, solverName string) {
	n, found := 0, 0
	var per []string
	for _, f := range fragments.All() {
		if c := p.instances[f]; c > 0 {
			n, found = n+c, found+p.found[f]
			per = append(per, fmt.Sprintf("%s %d/%d (%.1f%%)", f, p.found[f], c, 100*float64(p.found[f])/float64(c)))
		}
	}
	fmt.Fprintf(w, "nlsat: wrote %d pairs (%d records) from %d instances with %s; %d without a flipping edit, %d undecided\n",
		found, 2*found, n+p.undecided, solverName, n-found, p.undecided)
	var ks []string
	for _, k := range Kinds() {
		ks = append(ks, fmt.Sprintf("%s %d", k, p.kinds[k]))
	}
	fmt.Fprintf(w, "nlsat: pairs by edit kind: %s\n", strings.Join(ks, ", "))
	if len(per) > 0 {
		fmt.Fprintf(w, "nlsat: instances with a flipping edit: %s\n", strings.Join(per, ", "))
	}
	if p.edits > 0 {
		fmt.Fprintf(w, "nlsat: %d edited instances stayed undecided and were passed over\n", p.edits)
	}
}
