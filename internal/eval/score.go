package eval

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/binom"
	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/fragments"
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

// Row is the score of one group of a section; numbers are written as
// decimal strings, m bins as "LO-HI".
type Row struct {
	Key string `json:"key"`
	Score
}

// FragmentNRow is the score of one fragment at one n = n1 + n2: a point of
// the paper's Figure 3.
type FragmentNRow struct {
	Fragment string `json:"fragment"`
	N        int    `json:"n"`
	Score
}

// SplitFragmentRow is the score of one fragment in one split file: the
// cells of the paper's Tables 1 to 3 when test and generalisation are
// split files.
type SplitFragmentRow struct {
	Split    string `json:"split"`
	Fragment string `json:"fragment"`
	Score
}

// Report is the evaluation of a predictions file against gold records. Its
// JSON form has a fixed key order and every key present; Pairs is null
// when no gold record belongs to a minimal pair.
type Report struct {
	Confidence  float64 `json:"confidence"`
	MBinWidth   int     `json:"m_bin_width"`
	Gold        int     `json:"gold"`
	Predictions int     `json:"predictions"`
	Missing     int     `json:"missing"`
	// Datasets are the configuration digests the gold ids carry (see
	// dataset.FormatID), sorted; TextsChecked counts the predictions whose
	// instance text was compared with gold's. With neither, nothing shows
	// that the predictions were made for this gold.
	Datasets     []string `json:"datasets"`
	TextsChecked int      `json:"texts_checked"`
	// UnparseableAnswers are the scored answers in which no answer word
	// was found, in gold order.
	UnparseableAnswers []Unparsed         `json:"unparseable_answers"`
	Overall            Score              `json:"overall"`
	BySplit            []Row              `json:"by_split"`
	ByFragment         []Row              `json:"by_fragment"`
	ByN                []Row              `json:"by_n"`
	ByMBin             []Row              `json:"by_m_bin"`
	ByLabel            []Row              `json:"by_label"`
	ByMUSSize          []Row              `json:"by_mus_size"`
	ByModelSize        []Row              `json:"by_model_size"`
	ByFragmentN        []FragmentNRow     `json:"by_fragment_n"`
	BySplitFragment    []SplitFragmentRow `json:"by_split_fragment"`
	Pairs              *PairReport        `json:"pairs"`
	// Chains is the chain-of-thought report of Config.Chains; absent
	// without it.
	Chains *ChainReport `json:"chains,omitempty"`
}

// Options say how predictions are scored.
type Options struct {
	// MBinWidth is the width of the bins of m: 1..w, w+1..2w, and so on.
	MBinWidth int
	// AllowMissing leaves gold records without a prediction out of every
	// score (they are counted in Report.Missing) instead of failing.
	AllowMissing bool
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

// Evaluate scores preds against gold. A prediction for an id that is not
// in gold is an error, which says so when the id names another dataset's
// configuration digest than gold's; so is a prediction that carries
// another instance text or gold label than its gold record, and a gold
// record without a prediction unless opts.AllowMissing (the error is a
// *MissingError).
func Evaluate(gold []Gold, preds []Prediction, opts Options) (Report, error) {
	if opts.MBinWidth <= 0 {
		return Report{}, fmt.Errorf("the m bin width must be positive, not %d", opts.MBinWidth)
	}
	m, err := match(gold, preds)
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
	a := newAccumulator(opts.MBinWidth)
	answer, has := make([]int, len(gold)), make([]bool, len(gold))
	unparsed := []Unparsed{}
	for i, g := range gold {
		if k := m.pred[i]; k >= 0 {
			answer[i], has[i] = preds[k].Label, true
			a.add(&gold[i], answer[i] == g.Label, answer[i] != Unparseable)
			if answer[i] == Unparseable {
				unparsed = append(unparsed, Unparsed{ID: g.ID, Answer: shorten(preds[k].Answer)})
			}
		}
	}
	rep := a.report()
	rep.MBinWidth, rep.Gold, rep.Predictions, rep.Missing = opts.MBinWidth, len(gold), len(preds), len(missing)
	rep.Datasets, rep.TextsChecked, rep.UnparseableAnswers = m.digests, m.texts, unparsed
	pairs, err := scorePairs(gold, answer, has)
	if err != nil {
		return Report{}, err
	}
	rep.Pairs = pairs
	return rep, nil
}

// Unparsed is an answer in which no answer word was found.
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

// sections of a report, in the order of Report's fields.
const (
	secSplit = iota
	secFragment
	secN
	secMBin
	secLabel
	secMUS
	secModel
	numSections
)

type accumulator struct {
	width      int
	overall    tally
	sections   [numSections]map[string]*tally
	fragN      map[FragmentNRow]*tally // keys with a zero Score
	splitFrag  map[SplitFragmentRow]*tally
	haveSplits bool
}

func newAccumulator(width int) *accumulator {
	a := &accumulator{width: width, fragN: map[FragmentNRow]*tally{}, splitFrag: map[SplitFragmentRow]*tally{}}
	for i := range a.sections {
		a.sections[i] = map[string]*tally{}
	}
	return a
}

func bump[K comparable](m map[K]*tally, k K, correct, parsed bool) {
	t, ok := m[k]
	if !ok {
		t = &tally{}
		m[k] = t
	}
	t.add(correct, parsed)
}

func (a *accumulator) add(g *Gold, correct, parsed bool) {
	a.overall.add(correct, parsed)
	keys := [numSections]string{secFragment: g.Fragment, secN: strconv.Itoa(g.N()),
		secMBin: a.mBin(g.M), secLabel: dataset.LabelText(g.Label)}
	if g.Split != "" {
		keys[secSplit] = g.Split
		a.haveSplits = true
		bump(a.splitFrag, SplitFragmentRow{Split: g.Split, Fragment: g.Fragment}, correct, parsed)
	}
	if g.Label == dataset.LabelUnsat {
		keys[secMUS] = sizeKey(g.MUSSize)
	} else {
		keys[secModel] = sizeKey(g.ModelSize)
	}
	for s, k := range keys {
		if k != "" {
			bump(a.sections[s], k, correct, parsed)
		}
	}
	bump(a.fragN, FragmentNRow{Fragment: g.Fragment, N: g.N()}, correct, parsed)
}

// mBin names the bin of m: with width w, 1..w, w+1..2w and so on.
func (a *accumulator) mBin(m int) string {
	if a.width == 1 {
		return strconv.Itoa(m)
	}
	lo := (m-1)/a.width*a.width + 1
	return fmt.Sprintf("%d-%d", lo, lo+a.width-1)
}

func sizeKey(n int) string {
	if n <= 0 {
		return Unknown
	}
	return strconv.Itoa(n)
}

func (a *accumulator) report() Report {
	rep := Report{Confidence: Confidence, Overall: a.overall.score()}
	dst := [numSections]*[]Row{&rep.BySplit, &rep.ByFragment, &rep.ByN, &rep.ByMBin, &rep.ByLabel, &rep.ByMUSSize, &rep.ByModelSize}
	order := [numSections]func(x, y string) int{compareSplits, fragments.CompareNames, compareNumeric, compareNumeric, compareLabels, compareNumeric, compareNumeric}
	for s, m := range a.sections {
		rows := []Row{}
		for k, t := range m {
			rows = append(rows, Row{Key: k, Score: t.score()})
		}
		slices.SortFunc(rows, func(x, y Row) int { return order[s](x.Key, y.Key) })
		*dst[s] = rows
	}
	rep.ByFragmentN = []FragmentNRow{}
	for k, t := range a.fragN {
		k.Score = t.score()
		rep.ByFragmentN = append(rep.ByFragmentN, k)
	}
	slices.SortFunc(rep.ByFragmentN, func(x, y FragmentNRow) int {
		return cmp.Or(fragments.CompareNames(x.Fragment, y.Fragment), cmp.Compare(x.N, y.N))
	})
	rep.BySplitFragment = []SplitFragmentRow{}
	for k, t := range a.splitFrag {
		k.Score = t.score()
		rep.BySplitFragment = append(rep.BySplitFragment, k)
	}
	slices.SortFunc(rep.BySplitFragment, func(x, y SplitFragmentRow) int {
		return cmp.Or(compareSplits(x.Split, y.Split), fragments.CompareNames(x.Fragment, y.Fragment))
	})
	return rep
}

// compareNumeric orders keys by the number they start with ("6-10" by 6),
// with Unknown last.
func compareNumeric(x, y string) int {
	num := func(k string) int {
		lo, _, _ := strings.Cut(k, "-")
		if n, err := strconv.Atoi(lo); err == nil {
			return n
		}
		return int(^uint(0) >> 1)
	}
	return cmp.Or(cmp.Compare(num(x), num(y)), strings.Compare(x, y))
}

// compareLabels puts sat before unsat, the order of the paper's prompts
// (and of the alphabet).
func compareLabels(x, y string) int { return strings.Compare(x, y) }
