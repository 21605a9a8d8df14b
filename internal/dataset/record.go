package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// SchemaVersion names the set of record fields this package writes.
const SchemaVersion = "nlsat-record/3"

// Label values of a record.
const (
	LabelUnsat  = 0
	LabelSat    = 1
	LabelAbsent = -1
)

// Record is one instance, as written to a JSONL line. The field order is the
// order of the record specification (docs/records.md) and must not change.
type Record struct {
	ID          string      `json:"id" parquet:"id"`
	Fragment    string      `json:"fragment" parquet:"fragment,dict"`
	Text        string      `json:"text" parquet:"text"`
	Sentences   []string    `json:"sentences" parquet:"sentences,list"`
	Label       int         `json:"label" parquet:"label"`
	LabelText   string      `json:"label_text" parquet:"label_text,dict"`
	M           int         `json:"m" parquet:"m"`
	N1          int         `json:"n1" parquet:"n1"`
	N2          int         `json:"n2" parquet:"n2"`
	Alpha       Float       `json:"alpha" parquet:"alpha"`
	Beta        Float       `json:"beta" parquet:"beta"`
	Nouns       []string    `json:"nouns" parquet:"nouns,list"`
	Verbs       []string    `json:"verbs" parquet:"verbs,list"`
	Templates   []string    `json:"templates" parquet:"templates,list"`
	Formulas    []string    `json:"formulas" parquet:"formulas,list"`
	Solver      string      `json:"solver" parquet:"solver,dict"`
	Certificate Certificate `json:"certificate" parquet:"certificate"`
	Seed        string      `json:"seed" parquet:"seed"`
	// Since nlsat-record/2:
	Difficulty Difficulty `json:"difficulty" parquet:"difficulty"`
	// Distractors are the indices (0-based, into Sentences) of sentences
	// added so that they provably do not change the label, and
	// DistractorMode how they were chosen ("fresh" or "implied"; "" when
	// there are none).
	Distractors    []int  `json:"distractors" parquet:"distractors,list"`
	DistractorMode string `json:"distractor_mode" parquet:"distractor_mode,dict"`
	// Since nlsat-record/4, and only in files written with proofs (nil
	// otherwise, and then absent, so that other files keep their bytes):
	// the steps of a checked refutation (see SetProof; [] for sat and for
	// unsat without a proof within the budget). Parquet gets it through
	// ProofRow.
	Proof []ProofStep `json:"proof,omitzero" parquet:"-"`
}

// Difficulty measures how hard an instance was to decide: the size of
// its minimal unsatisfiable subset (unsat) or of its model (sat), 0 where
// not applicable, and the decider's search effort (the native type
// search's nodes; 0 for S and W, which it decides without search, and
// for solvers that do not report it).
type Difficulty struct {
	MUSSize     int `json:"mus_size" parquet:"mus_size"`
	ModelSize   int `json:"model_size" parquet:"model_size"`
	SearchNodes int `json:"search_nodes" parquet:"search_nodes"`
	// Since nlsat-record/3: UnsatPair is a certified unsatisfiable pair of
	// the sentences (indices, increasing; one index for a sentence that is
	// unsatisfiable alone), or empty when every pair has a checked model
	// (and always for sat). The MUS is minimal, not minimum: an instance
	// whose MUS has five sentences may still hold a contradictory pair,
	// which a reasoner comparing sentences two at a time finds.
	UnsatPair []int `json:"unsat_pair" parquet:"unsat_pair,list"`
	// Since nlsat-record/4, only with proofs (nil otherwise, and then
	// absent): ProofDepth is the proof's depth, its longest chain of
	// inferences (proof.Proof.Depth); 0 for sat, NoProof (-1) for unsat
	// without a proof within the budget.
	ProofDepth *int `json:"proof_depth,omitempty" parquet:"-"`
}

// Certificate is the evidence behind a label: for sat the size of the
// checked model, for unsat the indices (0-based, into Sentences) of a
// minimal unsatisfiable subset. Both keys are always present; the one that
// does not apply is 0 or empty.
type Certificate struct {
	ModelSize int   `json:"model_size" parquet:"model_size"`
	MUS       []int `json:"mus" parquet:"mus,list"`
}

// LabelText returns "sat", "unsat" or "" for a label value.
func LabelText(label int) string {
	switch label {
	case LabelSat:
		return "sat"
	case LabelUnsat:
		return "unsat"
	}
	return ""
}

// SeedString records the master seed and the index an instance's
// randomness was derived from, e.g. "7:42".
func SeedString(master uint64, index int) string {
	return strconv.FormatUint(master, 10) + ":" + strconv.Itoa(index)
}

// SetID sets the record's id, as a run numbers it.
func (r *Record) SetID(id string) { r.ID = id }

// Normalize fills derived fields and replaces nil slices by empty ones, so
// every key keeps its JSON type (an array is never written as null).
func (r *Record) Normalize() {
	for _, s := range []*[]string{&r.Sentences, &r.Nouns, &r.Verbs, &r.Templates, &r.Formulas} {
		if *s == nil {
			*s = []string{}
		}
	}
	if r.Certificate.MUS == nil {
		r.Certificate.MUS = []int{}
	}
	if r.Distractors == nil {
		r.Distractors = []int{}
	}
	if r.Difficulty.UnsatPair == nil {
		r.Difficulty.UnsatPair = []int{}
	}
	r.Difficulty.MUSSize, r.Difficulty.ModelSize = len(r.Certificate.MUS), r.Certificate.ModelSize
	r.M = len(r.Sentences)
	r.LabelText = LabelText(r.Label)
	r.Alpha, r.Beta = ratio(r.M, r.N1), ratio(r.M, r.N2)
}

func ratio(m, n int) Float {
	if n == 0 {
		return 0
	}
	return Float(float64(m) / float64(n))
}

// Float is a float64 that JSON writes with a decimal point even when it
// is whole (0.0, 2.0; 1.5 as encoding/json writes it), so that a reader
// that infers a column's type from its values (pandas, DuckDB, Polars,
// HuggingFace datasets' JSON loader) types alpha and beta as floats in
// every file, also in one whose values are all whole, such as beta in
// fragment S. Parquet stores it as DOUBLE, as a float64.
type Float float64

// MarshalJSON writes f as encoding/json writes a float64, with ".0"
// added where that has neither a point nor an exponent.
func (f Float) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(float64(f))
	if err != nil || bytes.ContainsAny(b, ".eE") {
		return b, err
	}
	return append(b, ".0"...), nil
}

// NotInstanceHint ends the error about a record without sentences: the
// likeliest cause is a file of entailment records given to a command of
// sat/unsat instances.
const NotInstanceHint = " (this command reads sat/unsat instance records; entailment records, schema nlsat-entail/1, are read by prompt, eval and audit)"

// Validate checks the invariants a reader may rely on.
func (r *Record) Validate() error {
	switch {
	case r.ID == "":
		return fmt.Errorf("record has no id")
	case len(r.Sentences) == 0:
		return fmt.Errorf("record %s has no sentences%s", r.ID, NotInstanceHint)
	case r.Label != LabelSat && r.Label != LabelUnsat && r.Label != LabelAbsent:
		return fmt.Errorf("record %s: label %d is not 1, 0 or -1", r.ID, r.Label)
	case r.LabelText != LabelText(r.Label):
		return fmt.Errorf("record %s: label_text %q does not match label %d", r.ID, r.LabelText, r.Label)
	case r.M != len(r.Sentences):
		return fmt.Errorf("record %s: m is %d but there are %d sentences", r.ID, r.M, len(r.Sentences))
	}
	return nil
}
