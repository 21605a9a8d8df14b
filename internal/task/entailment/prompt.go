package entailment

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/inputerr"
	"github.com/nlsat/nlsat/internal/prompt"
)

// The entailment prompts: the question states what each answer means in
// plain words (entailment: the hypothesis follows from the premises;
// neutral: the premises leave it open; contradiction: it conflicts with
// them), then the premises joined by spaces, the hypothesis and "A:", in
// the layout of the paper's Appendix C. The binary prompt asks for
// entailed or not entailed. The few-shot prompts show a worked example
// per label before the problem, taken from training records of the
// evaluated record's own fragment (Shots), so each fragment has its own
// prompt and every prompt is label-balanced; a prompted record with an
// example's premises is refused (CheckShot), as the example would give
// its triple's answers away.

// The questions of the entailment prompts, each saying in plain words
// what its answers mean.
const (
	questionEntail = "Given the following premises and hypothesis, tell me whether the hypothesis follows from the premises. " +
		"Generate entailment if it follows from the premises (it is true whenever they all are), " +
		"neutral if the premises leave it open (it can be true or false while they all are true), " +
		"and contradiction if it conflicts with the premises (it is false whenever they all are true)."
	questionBinary = "Given the following premises and hypothesis, tell me whether the hypothesis follows from the premises. " +
		"Generate entailed if it follows from the premises (it is true whenever they all are), " +
		"and not entailed if it does not (the premises leave it open, or it conflicts with them)."
)

// Answers of the entailment prompts: the three-way one indexed by label
// (MNLI's order: entailment, neutral, contradiction), the binary one by
// label_binary (entailed, not entailed).
var (
	AnswersEntail = entailrec.LabelNames
	AnswersBinary = entailrec.BinaryNames
)

// notes are the task's sentences in its task files' headers.
var notes = prompt.Notes{
	Shots:       "The worked examples (%s) are part of each prompt",
	ScoredBy:    "per fragment, label and\ndifficulty",
	Generations: "nlsat eval reads the raw generations (the first answer word decides, and\n\"not entailed\" is one answer); --filter NAME reads a filter's.",
}

// The entailment variants: three-way and binary, zero-shot and with one
// worked example per label of the record's fragment (few-shot).
var (
	VariantEntail = prompt.Variant{Key: "entail", Prompt: "prompt_entail", Target: "target_entail", Label: "label",
		Choices: AnswersEntail[:], About: `Entailment prompt: premises and hypothesis, answer "entailment", "neutral" or "contradiction"`, Notes: notes}
	VariantEntailBinary = prompt.Variant{Key: "entail_binary", Prompt: "prompt_entail_binary", Target: "target_entail_binary", Label: "label_binary",
		Choices: AnswersBinary[:], About: `Binary entailment prompt: premises and hypothesis, answer "entailed" or "not entailed"`, Notes: notes}
	VariantEntailFewshot = prompt.Variant{Key: "entail_fewshot", Prompt: "prompt_entail_fewshot", Target: "target_entail", Label: "label",
		Choices: AnswersEntail[:], Shots: true, Notes: notes,
		About: `Entailment prompt with a worked example per label: answer "entailment", "neutral" or "contradiction"`}
	VariantEntailBinaryFewshot = prompt.Variant{Key: "entail_binary_fewshot", Prompt: "prompt_entail_binary_fewshot", Target: "target_entail_binary", Label: "label_binary",
		Choices: AnswersBinary[:], Shots: true, Notes: notes,
		About: `Binary entailment prompt with a worked example per label: answer "entailed" or "not entailed"`}
)

// tasks returns the tasks over one entailment prompt file, named after
// tag: for the three-way and the binary prompt a multiple_choice task
// (tag_entail, tag_entail_binary) and a generate_until task (the same
// with _gen), and with fewshot the same over the few-shot prompts
// (tag_entail_fewshot, tag_entail_binary_fewshot, and _gen).
func tasks(tag string, fewshot bool) []prompt.HarnessTask {
	vs := []prompt.Variant{VariantEntail, VariantEntailBinary}
	if fewshot {
		vs = append(vs, VariantEntailFewshot, VariantEntailBinaryFewshot)
	}
	return prompt.HarnessTasks(tag, vs...)
}

// problem is the premises and hypothesis paragraphs of a prompt.
func problem(premises, hypothesis string) string {
	return "Premises: " + premises + "\n\nHypothesis: " + hypothesis + "\n\nA:"
}

// Prompt is the zero-shot entailment prompt: the question, the premises
// joined by spaces, the hypothesis, and "A:" (no space, as in the
// prompts of Appendix C). binary asks for entailed or not entailed.
func Prompt(binary bool, premises, hypothesis string) string {
	return Fewshot(binary, nil, premises, hypothesis)
}

// Fewshot is the entailment prompt with worked examples: the question
// once, each shot's premises, hypothesis and answer, then the evaluated
// problem. With no shots it is Prompt.
func Fewshot(binary bool, shots []*entailrec.Record, premises, hypothesis string) string {
	var b strings.Builder
	b.WriteString("Q: ")
	if binary {
		b.WriteString(questionBinary)
	} else {
		b.WriteString(questionEntail)
	}
	for _, s := range shots {
		answer := AnswersEntail[s.Label]
		if binary {
			answer = AnswersBinary[s.LabelBinary]
		}
		b.WriteString("\n\n" + problem(strings.Join(s.Premises, " "), s.Hypothesis) + " " + answer)
	}
	b.WriteString("\n\n" + problem(premises, hypothesis))
	return b.String()
}

// Row is one line of an entailment prompt file: the record's identity,
// strata and labels, and its four prompts with their expected answers.
// Field order is fixed; every key is in every row with one type (the
// few-shot prompts are "" and example_ids [] without worked examples).
type Row struct {
	ID              string `json:"id"`
	Fragment        string `json:"fragment"`
	PremisesText    string `json:"premises_text"`
	Hypothesis      string `json:"hypothesis"`
	Label           int    `json:"label"`
	LabelText       string `json:"label_text"`
	LabelBinary     int    `json:"label_binary"`
	LabelBinaryText string `json:"label_binary_text"`
	M               int    `json:"m"`
	N1              int    `json:"n1"`
	N2              int    `json:"n2"`
	SubsetSize      int    `json:"subset_size"`
	PromptEntail    string `json:"prompt_entail"`
	TargetEntail    string `json:"target_entail"`
	PromptBinary    string `json:"prompt_entail_binary"`
	TargetBinary    string `json:"target_entail_binary"`
	PromptFewshot   string `json:"prompt_entail_fewshot"`
	PromptBinaryFew string `json:"prompt_entail_binary_fewshot"`
	// ExampleIDs are the ids of the worked examples of the few-shot
	// prompts, in the order shown.
	ExampleIDs []string `json:"example_ids"`
}

// NewRow renders an entailment record into its prompts; shots are the
// worked examples of its fragment (none: no few-shot prompts).
func NewRow(r *entailrec.Record, shots []*entailrec.Record) Row {
	premises := strings.Join(r.Premises, " ")
	row := Row{ID: r.ID, Fragment: r.Fragment, PremisesText: premises, Hypothesis: r.Hypothesis,
		Label: r.Label, LabelText: AnswersEntail[r.Label], LabelBinary: r.LabelBinary, LabelBinaryText: AnswersBinary[r.LabelBinary],
		M: len(r.Premises), N1: r.N1, N2: r.N2, SubsetSize: len(r.Certificate.Subset),
		PromptEntail: Prompt(false, premises, r.Hypothesis), TargetEntail: AnswersEntail[r.Label],
		PromptBinary: Prompt(true, premises, r.Hypothesis), TargetBinary: AnswersBinary[r.LabelBinary],
		ExampleIDs: []string{}}
	if len(shots) > 0 {
		row.PromptFewshot = Fewshot(false, shots, premises, r.Hypothesis)
		row.PromptBinaryFew = Fewshot(true, shots, premises, r.Hypothesis)
		for _, s := range shots {
			row.ExampleIDs = append(row.ExampleIDs, s.ID)
		}
	}
	return row
}

// Shots picks the worked examples of the few-shot prompts from training
// records: per fragment, one record of each label, each the first of its
// label in file order whose premises no shot taken before has (so the
// examples show three premise sets where the data allows; records come
// in triples sharing premises), shown in the order taken. A fragment
// whose records lack a label gets no shots.
func Shots(train []*entailrec.Record) map[string][]*entailrec.Record {
	out := map[string][]*entailrec.Record{}
	for _, distinct := range []bool{true, false} {
		for _, r := range train {
			s := out[r.Fragment]
			if len(s) == len(AnswersEntail) || hasLabel(s, r.Label) || distinct && hasPremises(s, r.Premises) {
				continue
			}
			out[r.Fragment] = append(s, r)
		}
	}
	for f, s := range out {
		if len(s) < len(AnswersEntail) {
			delete(out, f)
		}
	}
	return out
}

func hasLabel(s []*entailrec.Record, l int) bool {
	return slices.ContainsFunc(s, func(r *entailrec.Record) bool { return r.Label == l })
}

func hasPremises(s []*entailrec.Record, premises []string) bool {
	return slices.ContainsFunc(s, func(r *entailrec.Record) bool { return samePremises(r.Premises, premises) })
}

func samePremises(a, b []string) bool { return prompt.ProblemKey(a) == prompt.ProblemKey(b) }

// CheckShot refuses an evaluated record whose premises are a worked
// example's (in any order): the example would give its triple's answers
// away.
func CheckShot(r *entailrec.Record, shots []*entailrec.Record) error {
	for _, s := range shots {
		if s.ID == r.ID || samePremises(s.Premises, r.Premises) {
			return fmt.Errorf("record %s has the premises of the worked example %s: take the examples from the train split", r.ID, s.ID)
		}
	}
	return nil
}

// prompter is the task's part of a prompt run: records are entailment
// records, and the worked examples are one per label and fragment of
// training records (Shots), by default those of a dataset directory's
// train split.
type prompter struct{}

// record is a record as the prompt run sees it.
type record struct{ *entailrec.Record }

func (r record) Problem() string { return prompt.ProblemKey(r.Premises) }

func (prompter) Has() prompt.Options { return prompt.Options{} }

func (prompter) TrainExamples() bool { return true }

func (prompter) Read(file string, stdin io.Reader, fn func(prompt.Record, string) error) error {
	return entailrec.Each(file, stdin, func(r *entailrec.Record, where string) error { return fn(record{r}, where) })
}

// Examples picks the worked examples of file's records (Shots); none
// for "".
func (prompter) Examples(file string, stdin io.Reader, _ prompt.Options) (prompt.Examples, error) {
	e := &examples{file: file}
	if file == "" {
		return e, nil
	}
	var train []*entailrec.Record
	err := entailrec.Each(file, stdin, func(r *entailrec.Record, _ string) error {
		train = append(train, r)
		return nil
	})
	if err != nil {
		return nil, &inputerr.Error{Err: fmt.Errorf("worked examples: %w", err)}
	}
	e.shots = Shots(train)
	return e, nil
}

// examples are the worked examples of each fragment, taken from file
// ("" for none).
type examples struct {
	file  string
	shots map[string][]*entailrec.Record
}

// fragments returns the fragments that have worked examples, in the
// order of the language.
func (e *examples) fragments() []string {
	return slices.SortedFunc(maps.Keys(e.shots), fragments.CompareNames)
}

// About lists the worked examples per fragment, "S: a b c; V: d e f".
func (e *examples) About() string {
	if e.file == "" {
		return ""
	}
	var parts []string
	for _, f := range e.fragments() {
		var ids []string
		for _, r := range e.shots[f] {
			ids = append(ids, r.ID)
		}
		parts = append(parts, f+": "+strings.Join(ids, " "))
	}
	return "one per label of the record's fragment, from " + filepath.Base(e.file) + ": " + strings.Join(parts, "; ")
}

func (e *examples) Check(r prompt.Record) error {
	rec := r.(record).Record
	s := e.shots[rec.Fragment]
	if e.file != "" && s == nil {
		return fmt.Errorf("no worked examples for fragment %s: %s has no record of each label of it", rec.Fragment, e.file)
	}
	return CheckShot(rec, s)
}

func (e *examples) Shown(r prompt.Record) bool {
	rec := r.(record).Record
	return CheckShot(rec, e.shots[rec.Fragment]) != nil
}

func (e *examples) Row(r prompt.Record) (any, error) {
	rec := r.(record).Record
	return NewRow(rec, e.shots[rec.Fragment]), nil
}

// Rows are the worked examples' own rows, fragment by fragment, without
// few-shot prompts.
func (e *examples) Rows() ([]any, string) {
	var rows []any
	for _, f := range e.fragments() {
		for _, r := range e.shots[f] {
			rows = append(rows, NewRow(r, nil))
		}
	}
	return rows, "the worked examples alone"
}

func (e *examples) Tasks(tag string) []prompt.HarnessTask { return tasks(tag, e.file != "") }
