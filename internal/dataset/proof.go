package dataset

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/nlsat/nlsat/internal/fol"
	"github.com/nlsat/nlsat/internal/proof"
)

// ProofSchemaVersion names the record fields of a file written with
// proofs (generate and split --proofs): those of SchemaVersion, with
// difficulty.proof_depth and proof. A file written without proofs has
// neither key and keeps SchemaVersion, byte for byte.
const ProofSchemaVersion = "nlsat-record/4"

// NoProof is the proof_depth of an unsat record that has no proof within
// proof.DefaultBudget (its proof is []). A sat record has depth 0.
const NoProof = -1

// ProofStep is one step of a record's proof, in internal/proof's JSON
// form: step and sentence numbers count from 1 (sentence is 0 for a step
// that is not given), the formula is in fol's text syntax ("⊥" for the
// contradiction, "" for a step that only names an individual).
type ProofStep struct {
	Premises []int  `json:"premises" parquet:"premises,list"`
	Rule     string `json:"rule" parquet:"rule,dict"`
	Sentence int    `json:"sentence" parquet:"sentence"`
	Formula  string `json:"formula" parquet:"formula"`
	English  string `json:"english" parquet:"english"`
}

// SetProof gives r its proof and proof depth, as the builder found them:
// for an unsat record, p is a refutation of its certified MUS found and
// checked by proof.FindWithin, or nil when there is none within
// proof.DefaultBudget ([] and NoProof); a sat or unlabelled record gets []
// and 0 whatever p is. A record never searches for its own proof.
func (r *Record) SetProof(p *proof.Proof) {
	depth := 0
	r.Proof, r.Difficulty.ProofDepth = []ProofStep{}, &depth
	switch {
	case r.Label != LabelUnsat:
	case p == nil:
		depth = NoProof
	default:
		depth = p.Depth()
		r.Proof = StepsOf(*p)
	}
}

// StepsOf returns p in a record's JSON form.
func StepsOf(p proof.Proof) []ProofStep {
	out := make([]ProofStep, len(p.Steps))
	for i, s := range p.Steps {
		ps := ProofStep{Premises: make([]int, len(s.Premises)), Rule: string(s.Rule), Formula: proof.FormulaString(s), English: s.English}
		for k, j := range s.Premises {
			ps.Premises[k] = j + 1
		}
		if s.Rule == proof.Given {
			ps.Sentence = s.Sentence + 1
		}
		out[i] = ps
	}
	return out
}

// ProofOf reads a record's proof back into a proof.Proof, for
// proof.Check: the inverse of StepsOf. A formula that does not parse is
// an error naming the step.
func ProofOf(steps []ProofStep) (proof.Proof, error) {
	p := proof.Proof{Steps: make([]proof.Step, len(steps))}
	for i, ps := range steps {
		s := proof.Step{Rule: proof.Rule(ps.Rule), Premises: make([]int, len(ps.Premises)), Sentence: ps.Sentence - 1, English: ps.English}
		for k, j := range ps.Premises {
			s.Premises[k] = j - 1
		}
		if ps.Formula != "" && ps.Formula != "⊥" {
			f, err := fol.Parse(ps.Formula)
			if err != nil {
				return proof.Proof{}, fmt.Errorf("step %d: %w", i+1, err)
			}
			s.Formula = f
		}
		p.Steps[i] = s
	}
	return p, nil
}

// ProofRow is the struct type of a Parquet row of a record with its
// proof (Output.Row for files written with proofs): Record's columns,
// with proof_depth added to the difficulty group and proof, a list of
// step groups, at the end. It is built from Record by reflection, so the
// two cannot drift apart.
var ProofRow = proofRow()

func proofRow() reflect.Type {
	rec := reflect.TypeFor[Record]()
	var fields []reflect.StructField
	for i := range rec.NumField() {
		f := rec.Field(i)
		switch f.Name {
		case "Proof":
			f.Tag = `json:"proof" parquet:"proof,list"`
		case "Difficulty":
			f.Type = required(f.Type)
		}
		fields = append(fields, f)
	}
	return reflect.StructOf(fields)
}

// required returns struct type t with its pointer fields, which JSON
// omits when nil and Parquet skips, made required columns of their
// element type under their JSON name.
func required(t reflect.Type) reflect.Type {
	var fields []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type.Kind() == reflect.Pointer {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			f.Type, f.Tag = f.Type.Elem(), reflect.StructTag(fmt.Sprintf(`json:%q parquet:%q`, name, name))
		}
		fields = append(fields, f)
	}
	return reflect.StructOf(fields)
}
