package stats

import (
	"cmp"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
)

// Report is the summary of a set of records. Its JSON form has a fixed
// key order, and every key is present whatever the input.
type Report struct {
	Records  int            `json:"records"`
	Labels   Labels         `json:"labels"`
	Lengths  []Lengths      `json:"lengths"`
	Strata   []Stratum      `json:"strata"`
	ByM      []MStratum     `json:"by_m"`
	Template []TemplateFreq `json:"templates"`
	Variants []TemplateFreq `json:"template_variants"`
}

// Labels counts records by label.
type Labels struct {
	Sat        int `json:"sat"`
	Unsat      int `json:"unsat"`
	Unlabelled int `json:"unlabelled"`
}

// Total is the number of records counted.
func (l Labels) Total() int { return l.Sat + l.Unsat + l.Unlabelled }

// SatShare is the fraction of labelled records that are sat, or 0 when
// none is labelled.
func (l Labels) SatShare() float64 {
	if l.Sat+l.Unsat == 0 {
		return 0
	}
	return float64(l.Sat) / float64(l.Sat+l.Unsat)
}

func (l *Labels) add(label int) {
	switch label {
	case dataset.LabelSat:
		l.Sat++
	case dataset.LabelUnsat:
		l.Unsat++
	default:
		l.Unlabelled++
	}
}

// Lengths is one row of the paper's Tables 4 and 5: for one fragment (or
// "all"), sentences and words per instance.
type Lengths struct {
	Fragment  string  `json:"fragment"`
	Instances int     `json:"instances"`
	Sentences Summary `json:"sentences"`
	Words     Summary `json:"words"`
}

// Summary is the minimum, maximum and mean of a count over instances.
type Summary struct {
	Min  int     `json:"min"`
	Max  int     `json:"max"`
	Mean float64 `json:"mean"`
	sum  int
	n    int
}

func (s *Summary) add(v int) {
	if s.n == 0 || v < s.Min {
		s.Min = v
	}
	if s.n == 0 || v > s.Max {
		s.Max = v
	}
	s.n++
	s.sum += v
	s.Mean = float64(s.sum) / float64(s.n)
}

// Stratum is the label balance of one fragment and (n1, n2).
type Stratum struct {
	Fragment string `json:"fragment"`
	N1       int    `json:"n1"`
	N2       int    `json:"n2"`
	Labels
}

// MStratum is the label balance of one fragment and number of sentences.
type MStratum struct {
	Fragment string `json:"fragment"`
	M        int    `json:"m"`
	Labels
}

// TemplateFreq is how many sentences use a template (or template variant)
// and their share of all sentences with a template.
type TemplateFreq struct {
	ID    string  `json:"id"`
	Count int     `json:"count"`
	Share float64 `json:"share"`
}

type stratumKey struct {
	frag   string
	n1, n2 int
}

type mKey struct {
	frag string
	m    int
}

// Accumulator collects records one at a time, so that files of any size
// are summarised in memory proportional to the number of strata.
type Accumulator struct {
	records  int
	labels   Labels
	lengths  map[string]*Lengths
	all      Lengths
	strata   map[stratumKey]*Labels
	byM      map[mKey]*Labels
	template map[string]int
	variants map[string]int
	tagged   int
}

// New returns an empty Accumulator.
func New() *Accumulator {
	return &Accumulator{
		lengths:  map[string]*Lengths{},
		all:      Lengths{Fragment: "all"},
		strata:   map[stratumKey]*Labels{},
		byM:      map[mKey]*Labels{},
		template: map[string]int{},
		variants: map[string]int{},
	}
}

// Add counts one record.
func (a *Accumulator) Add(r *dataset.Record) {
	a.records++
	a.labels.add(r.Label)
	sents, words := len(r.Sentences), Words(r)
	l := a.lengths[r.Fragment]
	if l == nil {
		l = &Lengths{Fragment: r.Fragment}
		a.lengths[r.Fragment] = l
	}
	for _, l := range []*Lengths{l, &a.all} {
		l.Instances++
		l.Sentences.add(sents)
		l.Words.add(words)
	}
	sk := stratumKey{r.Fragment, r.N1, r.N2}
	if a.strata[sk] == nil {
		a.strata[sk] = &Labels{}
	}
	a.strata[sk].add(r.Label)
	mk := mKey{r.Fragment, sents}
	if a.byM[mk] == nil {
		a.byM[mk] = &Labels{}
	}
	a.byM[mk].add(r.Label)
	for _, t := range r.Templates {
		a.tagged++
		a.variants[t]++
		base, _, _ := strings.Cut(t, ".")
		a.template[base]++
	}
}

// Words counts the words of a record as the paper's Table 5 does: the
// whitespace-separated tokens of its text (or of its sentences joined by
// spaces, if it has no text).
func Words(r *dataset.Record) int {
	if r.Text != "" {
		return len(strings.Fields(r.Text))
	}
	n := 0
	for _, s := range r.Sentences {
		n += len(strings.Fields(s))
	}
	return n
}

// Report returns the summary of the records added so far.
func (a *Accumulator) Report() Report {
	rep := Report{
		Records:  a.records,
		Labels:   a.labels,
		Lengths:  []Lengths{},
		Strata:   []Stratum{},
		ByM:      []MStratum{},
		Template: freqs(a.template, a.tagged),
		Variants: freqs(a.variants, a.tagged),
	}
	for _, l := range a.lengths {
		rep.Lengths = append(rep.Lengths, *l)
	}
	slices.SortFunc(rep.Lengths, func(x, y Lengths) int { return fragments.CompareNames(x.Fragment, y.Fragment) })
	if len(rep.Lengths) > 1 {
		rep.Lengths = append(rep.Lengths, a.all)
	}
	for k, l := range a.strata {
		rep.Strata = append(rep.Strata, Stratum{k.frag, k.n1, k.n2, *l})
	}
	slices.SortFunc(rep.Strata, func(x, y Stratum) int {
		return cmp.Or(fragments.CompareNames(x.Fragment, y.Fragment), cmp.Compare(x.N1, y.N1), cmp.Compare(x.N2, y.N2))
	})
	for k, l := range a.byM {
		rep.ByM = append(rep.ByM, MStratum{k.frag, k.m, *l})
	}
	slices.SortFunc(rep.ByM, func(x, y MStratum) int {
		return cmp.Or(fragments.CompareNames(x.Fragment, y.Fragment), cmp.Compare(x.M, y.M))
	})
	return rep
}

func freqs(counts map[string]int, total int) []TemplateFreq {
	out := []TemplateFreq{}
	for id, n := range counts {
		out = append(out, TemplateFreq{ID: id, Count: n, Share: float64(n) / float64(total)})
	}
	slices.SortFunc(out, func(x, y TemplateFreq) int { return compareTemplates(x.ID, y.ID) })
	return out
}

// compareTemplates orders template ids by the fragment their first letter
// names, then by number (so S2 comes before S10), then by name.
func compareTemplates(x, y string) int {
	fx, nx, rx := splitTemplate(x)
	fy, ny, ry := splitTemplate(y)
	return cmp.Or(fragments.CompareNames(fx, fy), cmp.Compare(nx, ny), strings.Compare(rx, ry), strings.Compare(x, y))
}

// splitTemplate splits "A12.every-some" into "A", 12 and ".every-some".
func splitTemplate(id string) (frag string, num int, rest string) {
	if id == "" {
		return "", 0, ""
	}
	frag, rest = id[:1], id[1:]
	for rest != "" && rest[0] >= '0' && rest[0] <= '9' {
		num = num*10 + int(rest[0]-'0')
		rest = rest[1:]
	}
	return frag, num, rest
}
