package eval

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/binom"
)

// Confidence is the level of every interval in a report.
const Confidence = 0.95

// Unknown is the group key of records whose certificate does not give the
// size a section groups by.
const Unknown = "unknown"

// Score is the accuracy of a group of scored records. An unparseable
// answer counts as wrong in Accuracy and is left out of
// AccuracyParseable (0 when no answer of the group is parseable).
type Score struct {
	Count             int     `json:"count"`
	Correct           int     `json:"correct"`
	Unparseable       int     `json:"unparseable"`
	Accuracy          float64 `json:"accuracy"`
	CILow             float64 `json:"ci_low"`
	CIHigh            float64 `json:"ci_high"`
	AccuracyParseable float64 `json:"accuracy_parseable"`
}

// Row is the score of one group of a breakdown: its parts (numbers
// written as decimal strings, bins as "LO-HI"), its score and, with
// Spec.Binary, its binary score.
type Row struct {
	Key []string
	Score
	Binary Score
}

// Section is a breakdown's rows, in order.
type Section struct {
	Name string // Breakdown.Name
	Rows []Row
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

// Report is the evaluation of a predictions file against gold records of
// a task. Its JSON form (MarshalJSON) has a fixed key order and every key
// of the task's report present.
type Report struct {
	spec   *Spec
	binary bool // the answers are scored as binary
	// Task, Answers and Labels head a report of Spec.Head: the task's
	// name, the kind of answers scored (Spec.Kind, or Binary.Kind when
	// the answers are scored as binary) and their labels.
	Task, Answers string
	Labels        []string
	Confidence    float64
	// MBinWidth is the width of the bins of a binned breakdown.
	MBinWidth   int
	Gold        int
	Predictions int
	Missing     int
	// Datasets are the configuration digests the gold ids carry (see
	// dataset.FormatID), sorted; TextsChecked counts the predictions whose
	// record's text was compared with gold's. With neither, nothing shows
	// that the predictions were made for this gold.
	Datasets     []string
	TextsChecked int
	// Unparsed are the scored answers that name no label (counted as
	// wrong; Score.Unparseable counts them), in gold order.
	Unparsed []Unparsed
	Overall  Score
	// Binary is the accuracy of the binary labels (Spec.Binary), answers
	// mapped to theirs.
	Binary Score
	// PerLabel, MacroF1 and the confusion matrix are those of Spec.PerLabel.
	// Confusion counts the scored records by gold label (rows) and answer
	// (columns), in Labels order; ConfusionInvalid the answers of no label
	// per gold label.
	PerLabel         []LabelScore
	MacroF1          float64
	Confusion        [][]int
	ConfusionInvalid []int
	// Sections are the breakdowns' rows, in the order of Spec.Breakdowns.
	Sections []Section
	// Pairs is the minimal pairs' section of Spec.Pairs, nil when no gold
	// record belongs to a pair.
	Pairs *PairReport
	// Chains is the chain-of-thought report of Config.Chains; absent
	// without it.
	Chains *ChainReport
}

// Section returns the rows of the breakdown named name.
func (r *Report) Section(name string) []Row {
	for _, s := range r.Sections {
		if s.Name == name {
			return s.Rows
		}
	}
	return nil
}

// Options say how predictions are scored.
type Options struct {
	// MBinWidth is the width of the bins of a binned breakdown (the
	// number of sentences m): 1..w, w+1..2w, and so on.
	MBinWidth int
	// AllowMissing leaves gold records without a prediction out of every
	// score (they are counted in Report.Missing) instead of failing.
	AllowMissing bool
	// Binary scores the binary labels (Spec.Binary) as the answers, as
	// when some answer names only a binary label.
	Binary bool
}

// MissingError reports gold records without a prediction.
type MissingError struct {
	Missing []Gold // in gold order
	Gold    int
}

func (e *MissingError) Error() string {
	g := e.Missing[0]
	return fmt.Sprintf("%d of %d gold records have no prediction (the first is %s, %s)", len(e.Missing), e.Gold, g.ID, g.Where)
}

type tally struct{ count, correct, unparseable int }

func (t *tally) add(correct, parsed bool) {
	t.count++
	if correct {
		t.correct++
	}
	if !parsed {
		t.unparseable++
	}
}

func (t tally) score() Score {
	s := Score{Count: t.count, Correct: t.correct, Unparseable: t.unparseable}
	if t.count > 0 {
		s.Accuracy = float64(t.correct) / float64(t.count)
		iv := binom.Wilson(t.correct, t.count, Confidence)
		s.CILow, s.CIHigh = iv.Lo, iv.Hi
	}
	if p := t.count - t.unparseable; p > 0 {
		s.AccuracyParseable = float64(t.correct) / float64(p)
	}
	return s
}

// Evaluate scores preds against gold of t. A prediction for an id that is
// not in gold is an error, which says so when the id names another
// dataset's configuration digest than gold's; so is a prediction that
// carries another record text or gold label than its gold record, and a
// gold record without a prediction unless opts.AllowMissing (the error
// is a *MissingError).
func Evaluate(t Task, gold []Gold, preds []Prediction, opts Options) (Report, error) {
	spec := t.Spec()
	binned := slices.ContainsFunc(spec.Breakdowns, func(b Breakdown) bool { return b.Binned })
	if binned && opts.MBinWidth <= 0 {
		return Report{}, fmt.Errorf("the m bin width must be positive, not %d", opts.MBinWidth)
	}
	m, err := match(gold, preds, spec.OtherText)
	if err != nil {
		return Report{}, err
	}
	var missing []Gold
	for i, g := range gold {
		if m.pred[i] < 0 {
			missing = append(missing, g)
		}
	}
	if len(missing) > 0 && !opts.AllowMissing {
		return Report{}, &MissingError{Missing: missing, Gold: len(gold)}
	}
	if len(missing) == len(gold) {
		return Report{}, fmt.Errorf("no prediction is for a gold record")
	}
	binary := false
	if spec.Binary != nil {
		binary = opts.Binary || slices.ContainsFunc(preds, func(p Prediction) bool { return p.Label < 0 && p.Binary >= 0 })
	}
	rep := Report{spec: spec, binary: binary, Confidence: Confidence, Gold: len(gold), Predictions: len(preds), Missing: len(missing),
		Datasets: m.digests, TextsChecked: m.texts, Unparsed: []Unparsed{}}
	if binned {
		rep.MBinWidth = opts.MBinWidth
	}
	labels, kind := spec.Labels, spec.Kind
	if binary {
		labels, kind = spec.Binary.Labels, spec.Binary.Kind
	}
	if spec.Head {
		rep.Task, rep.Answers, rep.Labels = spec.Name, kind, labels
	}
	n := len(labels)
	confusion, invalid := make([][]int, n), make([]int, n)
	for i := range confusion {
		confusion[i] = make([]int, n)
	}
	var overall, bin tally
	sections := make([]map[string]*[2]tally, len(spec.Breakdowns))
	for s := range sections {
		sections[s] = map[string]*[2]tally{}
	}
	answer, has := make([]int, len(gold)), make([]bool, len(gold))
	for i := range gold {
		g := &gold[i]
		if m.pred[i] < 0 {
			continue
		}
		p := &preds[m.pred[i]]
		answer[i], has[i] = p.Label, true
		want, got := g.Label, p.Label
		if binary {
			want, got = g.binary, p.Binary
		}
		ok, parsed := got == want, got >= 0
		okBin, parsedBin := p.Binary == g.binary, p.Binary >= 0
		overall.add(ok, parsed)
		bin.add(okBin, parsedBin)
		if parsed {
			confusion[want][got]++
		} else {
			invalid[want]++
			rep.Unparsed = append(rep.Unparsed, Unparsed{ID: g.ID, Answer: shorten(p.Answer)})
		}
		for s, b := range spec.Breakdowns {
			if s >= len(g.Groups) || g.Groups[s] == nil {
				continue
			}
			key := g.Groups[s]
			if b.Binned {
				key = []string{mBin(key[0], opts.MBinWidth)}
			}
			k := strings.Join(key, "\x00")
			t := sections[s][k]
			if t == nil {
				t = &[2]tally{}
				sections[s][k] = t
			}
			t[0].add(ok, parsed)
			t[1].add(okBin, parsedBin)
		}
	}
	rep.Overall, rep.Binary = overall.score(), bin.score()
	if spec.PerLabel {
		rep.Confusion, rep.ConfusionInvalid = confusion, invalid
		rep.PerLabel, rep.MacroF1 = perLabel(labels, confusion, invalid)
	}
	for s, b := range spec.Breakdowns {
		rows := []Row{}
		for k, t := range sections[s] {
			rows = append(rows, Row{Key: strings.Split(k, "\x00"), Score: t[0].score(), Binary: t[1].score()})
		}
		slices.SortFunc(rows, func(x, y Row) int {
			for i, part := range b.Parts {
				if c := part.Order(x.Key[i], y.Key[i]); c != 0 {
					return c
				}
			}
			return 0
		})
		rep.Sections = append(rep.Sections, Section{Name: b.Name, Rows: rows})
	}
	if spec.Pairs {
		if rep.Pairs, err = scorePairs(gold, answer, has); err != nil {
			return Report{}, err
		}
	}
	return rep, nil
}

// Unparsed is an answer that names no label.
type Unparsed struct {
	ID string `json:"id"`
	// Answer is the text, cut to its first 200 characters.
	Answer string `json:"answer"`
}

func shorten(s string) string {
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}

// mBin names the bin of the number m: with width w, 1..w, w+1..2w and so
// on; m itself when w is 1.
func mBin(m string, width int) string {
	if width == 1 {
		return m
	}
	v, _ := strconv.Atoi(m)
	lo := (v-1)/width*width + 1
	return fmt.Sprintf("%d-%d", lo, lo+width-1)
}

// CompareNumeric orders keys by the number they start with ("6-10" by 6),
// with Unknown and other words last.
func CompareNumeric(x, y string) int {
	num := func(k string) int {
		lo, _, _ := strings.Cut(k, "-")
		if n, err := strconv.Atoi(lo); err == nil {
			return n
		}
		return int(^uint(0) >> 1)
	}
	return cmp.Or(cmp.Compare(num(x), num(y)), strings.Compare(x, y))
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
