package dataset

import (
	"strings"

	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// NewRecord returns the record of instance inst with verdict v, given by
// the solver named solverName: its sentences in English, their templates
// and formulas, its words, and the label and certificate of v. The id and
// seed are the caller's to set. A zero verdict with an empty name gives
// an unlabelled record (label -1), as written without a solver.
func NewRecord(inst fragments.Instance, v solver.Verdict, solverName string) *Record {
	r := &Record{}
	r.SetInstance(inst)
	r.SetVerdict(v, solverName)
	return r
}

// SetInstance writes what r holds of instance inst, its fragment, sizes,
// words, sentences, templates, formulas and text, into r.
func (r *Record) SetInstance(inst fragments.Instance) {
	r.Fragment, r.N1, r.N2, r.Nouns, r.Verbs = inst.Fragment.String(), len(inst.Nouns), len(inst.Verbs), inst.Nouns, inst.Verbs
	r.Sentences, r.Templates, r.Formulas = nil, nil, nil
	for _, s := range inst.Sentences {
		r.Sentences = append(r.Sentences, s.English())
		r.Templates = append(r.Templates, s.ID())
		r.Formulas = append(r.Formulas, s.FormulaText())
	}
	r.Text = strings.Join(r.Sentences, " ")
}

// DropInstance clears what SetInstance writes but the fragment and the
// sizes: the record as a shard stores it when the instance can be drawn
// again.
func (r *Record) DropInstance() {
	r.Nouns, r.Verbs, r.Sentences, r.Templates, r.Formulas, r.Text = nil, nil, nil, nil, nil, ""
}

// SetVerdict writes the label, certificate and difficulty of verdict v,
// given by the solver named solverName, into r. An Unknown verdict gives
// label -1.
func (r *Record) SetVerdict(v solver.Verdict, solverName string) {
	r.Solver = solverName
	r.Certificate = Certificate{}
	r.Proof = nil // a proof is of the verdict's MUS: SetProof gives it again
	r.Difficulty = Difficulty{SearchNodes: v.Nodes}
	switch v.Status {
	case solver.Sat:
		r.Label = LabelSat
		r.Certificate.ModelSize = v.Model.Size
	case solver.Unsat:
		r.Label = LabelUnsat
		r.Certificate.MUS = v.MUS
		r.Difficulty.UnsatPair = v.Pair
	default:
		r.Label = LabelAbsent
	}
}

// LabelOf returns the record label of a solver status (-1 for Unknown).
func LabelOf(st solver.Status) int {
	switch st {
	case solver.Sat:
		return LabelSat
	case solver.Unsat:
		return LabelUnsat
	}
	return LabelAbsent
}

// StatusOf returns the solver status of a record label (Unknown for -1).
func StatusOf(label int) solver.Status {
	switch label {
	case LabelSat:
		return solver.Sat
	case LabelUnsat:
		return solver.Unsat
	}
	return solver.Unknown
}
