package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nlsat/nlsat/internal/entailrec"
)

// EntailGold is what scoring needs of one entailment record.
type EntailGold struct {
	ID       string
	Split    string // the split file's name; empty for a single file
	Fragment string
	// Label is the three-way label (0 entailment, 1 neutral, 2
	// contradiction), Binary the binary one (0 entailed, 1 not entailed).
	Label, Binary int
	SubsetSize    int // difficulty.subset_size
	Where         string
	text          uint64 // textSum of the premises and the hypothesis
}

// ReadEntailGold reads the entailment records of a file or dataset
// directory (as ReadGold reads sat/unsat ones); ids must be unique.
func ReadEntailGold(path string) ([]EntailGold, error) {
	var gold []EntailGold
	seen := ids{}
	err := eachGoldFile(path, func(name, split string) error {
		return EachEntail(name, nil, func(r *entailrec.Record, where string) error {
			if err := seen.add(r.ID, where); err != nil {
				return err
			}
			gold = append(gold, EntailGold{ID: r.ID, Split: split, Fragment: r.Fragment, Label: r.Label, Binary: r.LabelBinary,
				SubsetSize: len(r.Certificate.Subset), Where: where, text: entailText(strings.Join(r.Premises, " "), r.Hypothesis)})
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return gold, nil
}

// entailText hashes a problem's premises and hypothesis, as the prompt
// rows carry them.
func entailText(premises, hypothesis string) uint64 { return textSum(premises + "\n" + hypothesis) }

// EntailPrediction is one line of a predictions file for entailment gold.
type EntailPrediction struct {
	ID string
	// Label is the three-way answer (-1 when the answer gives none: "not
	// entailed", a binary label, or no answer), Binary the binary one (-1
	// when there is no answer).
	Label, Binary int
	// Source, Answer and Phrase are as in Prediction.
	Source, Answer, Phrase string
	Where                  string

	text                 uint64
	hasText, hasDocLabel bool
	docLabel             int
	filter               string
}

// Invalid reports whether the prediction is none of the answers.
func (p *EntailPrediction) Invalid() bool { return p.Binary < 0 }

// entailWords are the answer names, lower case, with their three-way and
// binary labels; "entailed" is entailment too, "not entailed" only binary.
var entailWords = map[string][2]int{
	entailrec.LabelNames[entailrec.Entailment]:    {int(entailrec.Entailment), entailrec.Entailed},
	entailrec.LabelNames[entailrec.Neutral]:       {int(entailrec.Neutral), entailrec.NotEntailed},
	entailrec.LabelNames[entailrec.Contradiction]: {int(entailrec.Contradiction), entailrec.NotEntailed},
	entailrec.BinaryNames[entailrec.Entailed]:     {int(entailrec.Entailment), entailrec.Entailed},
	entailrec.BinaryNames[entailrec.NotEntailed]:  {-1, entailrec.NotEntailed},
}

// ReadEntailAnswer reads an answer to an entailment prompt: its first
// answer word, compared without regard to case, whole words only:
// "entailment" or "entailed", "neutral", "contradiction", or "not
// entailed" ("entailed" right after "not" or a word ending in "n't").
// The phrase is the span that decided; an answer with none of the words
// gives -1, -1.
func ReadEntailAnswer(text string) (label, binary int, phrase string) {
	toks := tokenize(text)
	for i, t := range toks {
		l, ok := entailWords[t.word]
		if !ok {
			continue
		}
		start := t.start
		if t.word == "entailed" && i > 0 && !toks[i-1].boundary && (toks[i-1].word == "not" || strings.HasSuffix(toks[i-1].word, "n't")) {
			l, start = entailWords["not entailed"], toks[i-1].start
		}
		return l[0], l[1], text[start:t.end]
	}
	return -1, -1, ""
}

// ReadEntailPredictions reads predictions for entailment gold, in the
// formats ReadPredictions reads: an object with an "id" and "label" (0,
// 1, 2), else "label_binary" (0, 1), else "label_text" (a name), else free
// text (TextFields, or opts.Field); or an lm-eval sample of the tasks of
// nlsat prompt's entailment rows. Names and free text are read by
// ReadEntailAnswer; a label out of range or text with no answer word is
// an invalid prediction, counted, not an error.
func ReadEntailPredictions(r io.Reader, name string, opts PredOptions) ([]EntailPrediction, error) {
	decode := func(b []byte, where string) (EntailPrediction, bool, error) {
		p, skip, err := decodeEntailLine(b, opts)
		p.Where = where
		return p, skip, err
	}
	preds, err := readPredLines(r, name, opts.Filter, decode, func(p *EntailPrediction) string { return p.ID }, sameEntailSample)
	if err == nil && len(preds) == 0 {
		err = fmt.Errorf("%s: no lm-eval sample has the filter %q", name, opts.Filter)
	}
	if err != nil {
		return nil, err
	}
	return preds, nil
}

// sameEntailSample accepts the second line for an id when both are
// lm-eval samples of one document under two filters with the same raw
// response, as sameSample does; any other repeat is a duplicate.
func sameEntailSample(first, p EntailPrediction) error {
	if first.filter == "" || p.filter == "" || first.filter == p.filter || first.Answer != p.Answer {
		return fmt.Errorf("%s: duplicate prediction for id %s (first at %s)", p.Where, p.ID, first.Where)
	}
	return nil
}

func decodeEntailLine(b []byte, opts PredOptions) (p EntailPrediction, skip bool, err error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return p, false, fmt.Errorf("not a prediction: %w", err)
	}
	if obj["doc_id"] != nil && obj["doc"] != nil {
		return readEntailSample(b, opts)
	}
	if opts.Filter != "" {
		return p, false, fmt.Errorf("not an lm-eval sample (no doc_id and doc), but a filter was named")
	}
	if err := json.Unmarshal(obj["id"], &p.ID); err != nil || p.ID == "" {
		return p, false, fmt.Errorf("prediction has no id (a non-empty string)")
	}
	p.text, p.hasText = entailDocText(obj)
	p.Label, p.Binary = -1, -1
	keys := []string{"label", "label_binary", "label_text"}
	if opts.Field != "" {
		keys = []string{opts.Field}
	}
	for _, k := range append(keys, TextFields...) {
		raw, ok := obj[k]
		if !ok || (isNull(raw) && opts.Field == "") {
			continue
		}
		p.Source = k
		var f float64
		switch {
		case (k == "label" || k == "label_binary") && opts.Field == "":
			if json.Unmarshal(raw, &f) != nil {
				return p, false, fmt.Errorf("prediction %s: %s %s is not a number", p.ID, k, raw)
			}
			p.Answer = strings.TrimSpace(string(raw))
			p.setLabel(k == "label_binary", f)
		default:
			json.Unmarshal(raw, &p.Answer) // not a string: an invalid answer
			p.Label, p.Binary, p.Phrase = ReadEntailAnswer(p.Answer)
		}
		return p, false, nil
	}
	return p, false, fmt.Errorf("prediction %s has none of label, label_binary, label_text, %s (name another key with --field)", p.ID, strings.Join(TextFields, ", "))
}

// setLabel sets the labels of a numeric answer; one out of range leaves
// the prediction invalid.
func (p *EntailPrediction) setLabel(binary bool, f float64) {
	switch {
	case binary && (f == 0 || f == 1):
		p.Binary = int(f)
	case !binary && (f == 0 || f == 1 || f == 2):
		p.Label, p.Binary = int(f), entailrec.Label(f).Binary()
	}
}

// entailDocText hashes the premises_text and hypothesis of a line or an
// lm-eval doc, if it has both.
func entailDocText(obj map[string]json.RawMessage) (uint64, bool) {
	var premises, hyp string
	if json.Unmarshal(obj["premises_text"], &premises) != nil || json.Unmarshal(obj["hypothesis"], &hyp) != nil {
		return 0, false
	}
	return entailText(premises, hyp), true
}

// readEntailSample reads an lm-eval sample of an entailment task: a
// generation by ReadEntailAnswer, a multiple-choice answer by its
// likeliest choice's text, or where the arguments do not give the texts
// by its index (three choices: label; two: label_binary).
func readEntailSample(b []byte, opts PredOptions) (EntailPrediction, bool, error) {
	s, id, skip, err := openSample(b, opts)
	p := EntailPrediction{ID: id.ID, Label: -1, Binary: -1, hasDocLabel: id.hasDocLabel, docLabel: id.docLabel, filter: id.filter}
	p.text, p.hasText = entailDocText(s.Doc)
	if err != nil || skip {
		return p, skip, err
	}
	if s.loglikelihoods() {
		p.Source = "loglikelihood"
		best, conts, desc, err := s.likeliest(p.ID)
		if err != nil {
			return p, false, err
		}
		p.Answer = desc
		p.Label, p.Binary, p.Phrase = ReadEntailAnswer(conts[best])
		if strings.TrimSpace(conts[best]) == "" {
			p.setLabel(len(conts) == 2, float64(best))
		} else if len(conts) == 2 {
			p.Label = -1 // a binary task's choice
		}
		return p, false, nil
	}
	if p.Answer, p.Source, err = s.generation(p.ID, opts.Filter); err != nil {
		return p, false, err
	}
	p.Label, p.Binary, p.Phrase = ReadEntailAnswer(p.Answer)
	return p, false, nil
}
