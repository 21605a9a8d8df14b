package entailment

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/entail"
	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/fragments"
)

// Eval is the entailment task's part of eval: records with a three-way
// label, scored with the binary accuracy beside (neutral and contradiction
// are not entailed), precision, recall and F1 per label, macro-F1 and the
// confusion matrix in MNLI's order, per split file, fragment, difficulty
// (difficulty.subset_size) and split file and fragment. Answers are
// "label" (0, 1, 2), else "label_binary" (0, 1), else "label_text" or
// free text, read by ReadAnswer; a label out of range or text with no
// answer word is an invalid answer, counted as wrong, not an error. When
// an answer is binary only ("not entailed", label_binary, a choice of a
// two-way lm-eval task), or the file is lm-eval's samples of a _binary
// task, every answer is scored as binary.
var Eval eval.Task = evalTask{}

type evalTask struct{}

// The breakdowns of the report, in order.
const (
	bySplit = iota
	byFragment
	bySubsetSize
	bySplitFragment
	numBreakdowns
)

func key(column string, order func(x, y string) int) []eval.Part {
	return []eval.Part{{Field: "key", Column: column, Order: order}}
}

var evalSpec = &eval.Spec{
	Name:   entail.TaskName,
	Labels: entailrec.LabelNames[:],
	Kind:   "three-way",
	Binary: &eval.Binary{Kind: "binary", Labels: entailrec.BinaryNames[:],
		Of:      []int{entailrec.Entailment.Binary(), entailrec.Neutral.Binary(), entailrec.Contradiction.Binary()},
		Samples: "_entail_binary"},
	Keys:      []string{"label", "label_binary", "label_text"},
	TextKeys:  []string{"premises_text", "hypothesis"},
	OtherText: "other premises or another hypothesis",
	Invalid:   "invalid",
	Breakdowns: []eval.Breakdown{
		bySplit:         {Name: "by_split", Title: "By split file", Parts: key("split", eval.CompareSplits)},
		byFragment:      {Name: "by_fragment", Title: "By fragment", Parts: key("fragment", fragments.CompareNames)},
		bySubsetSize:    {Name: "by_subset_size", Title: "By difficulty (size of the certificate's subset; 0 for neutral)", Parts: key("subset", eval.CompareNumeric)},
		bySplitFragment: {Name: "by_split_fragment", Title: "By split file and fragment", Parts: key("split/fragment", compareSplitFragment)},
	},
	Head:     true,
	PerLabel: true,
}

func (evalTask) Spec() *eval.Spec { return evalSpec }

// compareSplitFragment orders "split/fragment" keys by split, then
// fragment.
func compareSplitFragment(x, y string) int {
	xs, xf, _ := strings.Cut(x, "/")
	ys, yf, _ := strings.Cut(y, "/")
	return cmp.Or(eval.CompareSplits(xs, ys), fragments.CompareNames(xf, yf))
}

// recordInfo is what the per-record file says of a record.
type recordInfo struct {
	Fragment string `json:"fragment"`
}

func (evalTask) ReadGold(name, split string, fn func(eval.Gold) error) error {
	return entailrec.Each(name, nil, func(r *entailrec.Record, where string) error {
		g := eval.Gold{ID: r.ID, Label: int(r.Label), Info: recordInfo{Fragment: r.Fragment},
			Text: eval.TextSum(strings.Join(r.Premises, " ") + "\n" + r.Hypothesis), Where: where}
		g.Groups = make([][]string, numBreakdowns)
		g.Groups[byFragment] = []string{r.Fragment}
		g.Groups[bySubsetSize] = []string{strconv.Itoa(len(r.Certificate.Subset))}
		if split != "" {
			g.Groups[bySplit] = []string{split}
			g.Groups[bySplitFragment] = []string{split + "/" + r.Fragment}
		}
		return fn(g)
	})
}

// ReadKey reads "label" (0, 1, 2) and "label_binary" (0, 1), numbers
// whose text is the answer, a value out of range an invalid answer; and
// "label_text", read by ReadAnswer.
func (evalTask) ReadKey(key string, raw json.RawMessage) (eval.Answer, error) {
	if key == "label_text" {
		var s string
		json.Unmarshal(raw, &s) // not a string: an invalid answer
		a := readAnswer(s)
		a.Text = s
		return a, nil
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return eval.Answer{}, fmt.Errorf("%s %s is not a number", key, raw)
	}
	a := labelAt(key == "label_binary", f)
	a.Text = strings.TrimSpace(string(raw))
	return a, nil
}

// labelAt is the answer of a label's number, or of a binary label's;
// one out of range names none.
func labelAt(binary bool, f float64) eval.Answer {
	switch {
	case binary && (f == 0 || f == 1):
		return eval.Answer{Label: eval.Unparseable, Binary: int(f)}
	case !binary && (f == 0 || f == 1 || f == 2):
		return eval.Answer{Label: int(f)}
	}
	return eval.NoAnswer
}

// ReadText reads free text with ReadAnswer; the task has one set of
// answer words, "any".
func (evalTask) ReadText(text, set string) (eval.Answer, error) {
	if set != "" && set != "any" {
		return eval.NoAnswer, fmt.Errorf("unknown answer set %q: allowed values are any", set)
	}
	return readAnswer(text), nil
}

// ReadChoice reads the likeliest choice's text with ReadAnswer, where
// the arguments do not give the texts by its index (three choices: the
// label; two: the binary label); a choice of two is a binary answer.
func (evalTask) ReadChoice(conts []string, k int) (eval.Answer, error) {
	a := readAnswer(conts[k])
	if strings.TrimSpace(conts[k]) == "" {
		a = labelAt(len(conts) == 2, float64(k))
	} else if len(conts) == 2 {
		a.Label = eval.Unparseable // a binary task's choice
	}
	return a, nil
}

func readAnswer(text string) eval.Answer {
	l, b, phrase := ReadAnswer(text)
	return eval.Answer{Label: l, Binary: b, Phrase: phrase}
}

// answerWords are the answer names, lower case, with their three-way and
// binary labels; "entailed" is entailment too, "not entailed" only
// binary.
var answerWords = map[string][2]int{
	entailrec.LabelNames[entailrec.Entailment]:    {int(entailrec.Entailment), entailrec.Entailed},
	entailrec.LabelNames[entailrec.Neutral]:       {int(entailrec.Neutral), entailrec.NotEntailed},
	entailrec.LabelNames[entailrec.Contradiction]: {int(entailrec.Contradiction), entailrec.NotEntailed},
	entailrec.BinaryNames[entailrec.Entailed]:     {int(entailrec.Entailment), entailrec.Entailed},
	entailrec.BinaryNames[entailrec.NotEntailed]:  {-1, entailrec.NotEntailed},
}

// ReadAnswer reads an answer to an entailment prompt: its first answer
// word, compared without regard to case, whole words only: "entailment"
// or "entailed", "neutral", "contradiction", or "not entailed"
// ("entailed" right after "not" or a word ending in "n't"). The phrase is
// the span that decided; an answer with none of the words gives -1, -1.
func ReadAnswer(text string) (label, binary int, phrase string) {
	toks := eval.Tokenize(text)
	for i, t := range toks {
		l, ok := answerWords[t.Word]
		if !ok {
			continue
		}
		start := t.Start
		if t.Word == "entailed" && i > 0 && !toks[i-1].Boundary && (toks[i-1].Word == "not" || strings.HasSuffix(toks[i-1].Word, "n't")) {
			l, start = answerWords["not entailed"], toks[i-1].Start
		}
		return l[0], l[1], text[start:t.End]
	}
	return -1, -1, ""
}
