package entail

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/fragments"
)

// SchemaVersion names the record layout of an entailment file (see the
// package documentation, # Records, and schema.json).
const SchemaVersion = "nlsat-entail/1"

// Record is one entailment problem, as written to a JSONL line. The field
// order is fixed and every key is present in every row with one JSON
// type.
type Record struct {
	ID                 string      `json:"id" parquet:"id"`
	Fragment           string      `json:"fragment" parquet:"fragment,dict"`
	Premises           []string    `json:"premises" parquet:"premises,list"`
	Hypothesis         string      `json:"hypothesis" parquet:"hypothesis"`
	Label              int         `json:"label" parquet:"label"`
	LabelText          string      `json:"label_text" parquet:"label_text,dict"`
	LabelBinary        int         `json:"label_binary" parquet:"label_binary"`
	PremisesText       string      `json:"premises_text" parquet:"premises_text"`
	NegatedHypothesis  string      `json:"negated_hypothesis" parquet:"negated_hypothesis"`
	M                  int         `json:"m" parquet:"m"`
	N1                 int         `json:"n1" parquet:"n1"`
	N2                 int         `json:"n2" parquet:"n2"`
	Nouns              []string    `json:"nouns" parquet:"nouns,list"`
	Verbs              []string    `json:"verbs" parquet:"verbs,list"`
	Templates          []string    `json:"templates" parquet:"templates,list"`
	HypothesisTemplate string      `json:"hypothesis_template" parquet:"hypothesis_template,dict"`
	Formulas           []string    `json:"formulas" parquet:"formulas,list"`
	HypothesisFormula  string      `json:"hypothesis_formula" parquet:"hypothesis_formula"`
	Solver             string      `json:"solver" parquet:"solver,dict"`
	Certificate        Certificate `json:"certificate" parquet:"certificate"`
	Difficulty         Difficulty  `json:"difficulty" parquet:"difficulty"`
	Seed               string      `json:"seed" parquet:"seed"`
}

// Certificate is the evidence behind a label: Subset, the premises
// (0-based indices, increasing) that prove an entailment or a
// contradiction; Models, the domain sizes of the checked models of
// Φ ∪ {ψ} and Φ ∪ {neg ψ} behind a neutral label. The one that does not
// apply is empty.
type Certificate struct {
	Subset []int `json:"subset" parquet:"subset,list"`
	Models []int `json:"models" parquet:"models,list"`
}

// Difficulty is the size of the certificate's subset (0 for neutral).
type Difficulty struct {
	SubsetSize int `json:"subset_size" parquet:"subset_size"`
}

// Row is the struct type of an entailment file's Parquet rows.
var Row = reflect.TypeFor[Record]()

// NewRecord returns the record of p, its words rendered with lx (the
// premises' own vocabulary), labelled by the solver named
// solverName and drawn from seed; the id is the caller's to set.
func NewRecord(lx *fragments.Lexicon, p Problem, solverName, seed string) *Record {
	in, h, res := p.Premises, p.Hypothesis, p.Result
	r := &Record{Fragment: in.Fragment.String(), Premises: in.English(), Hypothesis: lx.English(h),
		Label: int(res.Label), LabelText: res.Label.String(), LabelBinary: res.Label.Binary(),
		NegatedHypothesis: lx.English(h.Negation()), N1: len(in.Nouns), N2: len(in.Verbs),
		Nouns: slices.Clone(in.Nouns), Verbs: slices.Clone(in.Verbs), Templates: in.IDs(),
		HypothesisTemplate: h.ID(), HypothesisFormula: fol.String(h.Formula()), Solver: solverName, Seed: seed,
		Certificate: Certificate{Subset: slices.Clone(res.Subset), Models: []int{}}}
	for _, f := range in.Formulas() {
		r.Formulas = append(r.Formulas, fol.String(f))
	}
	if res.Label == Neutral {
		r.Certificate.Models = []int{res.With.Model.Size, res.Against.Model.Size}
	}
	r.normalize()
	return r
}

// normalize fills the derived fields and replaces nil slices by empty
// ones.
func (r *Record) normalize() {
	for _, s := range []*[]string{&r.Premises, &r.Nouns, &r.Verbs, &r.Templates, &r.Formulas} {
		if *s == nil {
			*s = []string{}
		}
	}
	for _, s := range []*[]int{&r.Certificate.Subset, &r.Certificate.Models} {
		if *s == nil {
			*s = []int{}
		}
	}
	r.M = len(r.Premises)
	r.PremisesText = strings.Join(r.Premises, " ")
	r.Difficulty.SubsetSize = len(r.Certificate.Subset)
}

// Validate checks the invariants a reader may rely on: a label in MNLI's
// order with its texts, and a certificate of the label's kind.
func (r *Record) Validate() error {
	l := Label(r.Label)
	c := r.Certificate
	switch {
	case r.ID == "" || len(r.Premises) == 0 || r.Hypothesis == "":
		return fmt.Errorf("record %q lacks an id, premises or a hypothesis", r.ID)
	case l < Entailment || l > Contradiction || r.LabelText != l.String() || r.LabelBinary != l.Binary():
		return fmt.Errorf("record %s: label %d, %q, binary %d do not agree", r.ID, r.Label, r.LabelText, r.LabelBinary)
	case r.M != len(r.Premises) || r.Difficulty.SubsetSize != len(c.Subset):
		return fmt.Errorf("record %s: m or subset_size does not match", r.ID)
	case l == Neutral && (len(c.Subset) > 0 || len(c.Models) != 2):
		return fmt.Errorf("record %s: neutral needs two models and no subset, got %+v", r.ID, c)
	case l != Neutral && (len(c.Subset) == 0 || len(c.Models) > 0):
		return fmt.Errorf("record %s: %v needs a subset and no models, got %+v", r.ID, l, c)
	}
	for k, i := range c.Subset {
		if i < 0 || i >= r.M || k > 0 && c.Subset[k-1] >= i {
			return fmt.Errorf("record %s: subset %v is not increasing indices of the premises", r.ID, c.Subset)
		}
	}
	return nil
}

// Encoder writes entailment records as JSONL.
type Encoder struct{ enc *dataset.Encoder }

// NewEncoder returns an encoder writing to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{dataset.NewEncoder(w)} }

// Encode writes r as one line, as dataset.Encoder writes records.
func (e *Encoder) Encode(r *Record) error {
	r.normalize()
	return e.enc.EncodeValue(r)
}
