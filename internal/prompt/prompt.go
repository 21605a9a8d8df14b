package prompt

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/proof"
)

// The question of Appendix C, in its two forms.
const (
	questionSat = "Given the following set of sentences, tell me whether they are satisfiable or not. Generate satisfiable if they are and unsatisfiable if they are not."
	questionTF  = "Given the following set of sentences, tell me whether they are satisfiable or not. Generate True if they are and False if they are not."
)

// Answers of the two prompts, indexed by label (0 = unsat, 1 = sat), the
// order of the record's ClassLabel names.
var (
	AnswersSat = [2]string{"unsatisfiable", "satisfiable"}
	AnswersTF  = [2]string{"False", "True"}
)

// Example is the solved instance shown in prompt (b).
type Example struct {
	ID        string
	Sentences []string
	Label     int // dataset.LabelSat or dataset.LabelUnsat
}

// Figure1 is the unsatisfiable instance of the paper's Figure 1: the first
// two sentences give every scholar a musician he loves, the third names a
// scholar who loves none.
var Figure1 = Example{
	ID: "paper-figure-1-unsat",
	Sentences: []string{
		"Every scholar is a poet.",
		"Every poet loves some musician.",
		"Some scholar does not love any musician.",
	},
	Label: dataset.LabelUnsat,
}

// ExampleFrom makes a worked example of a labelled record.
func ExampleFrom(r *dataset.Record) (Example, error) {
	if r.Label != dataset.LabelSat && r.Label != dataset.LabelUnsat {
		return Example{}, fmt.Errorf("record %s has no label, so it cannot be a worked example", r.ID)
	}
	return Example{ID: r.ID, Sentences: r.Sentences, Label: r.Label}, nil
}

// SatUnsat is prompt (a) of Appendix C for a set of sentences given as text.
func SatUnsat(text string) string {
	return "Q: " + questionSat + " Set of sentences: " + text + "\n\nA:"
}

// TrueFalse is prompt (b) of Appendix C: the worked example, then the
// question about text.
func TrueFalse(ex Example, text string) string {
	return "Q: " + questionTF + "\n\nSet of sentences: " + strings.Join(ex.Sentences, " ") +
		"\n\nA: " + AnswersTF[ex.Label] + "\n\n" +
		questionTF + "\n\nSet of sentences: " + text + "\n\nA:"
}

// Row is one line of a prompt file: the record's identity and strata, and
// both prompts with their expected answers. Field order is fixed.
type Row struct {
	ID        string `json:"id"`
	Fragment  string `json:"fragment"`
	Text      string `json:"text"`
	Label     int    `json:"label"`
	LabelText string `json:"label_text"`
	M         int    `json:"m"`
	N1        int    `json:"n1"`
	N2        int    `json:"n2"`
	PromptSat string `json:"prompt_sat"`
	TargetSat string `json:"target_sat"`
	PromptTF  string `json:"prompt_tf"`
	TargetTF  string `json:"target_tf"`
	ExampleID string `json:"example_id"`
	// TargetCoT is, with prompt --cot only (nil otherwise, and then
	// absent), the chain-of-thought target: see CoT.
	TargetCoT *string `json:"target_cot,omitempty"`
}

// CoTSat is the chain-of-thought target of a sat record.
const CoTSat = "No contradiction follows from these sentences: they can all be true together.\nAnswer: satisfiable"

// CoT returns the chain-of-thought target of a record written with
// proofs: for unsat, its checked proof in the text form of nlsat solve
// (numbered steps, each with the steps it follows from, "by 1, 4"), then
// the answer; for sat, CoTSat; for unsat without a proof within the
// budget, "" (no chain to learn from). A record without proofs is an
// error.
func CoT(r *dataset.Record) (string, error) {
	switch {
	case r.Proof == nil:
		return "", fmt.Errorf("record %s has no proof field; write the records with --proofs", r.ID)
	case r.Label == dataset.LabelSat:
		return CoTSat, nil
	case len(r.Proof) == 0:
		return "", nil
	}
	p, err := dataset.ProofOf(r.Proof)
	if err != nil {
		return "", fmt.Errorf("record %s: %w", r.ID, err)
	}
	var b strings.Builder
	if err := proof.Fprint(&b, p); err != nil {
		return "", err
	}
	return b.String() + "Answer: unsatisfiable", nil
}

// NewRow renders a labelled record into both prompts.
func NewRow(r *dataset.Record, ex Example) (Row, error) {
	if r.Label != dataset.LabelSat && r.Label != dataset.LabelUnsat {
		return Row{}, fmt.Errorf("record %s has no label (label %d); label the file first with nlsat label", r.ID, r.Label)
	}
	text := r.Text
	if text == "" {
		text = strings.Join(r.Sentences, " ")
	}
	return Row{
		ID: r.ID, Fragment: r.Fragment, Text: text,
		Label: r.Label, LabelText: dataset.LabelText(r.Label),
		M: len(r.Sentences), N1: r.N1, N2: r.N2,
		PromptSat: SatUnsat(text), TargetSat: AnswersSat[r.Label],
		PromptTF: TrueFalse(ex, text), TargetTF: AnswersTF[r.Label],
		ExampleID: ex.ID,
	}, nil
}

// SameInstance reports whether a record is the worked example: the same id,
// or the same set of sentences in any order.
func SameInstance(ex Example, r *dataset.Record) bool {
	if ex.ID != "" && ex.ID == r.ID {
		return true
	}
	return slices.Equal(sortedSet(ex.Sentences), sortedSet(r.Sentences))
}

func sortedSet(s []string) []string {
	out := slices.Clone(s)
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	slices.Sort(out)
	return slices.Compact(out)
}
