package entailrec

import (
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
)

// Schema names the record layout of an entailment file (see the
// package documentation and internal/entail/schema.json).
const Schema = "nlsat-entail/1"

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

// ClassLabels names the classes of the two label columns, for a Parquet
// file's HuggingFace metadata: label in MNLI's order, label_binary
// entailed or not.
func (Record) ClassLabels() dataset.ClassLabels {
	return dataset.ClassLabels{"label": LabelNames[:], "label_binary": BinaryNames[:]}
}

// Row is the struct type of an entailment file's Parquet rows.
var Row = reflect.TypeFor[Record]()

// SetID sets the record's id, as a run numbers it.
func (r *Record) SetID(id string) { r.ID = id }

// Normalize fills the derived fields and replaces nil slices by empty
// ones.
func (r *Record) Normalize() {
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
	r.Normalize()
	return e.enc.EncodeValue(r)
}

// Label is the three-way answer of an entailment problem, numbered in
// MNLI's order.
type Label int

// The labels: Φ ⊨ ψ, neither, Φ ⊨ ¬ψ.
const (
	Entailment    Label = 0
	Neutral       Label = 1
	Contradiction Label = 2
)

// Labels returns the three labels in MNLI's order.
func Labels() []Label { return []Label{Entailment, Neutral, Contradiction} }

// LabelNames are MNLI's names of the labels, by label: the one place
// they are spelled.
var LabelNames = [3]string{Entailment: "entailment", Neutral: "neutral", Contradiction: "contradiction"}

// BinaryNames name the binary label's values, by value.
var BinaryNames = [2]string{Entailed: "entailed", NotEntailed: "not entailed"}

// String returns MNLI's name of the label.
func (l Label) String() string {
	if l < Entailment || l > Contradiction {
		return fmt.Sprintf("Label(%d)", int(l))
	}
	return LabelNames[l]
}

// The values of the binary label (Label.Binary).
const (
	Entailed    = 0
	NotEntailed = 1
)

// Binary returns Entailed for Entailment and NotEntailed for Neutral and
// Contradiction.
func (l Label) Binary() int {
	if l == Entailment {
		return Entailed
	}
	return NotEntailed
}

// BinaryText names a binary label value: "entailed" or "not entailed".
func BinaryText(b int) string {
	if b == Entailed {
		return BinaryNames[Entailed]
	}
	return BinaryNames[NotEntailed]
}
