package entail

import (
	"slices"

	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// Record is one entailment problem as written to a file; its schema
// lives in entailrec.
type Record = entailrec.Record

// Certificate is a record's certificate (entailrec.Certificate).
type Certificate = entailrec.Certificate

// SchemaVersion names the record layout of an entailment file.
const SchemaVersion = entailrec.Schema

// NewRecord returns the record of p, its words rendered with lx (the
// premises' own vocabulary), labelled by the solver named
// solverName and drawn from seed; the id is the caller's to set.
func NewRecord(lx *fragments.Lexicon, p Problem, solverName, seed string) *Record {
	in, h, res := p.Premises, p.Hypothesis, p.Result
	r := &Record{Fragment: in.Fragment.String(), Premises: in.English(), Hypothesis: lx.English(h),
		Label: int(res.Label), LabelText: res.Label.String(), LabelBinary: res.Label.Binary(),
		NegatedHypothesis: lx.English(h.Negation()), N1: len(in.Nouns), N2: len(in.Verbs),
		Nouns: slices.Clone(in.Nouns), Verbs: slices.Clone(in.Verbs), Templates: in.IDs(),
		HypothesisTemplate: h.ID(), HypothesisFormula: h.FormulaText(), Solver: solverName, Seed: seed,
		Certificate: Certificate{Subset: slices.Clone(res.Subset), Models: []int{}}}
	for _, f := range in.Formulas() {
		r.Formulas = append(r.Formulas, fol.String(f))
	}
	if res.Label == Neutral {
		r.Certificate.Models = []int{res.With.Model.Size, res.Against.Model.Size}
	}
	r.Normalize()
	return r
}
