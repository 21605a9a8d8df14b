package eval

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/entailrec"
	"github.com/nlsat/nlsat/internal/fragments"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// The kinds of answers an entailment evaluation scores.
const (
	AnswersThreeWay = "three-way"
	AnswersBinary   = "binary"
)

// EntailReport is the evaluation of predictions against entailment gold.
// Its JSON form has a fixed key order and every key present.
type EntailReport struct {
	Task string `json:"task"` // "entailment"
	// Answers is AnswersThreeWay, or AnswersBinary when some answer is
	// binary only ("not entailed", label_binary, a choice of a binary
	// task) or the file is lm-eval's samples of a _binary task; Labels
	// are then entailed, not entailed, and Overall is the binary accuracy.
	Answers      string   `json:"answers"`
	Labels       []string `json:"labels"`
	Confidence   float64  `json:"confidence"`
	Gold         int      `json:"gold"`
	Predictions  int      `json:"predictions"`
	Missing      int      `json:"missing"`
	Datasets     []string `json:"datasets"`
	TextsChecked int      `json:"texts_checked"`
	// InvalidAnswers are the scored answers that are none of the labels
	// (counted as wrong; Score.Unparseable counts them), in gold order.
	InvalidAnswers []Unparsed `json:"invalid_answers"`
	Overall        Score      `json:"overall"`
	// Binary is the accuracy of entailed against not entailed, three-way
	// answers mapped (neutral and contradiction are not entailed).
	Binary   Score        `json:"binary"`
	PerLabel []LabelScore `json:"per_label"`
	MacroF1  float64      `json:"macro_f1"`
	// Confusion counts the scored records by gold label (rows) and
	// answer (columns), in Labels order; ConfusionInvalid the invalid
	// answers per gold label.
	Confusion        [][]int     `json:"confusion"`
	ConfusionInvalid []int       `json:"confusion_invalid"`
	BySplit          []EntailRow `json:"by_split"`
	ByFragment       []EntailRow `json:"by_fragment"`
	// BySubsetSize groups by difficulty.subset_size, the premises that
	// prove entailment or contradiction (0 for neutral).
	BySubsetSize    []EntailRow `json:"by_subset_size"`
	BySplitFragment []EntailRow `json:"by_split_fragment"` // keys "split/fragment"
}

// LabelScore is the precision, recall and F1 of one label; 0 where
// undefined.
type LabelScore struct {
	Label     string  `json:"label"`
	Support   int     `json:"support"`   // gold records of the label
	Predicted int     `json:"predicted"` // answers of the label
	Correct   int     `json:"correct"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// EntailRow is the score of one group, with its binary accuracy.
type EntailRow struct {
	Key string `json:"key"`
	Score
	Binary Score `json:"binary"`
}

// EvaluateEntail scores preds against entailment gold, matching them as
// Evaluate does (unknown ids, other texts or doc labels are errors; so
// are gold records without a prediction unless opts.AllowMissing).
// binary forces binary scoring.
func EvaluateEntail(gold []EntailGold, preds []EntailPrediction, opts Options, binary bool) (EntailReport, error) {
	at, digests, texts, err := matchEntail(gold, preds)
	if err != nil {
		return EntailReport{}, err
	}
	var missing []Gold
	for i, g := range gold {
		if at[i] < 0 {
			missing = append(missing, Gold{ID: g.ID, Where: g.Where})
		}
	}
	if len(missing) > 0 && !opts.AllowMissing {
		return EntailReport{}, &MissingError{Missing: missing, Gold: len(gold)}
	}
	if len(missing) == len(gold) {
		return EntailReport{}, fmt.Errorf("no prediction is for a gold record")
	}
	for _, p := range preds {
		binary = binary || (p.Label < 0 && p.Binary >= 0)
	}
	rep := EntailReport{Task: "entailment", Answers: AnswersThreeWay, Labels: entailrec.LabelNames[:],
		Confidence: Confidence, Gold: len(gold), Predictions: len(preds), Missing: len(missing),
		Datasets: digests, TextsChecked: texts, InvalidAnswers: []Unparsed{}}
	if binary {
		rep.Answers, rep.Labels = AnswersBinary, entailrec.BinaryNames[:]
	}
	n := len(rep.Labels)
	rep.Confusion, rep.ConfusionInvalid = make([][]int, n), make([]int, n)
	for i := range rep.Confusion {
		rep.Confusion[i] = make([]int, n)
	}
	var overall, bin tally
	sections := [4]map[string]*[2]tally{{}, {}, {}, {}}
	for i, g := range gold {
		if at[i] < 0 {
			continue
		}
		p := &preds[at[i]]
		want, got := g.Label, p.Label
		if binary {
			want, got = g.Binary, p.Binary
		}
		ok, okBin, parsed := got == want, p.Binary == g.Binary, got >= 0
		overall.add(ok, parsed)
		bin.add(okBin, p.Binary >= 0)
		if parsed {
			rep.Confusion[want][got]++
		} else {
			rep.ConfusionInvalid[want]++
			rep.InvalidAnswers = append(rep.InvalidAnswers, Unparsed{ID: g.ID, Answer: shorten(p.Answer)})
		}
		keys := [4]string{g.Split, g.Fragment, strconv.Itoa(g.SubsetSize), g.Split + "/" + g.Fragment}
		for s, k := range keys {
			if g.Split == "" && (s == 0 || s == 3) {
				continue
			}
			t := sections[s][k]
			if t == nil {
				t = &[2]tally{}
				sections[s][k] = t
			}
			t[0].add(ok, parsed)
			t[1].add(okBin, p.Binary >= 0)
		}
	}
	rep.Overall, rep.Binary = overall.score(), bin.score()
	rep.PerLabel, rep.MacroF1 = perLabel(rep.Labels, rep.Confusion, rep.ConfusionInvalid)
	order := [4]func(x, y string) int{compareSplits, fragments.CompareNames, compareNumeric, compareSplitFragment}
	dst := [4]*[]EntailRow{&rep.BySplit, &rep.ByFragment, &rep.BySubsetSize, &rep.BySplitFragment}
	for s, m := range sections {
		rows := []EntailRow{}
		for k, t := range m {
			rows = append(rows, EntailRow{Key: k, Score: t[0].score(), Binary: t[1].score()})
		}
		slices.SortFunc(rows, func(x, y EntailRow) int { return order[s](x.Key, y.Key) })
		*dst[s] = rows
	}
	return rep, nil
}

func compareSplitFragment(x, y string) int {
	xs, xf, _ := strings.Cut(x, "/")
	ys, yf, _ := strings.Cut(y, "/")
	return cmp.Or(compareSplits(xs, ys), fragments.CompareNames(xf, yf))
}

// perLabel computes each label's precision, recall and F1 from the
// confusion matrix, and their mean, the macro-F1.
func perLabel(labels []string, conf [][]int, invalid []int) ([]LabelScore, float64) {
	var out []LabelScore
	macro := 0.0
	for k, name := range labels {
		s := LabelScore{Label: name, Correct: conf[k][k], Support: invalid[k]}
		for j := range labels {
			s.Support += conf[k][j]
			s.Predicted += conf[j][k]
		}
		if s.Predicted > 0 {
			s.Precision = float64(s.Correct) / float64(s.Predicted)
		}
		if s.Support > 0 {
			s.Recall = float64(s.Correct) / float64(s.Support)
		}
		if s.Precision+s.Recall > 0 {
			s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		macro += s.F1 / float64(len(labels))
		out = append(out, s)
	}
	return out, macro
}

// matchEntail finds each prediction's gold record, checking texts and doc
// labels as match does; at[i] is gold i's prediction or -1.
func matchEntail(gold []EntailGold, preds []EntailPrediction) (at []int, digests []string, texts int, err error) {
	at, digests = make([]int, len(gold)), []string{}
	index := make(map[string]int, len(gold))
	for i, g := range gold {
		index[g.ID], at[i] = i, -1
		if d, ok := dataset.IDDigest(g.ID); ok && !slices.Contains(digests, d) {
			digests = append(digests, d)
		}
	}
	slices.Sort(digests)
	for k := range preds {
		p := &preds[k]
		i, ok := index[p.ID]
		if !ok {
			return nil, nil, 0, unknownID(&Prediction{ID: p.ID, Where: p.Where}, digests)
		}
		g := &gold[i]
		if p.hasText {
			if p.text != g.text {
				return nil, nil, 0, fmt.Errorf("%s: prediction for %s carries other premises or another hypothesis than the gold record (%s): it was made for another dataset", p.Where, p.ID, g.Where)
			}
			texts++
		}
		if p.hasDocLabel && p.docLabel != g.Label {
			return nil, nil, 0, fmt.Errorf("%s: the lm-eval doc of %s has label %d, but the gold record (%s) has %d: the prompts were made from other data", p.Where, p.ID, p.docLabel, g.Where, g.Label)
		}
		at[i] = k
	}
	return at, digests, texts, nil
}

// RunEntail is Run for entailment gold (RecordSchema is
// entailrec.Schema): it reads the gold and predictions, scores them,
// and writes the per-record file. A predictions file named after
// lm-eval's samples of a _binary task is scored as binary. Plots and
// chains are sat/unsat only. Errors about the inputs are
// *inputerr.Errors.
func RunEntail(c Config, stdin io.Reader) (EntailReport, error) {
	switch {
	case c.Plot != "":
		return EntailReport{}, inputerr.Errorf("--plot draws accuracy against n of sat/unsat records, not of entailment records")
	case c.Chains:
		return EntailReport{}, inputerr.Errorf("--chains checks sat/unsat chains of thought, not entailment answers")
	case c.PerRecord == "-":
		return EntailReport{}, inputerr.Errorf("--per-record must name a file, not stdout, which has the report")
	}
	gold, err := ReadEntailGold(c.Gold)
	if err != nil {
		return EntailReport{}, &inputerr.Error{Err: err}
	}
	name, r := "stdin", stdin
	if c.Pred != "-" {
		f, err := dataset.OpenFile(c.Pred)
		if err != nil {
			return EntailReport{}, inputerr.Errorf("cannot read predictions: %w", err)
		}
		defer f.Close()
		name, r = c.Pred, f
	}
	preds, err := ReadEntailPredictions(r, name, c.PredOptions)
	if err != nil {
		return EntailReport{}, &inputerr.Error{Err: err}
	}
	base := filepath.Base(c.Pred)
	binary := strings.HasPrefix(base, "samples_") && (strings.Contains(base, "_entail_binary_") || strings.Contains(base, "_entail_binary."))
	rep, err := EvaluateEntail(gold, preds, c.Options, binary)
	if err != nil {
		if _, ok := err.(*MissingError); ok {
			err = fmt.Errorf("%w; --allow-missing scores the others", err)
		}
		return rep, &inputerr.Error{Err: err}
	}
	if c.PerRecord != "" {
		return rep, writeEntailPerRecord(c.PerRecord, gold, preds, rep.Answers == AnswersBinary)
	}
	return rep, nil
}
