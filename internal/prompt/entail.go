package prompt

import (
	"fmt"
	"strings"

	"github.com/nlsat/nlsat/internal/entailrec"
)

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

// The entailment variants: three-way and binary, zero-shot and with one
// worked example per label of the record's fragment (few-shot).
var (
	VariantEntail = Variant{Key: "entail", Prompt: "prompt_entail", Target: "target_entail", Label: "label",
		Choices: AnswersEntail[:], About: `Entailment prompt: premises and hypothesis, answer "entailment", "neutral" or "contradiction"`}
	VariantEntailBinary = Variant{Key: "entail_binary", Prompt: "prompt_entail_binary", Target: "target_entail_binary", Label: "label_binary",
		Choices: AnswersBinary[:], About: `Binary entailment prompt: premises and hypothesis, answer "entailed" or "not entailed"`}
	VariantEntailFewshot = Variant{Key: "entail_fewshot", Prompt: "prompt_entail_fewshot", Target: "target_entail", Label: "label",
		Choices: AnswersEntail[:], Shots: true,
		About: `Entailment prompt with a worked example per label: answer "entailment", "neutral" or "contradiction"`}
	VariantEntailBinaryFewshot = Variant{Key: "entail_binary_fewshot", Prompt: "prompt_entail_binary_fewshot", Target: "target_entail_binary", Label: "label_binary",
		Choices: AnswersBinary[:], Shots: true,
		About: `Binary entailment prompt with a worked example per label: answer "entailed" or "not entailed"`}
)

// EntailTasks returns the tasks over one entailment prompt file, named
// after tag: for the three-way and the binary prompt a multiple_choice
// task (tag_entail, tag_entail_binary) and a generate_until task (the same
// with _gen), and with fewshot the same over the few-shot prompts
// (tag_entail_fewshot, tag_entail_binary_fewshot, and _gen).
func EntailTasks(tag string, fewshot bool) []Task {
	vs := []Variant{VariantEntail, VariantEntailBinary}
	if fewshot {
		vs = append(vs, VariantEntailFewshot, VariantEntailBinaryFewshot)
	}
	var out []Task
	for _, v := range vs {
		out = append(out, Task{tag + "_" + v.Key, v, false, false}, Task{tag + "_" + v.Key + "_gen", v, true, false})
	}
	return out
}

// entailProblem is the premises and hypothesis paragraphs of a prompt.
func entailProblem(premises, hypothesis string) string {
	return "Premises: " + premises + "\n\nHypothesis: " + hypothesis + "\n\nA:"
}

// EntailPrompt is the zero-shot entailment prompt: the question, the
// premises joined by spaces, the hypothesis, and "A:" (no space, as in
// the prompts of Appendix C). binary asks for entailed or not entailed.
func EntailPrompt(binary bool, premises, hypothesis string) string {
	return EntailFewshot(binary, nil, premises, hypothesis)
}

// EntailFewshot is the entailment prompt with worked examples: the
// question once, each shot's premises, hypothesis and answer, then the
// evaluated problem. With no shots it is EntailPrompt.
func EntailFewshot(binary bool, shots []*entailrec.Record, premises, hypothesis string) string {
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
		b.WriteString("\n\n" + entailProblem(strings.Join(s.Premises, " "), s.Hypothesis) + " " + answer)
	}
	b.WriteString("\n\n" + entailProblem(premises, hypothesis))
	return b.String()
}

// EntailRow is one line of an entailment prompt file: the record's
// identity, strata and labels, and its four prompts with their expected
// answers. Field order is fixed; every key is in every row with one type
// (the few-shot prompts are "" and example_ids [] without worked examples).
type EntailRow struct {
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

// NewEntailRow renders an entailment record into its prompts; shots are
// the worked examples of its fragment (none: no few-shot prompts).
func NewEntailRow(r *entailrec.Record, shots []*entailrec.Record) EntailRow {
	premises := strings.Join(r.Premises, " ")
	row := EntailRow{ID: r.ID, Fragment: r.Fragment, PremisesText: premises, Hypothesis: r.Hypothesis,
		Label: r.Label, LabelText: AnswersEntail[r.Label], LabelBinary: r.LabelBinary, LabelBinaryText: AnswersBinary[r.LabelBinary],
		M: len(r.Premises), N1: r.N1, N2: r.N2, SubsetSize: len(r.Certificate.Subset),
		PromptEntail: EntailPrompt(false, premises, r.Hypothesis), TargetEntail: AnswersEntail[r.Label],
		PromptBinary: EntailPrompt(true, premises, r.Hypothesis), TargetBinary: AnswersBinary[r.LabelBinary],
		ExampleIDs: []string{}}
	if len(shots) > 0 {
		row.PromptFewshot = EntailFewshot(false, shots, premises, r.Hypothesis)
		row.PromptBinaryFew = EntailFewshot(true, shots, premises, r.Hypothesis)
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
	for _, r := range s {
		if r.Label == l {
			return true
		}
	}
	return false
}

func hasPremises(s []*entailrec.Record, premises []string) bool {
	for _, r := range s {
		if samePremises(r.Premises, premises) {
			return true
		}
	}
	return false
}

func samePremises(a, b []string) bool {
	return strings.Join(sortedSet(a), "\n") == strings.Join(sortedSet(b), "\n")
}

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
