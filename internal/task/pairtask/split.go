package pairtask

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/phase"
	"github.com/nlsat/nlsat/internal/solver"
	"github.com/nlsat/nlsat/internal/split/units"
)

// Streams of a balanced build of the task, xored into its seed.
const (
	drawStream   = 0x7061697264726177 // "pairdraw"
	assignStream = 0x7061697261736e67 // "pairasng"
	orderStream  = 0x706169726f726472 // "pairordr"
)

// drawTries bounds the pairs drawn for one unit.
const drawTries = 200

// splitter is the task as package split/units builds it: a unit is a
// couple, one inconsistent and one consistent pair drawn at one point.
type splitter struct{}

func (splitter) Name() string         { return Name }
func (splitter) Unit() string         { return "couple" }
func (splitter) Classes() []string    { return Labels }
func (splitter) RecordSchema() string { return Schema }
func (splitter) Row() reflect.Type    { return reflect.TypeFor[Record]() }
func (splitter) Streams() (draw, assign, order uint64) {
	return drawStream, assignStream, orderStream
}
func (splitter) NewRecord() units.Record { return new(Record) }

func (splitter) Describe(r units.Record) (int, string, phase.Point) {
	p := r.(*Record)
	return p.Label, p.Fragment, phase.Point{M: p.M, N1: p.N1, N2: p.N2}
}

// Draw draws instances at pt until one is unsatisfiable with a certified
// inconsistent pair of its sentences (the couple's inconsistent pair)
// and one is satisfiable (its first two sentences, the consistent pair);
// the couple is identified by its four sentences.
func (splitter) Draw(ctx context.Context, b solver.Backend, f fragments.Fragment, params fragments.Params, lx *fragments.Lexicon,
	pt phase.Point, rng *rand.Rand, seed string) ([]units.Record, fragments.Instance, error) {
	var got [2]*fragments.Instance
	for try := 0; try < drawTries && (got[0] == nil || got[1] == nil); try++ {
		inst, err := fragments.Sample(rng, f, params, pt.M, pt.N1, pt.N2)
		if err != nil {
			return nil, fragments.Instance{}, err
		}
		v, err := solver.Decide(ctx, b, inst.Formulas(), solver.DecideOptions{MUS: true})
		if err != nil {
			return nil, fragments.Instance{}, err
		}
		switch {
		case v.Status == solver.Sat && got[1] == nil:
			inst.Sentences = inst.Sentences[:2]
			got[1] = &inst
		case v.Status == solver.Unsat && len(v.Pair) == 2 && got[0] == nil:
			inst.Sentences = []fragments.Sentence{inst.Sentences[v.Pair[0]], inst.Sentences[v.Pair[1]]}
			got[0] = &inst
		}
	}
	if got[0] == nil || got[1] == nil {
		return nil, fragments.Instance{}, fmt.Errorf("%w: no couple in %d draws at %s", units.ErrNoUnit, drawTries, pt.Key())
	}
	recs := make([]units.Record, 2)
	for k, l := range rng.Perm(2) {
		in := got[l]
		recs[k] = &Record{Fragment: f.String(), Pair: in.English(), Label: l, M: pt.M, N1: pt.N1, N2: pt.N2, Seed: seed}
	}
	key := fragments.Instance{Fragment: f, Nouns: slices.Concat(got[0].Nouns, got[1].Nouns),
		Verbs: slices.Concat(got[0].Verbs, got[1].Verbs), Sentences: slices.Concat(got[0].Sentences, got[1].Sentences)}
	return recs, key, nil
}

// Card renders a short card: what the records are, and their files.
func (splitter) Card(m *units.Manifest) string {
	s := fmt.Sprintf("# nlsat pairs of fragment %s\n\nEach record is two sentences, labelled consistent or inconsistent by %s.\n\n", m.Plan.Fragment, m.Solver)
	for _, f := range m.Files {
		s += fmt.Sprintf("- `%s`: %d records, %d consistent\n", f.Path, f.Rows, f.Labels["consistent"])
	}
	return s
}
