package satunsat

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/prompt"
	"github.com/nlsat/nlsat/internal/proof"
)

// The prompts of the paper's Appendix C, word for word. Where the paper
// leaves a choice open, they are written as follows.
//
//   - The set {s1, s2, ..., sm} is written as the sentences joined by single
//     spaces (the record's text), in the order generated: the braces and
//     commas are the paper's set notation, not text shown to the model.
//   - Paragraphs are separated by one blank line, as the paper lays them
//     out. In prompt (a) "Set of sentences:" stays in the paragraph of the
//     question, as printed; in prompt (b) it starts a paragraph of its own.
//   - In prompt (b) the question about the evaluated instance has no "Q:",
//     exactly as the paper prints it; only the worked example has one.
//   - Both prompts end with "A:" and no space: lm-evaluation-harness puts
//     its target delimiter, a space, before the answer, so that the worked
//     example's "A: False" and the scored "A: True" have the same shape.
//
// Prompt (b) shows one solved instance before the evaluated one. By
// default it is the unsatisfiable instance of the paper's Figure 1
// (Figure1), whose label the figure's caption proves; its answer is
// "False". The first record of a file of labelled records can be used
// instead. The example must not be one of the evaluated instances.

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

// notes are the task's sentences in its task files' headers.
var notes = prompt.Notes{
	Shots:         "The worked example (%s) is part of each prompt",
	ScoredBy:      "per fragment, n and m",
	GenerateAside: ", as the paper did",
	Generations:   "nlsat eval reads the raw generations as a person would (\"not satisfiable\"\nis unsat, which the regex filters below miss); --filter NAME reads a filter's.",
	CoT:           "with the checked proof as a chain-of-thought target\n(target_cot)",
	CoTEmpty:      "an unsat record without a proof within the budget\nhas an empty target",
}

// The two variants of Appendix C.
var (
	VariantSat = prompt.Variant{Key: "satunsat", Prompt: "prompt_sat", Target: "target_sat", Choices: AnswersSat[:],
		About: `Appendix C prompt (a): answer "satisfiable" or "unsatisfiable"`, Notes: notes}
	VariantTF = prompt.Variant{Key: "truefalse", Prompt: "prompt_tf", Target: "target_tf", Choices: AnswersTF[:],
		About: `Appendix C prompt (b): one worked example, answer "True" or "False"`, Shots: true, Notes: notes}
)

// tasks returns the four tasks over one prompt file, named after tag: for
// each variant a multiple_choice task (tag_satunsat, tag_truefalse) and a
// generate_until task (the same with _gen); with cot, the
// chain-of-thought task over prompt (a), tag_satunsat_cot.
func tasks(tag string, cot bool) []prompt.HarnessTask {
	ts := prompt.HarnessTasks(tag, VariantSat, VariantTF)
	if cot {
		ts = append(ts, prompt.CoTTask(tag, VariantSat))
	}
	return ts
}

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
// both prompts with their expected answers. Field order is fixed; every
// key is in every row with one JSON type, so HuggingFace datasets loads a
// file of rows without a schema.
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
	// TargetCoT is, with chain-of-thought targets only (nil otherwise,
	// and then absent), the chain-of-thought target: see CoT.
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
	return prompt.ProblemKey(ex.Sentences) == prompt.ProblemKey(r.Sentences)
}

// prompter is the task's part of a prompt run: records are read by
// package dataset, the worked example is Figure1 unless a file's first
// record is named, and the chain-of-thought targets are the records'
// proofs.
type prompter struct{}

// record is a record as the prompt run sees it.
type record struct{ *dataset.Record }

func (r record) Problem() string { return prompt.ProblemKey(r.Sentences) }

func (prompter) Has() prompt.Options { return prompt.Options{CoT: true} }

func (prompter) TrainExamples() bool { return false }

func (prompter) Read(file string, stdin io.Reader, fn func(prompt.Record, string) error) error {
	return dataset.EachRecord(file, stdin, func(r *dataset.Record, where string) error { return fn(record{r}, where) })
}

var errStop = errors.New("stop")

// Examples takes the first record of file as the worked example, or
// Figure1 for "".
func (prompter) Examples(file string, stdin io.Reader, o prompt.Options) (prompt.Examples, error) {
	e := &examples{ex: Figure1, cot: o.CoT}
	if file == "" {
		return e, nil
	}
	err := dataset.EachRecord(file, stdin, func(r *dataset.Record, where string) error {
		var err error
		if e.ex, err = ExampleFrom(r); err != nil {
			return &inputerr.Error{Err: fmt.Errorf("%s: %w", where, err)}
		}
		return errStop
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return e, err
}

// examples renders records with the worked example ex, and their
// chain-of-thought targets with cot.
type examples struct {
	ex  Example
	cot bool
}

func (e *examples) About() string { return e.ex.ID }

func (e *examples) Check(r prompt.Record) error {
	if rec := r.(record); SameInstance(e.ex, rec.Record) {
		return fmt.Errorf("record %s is the worked example %s; take the example from another split", rec.ID, e.ex.ID)
	}
	return nil
}

func (e *examples) Shown(r prompt.Record) bool { return SameInstance(e.ex, r.(record).Record) }

func (e *examples) Row(r prompt.Record) (any, error) {
	rec := r.(record).Record
	row, err := NewRow(rec, e.ex)
	if err == nil && e.cot {
		var cot string
		cot, err = CoT(rec)
		row.TargetCoT = &cot
	}
	return row, err
}

// Rows is the worked example's own row; no proof comes with it, so its
// chain-of-thought target is "".
func (e *examples) Rows() ([]any, string) {
	row, _ := NewRow(&dataset.Record{ID: e.ex.ID, Sentences: e.ex.Sentences, Label: e.ex.Label}, e.ex)
	if e.cot {
		row.TargetCoT = new(string)
	}
	return []any{row}, "the worked example " + e.ex.ID + " alone"
}

func (e *examples) Tasks(tag string) []prompt.HarnessTask { return tasks(tag, e.cot) }
