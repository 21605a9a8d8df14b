package pairs

import (
	"fmt"
	"io"
	"reflect"
	"slices"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/solver"
)

// SchemaVersion names the record layout of a pairs file: the fields of
// dataset.SchemaVersion, then pair_id, pair_role and edit.
const SchemaVersion = "nlsat-pair/2"

// The values of Record.PairRole.
const (
	Original = "original"
	Edited   = "edited"
)

// EditedSuffix is appended to the input record's id to make the edited
// twin's id.
const EditedSuffix = "-edited"

// Record is one twin of a minimal pair, as written to a JSONL line: an
// instance record (the fields of dataset.Record, in their order) followed
// by the pair fields. Every key is present in every row with a fixed
// JSON type.
type Record struct {
	dataset.Record
	// PairID is shared by both twins: the input record's id.
	PairID string `json:"pair_id"`
	// PairRole is Original or Edited.
	PairRole string `json:"pair_role"`
	// Edit describes the edit that made the edited twin; in the original
	// twin its values are empty (Sentence -1).
	Edit EditInfo `json:"edit"`
}

// Row is the struct type of a pairs file's Parquet rows.
var Row = reflect.TypeFor[Record]()

// EditInfo is the edit field of a Record: the index (0-based) of the
// edited sentence, the edit's kind and role (Kind, Role*), and the
// sentence before and after, in English.
type EditInfo struct {
	Sentence int    `json:"sentence"`
	Kind     string `json:"kind"`
	Role     string `json:"role"`
	From     string `json:"from"`
	To       string `json:"to"`
}

// noEdit is the edit field of an original twin.
var noEdit = EditInfo{Sentence: -1}

// Twins builds the two records of a pair from the input record in, its
// parsed sentences and Find's result r (r.Found must hold). Both twins
// keep in's id-independent fields (fragment, words, seed); sentences,
// text, templates, formulas, label and certificate are rewritten from the
// sentences and the certified verdicts, labelled by solverName.
func Twins(in *dataset.Record, sents []fragments.Sentence, r Result, solverName string) [2]Record {
	orig := Record{Record: instance(in, sents, r.Original, solverName), PairID: in.ID, PairRole: Original, Edit: noEdit}
	ed := Record{Record: instance(in, r.Sentences, r.Edited, solverName), PairID: in.ID, PairRole: Edited,
		Edit: EditInfo{Sentence: r.Edit.Sentence, Kind: string(r.Edit.Kind), Role: r.Edit.Role,
			From: r.Edit.From.English(), To: r.Edit.To.English()}}
	ed.ID = in.ID + EditedSuffix
	return [2]Record{orig, ed}
}

// instance is the record of in with its sentences replaced by sents and
// its label and certificate by v. It keeps in's identity: id, fragment,
// seed, words and their counts, distractors, and the search effort.
func instance(in *dataset.Record, sents []fragments.Sentence, v solver.Verdict, solverName string) dataset.Record {
	frag, _ := fragments.ParseFragment(in.Fragment)
	inst := fragments.Instance{Fragment: frag, Nouns: slices.Clone(in.Nouns), Verbs: slices.Clone(in.Verbs), Sentences: sents}
	r := dataset.NewRecord(inst, v, solverName)
	r.ID, r.Fragment, r.Seed, r.N1, r.N2 = in.ID, in.Fragment, in.Seed, in.N1, in.N2
	r.Distractors, r.DistractorMode = in.Distractors, in.DistractorMode
	r.Difficulty.SearchNodes = in.Difficulty.SearchNodes
	r.Normalize()
	return *r
}

// Validate checks the invariants of one twin: those of dataset.Record, a
// pair id and role, a certificate that matches the label, and an edit
// field that is empty for an original and names a sentence of the record
// for an edited twin.
func (r *Record) Validate() error {
	if err := r.Record.Validate(); err != nil {
		return err
	}
	c := r.Certificate
	switch {
	case r.PairID == "":
		return fmt.Errorf("record %s has no pair_id", r.ID)
	case r.Label == dataset.LabelSat && (c.ModelSize < 1 || len(c.MUS) > 0):
		return fmt.Errorf("record %s: sat needs a model size and no MUS, got %+v", r.ID, c)
	case r.Label == dataset.LabelUnsat && (c.ModelSize != 0 || len(c.MUS) == 0):
		return fmt.Errorf("record %s: unsat needs a MUS and no model size, got %+v", r.ID, c)
	case r.Label == dataset.LabelAbsent:
		return fmt.Errorf("record %s: a twin must be labelled", r.ID)
	}
	switch r.PairRole {
	case Original:
		if r.Edit != noEdit {
			return fmt.Errorf("record %s: an original twin has no edit, got %+v", r.ID, r.Edit)
		}
	case Edited:
		e := r.Edit
		if e.Sentence < 0 || e.Sentence >= len(r.Sentences) || r.Sentences[e.Sentence] != e.To || e.From == e.To {
			return fmt.Errorf("record %s: edit %+v does not match the sentences", r.ID, e)
		}
		if !slices.Contains(Kinds(), Kind(e.Kind)) {
			return fmt.Errorf("record %s: unknown edit kind %q", r.ID, e.Kind)
		}
	default:
		return fmt.Errorf("record %s: pair_role %q is not %q or %q", r.ID, r.PairRole, Original, Edited)
	}
	return nil
}

// CheckTwins checks that a and b are the original and edited twins of
// one pair: each valid, the same pair id, sentence lists that differ in
// exactly the edited sentence (From in a, To in b), and opposite labels.
// It checks the form of the certificates, not their truth.
func CheckTwins(a, b *Record) error {
	for _, r := range []*Record{a, b} {
		if err := r.Validate(); err != nil {
			return err
		}
	}
	switch {
	case a.PairRole != Original || b.PairRole != Edited:
		return fmt.Errorf("pair %s: roles %q, %q; want %q, %q", a.PairID, a.PairRole, b.PairRole, Original, Edited)
	case a.PairID != b.PairID:
		return fmt.Errorf("pair ids %q and %q differ", a.PairID, b.PairID)
	case a.Label == b.Label:
		return fmt.Errorf("pair %s: both twins are %s", a.PairID, a.LabelText)
	case len(a.Sentences) != len(b.Sentences):
		return fmt.Errorf("pair %s: %d and %d sentences", a.PairID, len(a.Sentences), len(b.Sentences))
	}
	var diff []int
	for i := range a.Sentences {
		if a.Sentences[i] != b.Sentences[i] {
			diff = append(diff, i)
		}
	}
	if len(diff) != 1 || diff[0] != b.Edit.Sentence || a.Sentences[diff[0]] != b.Edit.From {
		return fmt.Errorf("pair %s: sentences differ at %v, but the edit is %+v", a.PairID, diff, b.Edit)
	}
	return nil
}

// Encoder writes pair records as JSONL.
type Encoder struct{ enc *dataset.Encoder }

// NewEncoder returns an encoder writing to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{dataset.NewEncoder(w)} }

// Encode normalizes r's instance fields and writes r as one line, as
// dataset.Encoder writes records.
func (e *Encoder) Encode(r *Record) error {
	r.Normalize()
	return e.enc.EncodeValue(r)
}
